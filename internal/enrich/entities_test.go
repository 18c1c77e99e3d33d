package enrich

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestEntities(t *testing.T) {
	tests := []struct {
		name string
		text string
		kind string // which list to check
		want []string
	}{
		// Links
		{"link", "see https://example.com/a?b=c for more", "links", []string{"https://example.com/a?b=c"}},
		{"link with sentence punctuation", "Read this: http://example.org/x.", "links", []string{"http://example.org/x"}},
		{"link in parentheses", "(https://example.com/page)", "links", []string{"https://example.com/page"}},
		{"link with its own parentheses", "https://en.wikipedia.org/wiki/Paris_(disambiguation)", "links", []string{"https://en.wikipedia.org/wiki/Paris_(disambiguation)"}},
		{"www link and duplicates", "www.example.net and www.example.net again", "links", []string{"www.example.net"}},
		{"onion link", "mirror at http://abcdefghijklmnop.onion/market", "links", []string{"http://abcdefghijklmnop.onion/market"}},
		{"no scheme, no link", "example.com is not linked", "links", nil},

		// E-mails
		{"email", "write to John.Doe+tag@Example.COM today", "emails", []string{"John.Doe+tag@example.com"}},
		{"two emails", "a@b.io, c.d@e.co.uk", "emails", []string{"a@b.io", "c.d@e.co.uk"}},
		{"not an email", "user@localhost and @handle", "emails", nil},
		{"fediverse handle is no email", "follow @alice@mastodon.social", "emails", nil},

		// Handles
		{"handles", "thanks @jack and @Some_User!", "handles", []string{"jack", "Some_User"}},
		{"fediverse handle", "follow @alice@mastodon.social", "handles", []string{"alice@mastodon.social"}},
		{"email is no handle", "mail bob@example.com", "handles", nil},
		{"path is no handle", "https://medium.com/@writer/post", "handles", nil},

		// IP addresses
		{"ipv4", "C2 at 185.220.101.4 port 443", "ips", []string{"185.220.101.4"}},
		{"ipv4 with port", "connect 10.0.0.1:8080", "ips", []string{"10.0.0.1"}},
		{"ipv4 out of range", "999.1.1.1 and 256.256.256.256", "ips", nil},
		{"ipv4 leading zeros rejected", "010.001.001.001", "ips", nil},
		{"version number", "upgrade to 1.2.3.4.5 now", "ips", nil},
		{"ipv6", "beacon to 2001:db8::8a2e:370:7334.", "ips", []string{"2001:db8::8a2e:370:7334"}},
		{"ipv6 full form", "addr 2001:0db8:0000:0000:0000:ff00:0042:8329", "ips", []string{"2001:db8::ff00:42:8329"}},
		{"ipv6 loopback", "listen on ::1", "ips", []string{"::1"}},
		{"times and MACs are not ipv6", "at 12:30:45, MAC 00:1a:2b:3c:4d:5e, std::vector", "ips", nil},

		// Phones
		{"international", "call +44 20 7946 0958 now", "phones", []string{"+442079460958"}},
		{"international compact", "WhatsApp +5511987654321", "phones", []string{"+5511987654321"}},
		{"north american", "call (415) 555-2671 or 415.555.2672", "phones", []string{"+14155552671", "+14155552672"}},
		{"north american with country code", "1-800-555-0199 toll free", "phones", []string{"+18005550199"}},
		{"national with trunk zero", "appelez le 06 12 34 56 78", "phones", []string{"0612345678"}},
		{"dates are not phones", "on 2024-01-15 and 15.01.2024", "phones", nil},
		{"bare digits are not phones", "order 4155552671 and id 123456789012", "phones", nil},
		{"card numbers are not phones", "4111 1111 1111 1111", "phones", nil},
		{"invalid area code", "(155) 555-2671", "phones", nil},

		// Credit cards
		{"visa", "card 4111 1111 1111 1111 exp 12/26", "cards", []string{"4111111111111111"}},
		{"mastercard dashes", "5555-5555-5555-4444", "cards", []string{"5555555555554444"}},
		{"amex", "378282246310005", "cards", []string{"378282246310005"}},
		{"luhn failure", "4111 1111 1111 1112", "cards", nil},
		{"no network", "9111111111111111", "cards", nil},
		{"repeated digit", "0000 0000 0000 0000", "cards", nil},

		// SSNs
		{"ssn", "SSN 536-22-1234 leaked", "ssns", []string{"536-22-1234"}},
		{"ssn spaces", "536 22 1234", "ssns", []string{"536-22-1234"}},
		{"ssn after label", "ssn: 536221234", "ssns", []string{"536-22-1234"}},
		{"area 000", "000-12-3456", "ssns", nil},
		{"area 666", "666-12-3456", "ssns", nil},
		{"area 9xx", "912-12-3456", "ssns", nil},
		{"group 00", "536-00-1234", "ssns", nil},
		{"serial 0000", "536-22-0000", "ssns", nil},
		{"publicized", "078-05-1120 is the Woolworth number", "ssns", nil},
		{"mixed separators", "536-22 1234", "ssns", nil},
		{"nine digits without label", "536221234", "ssns", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := Entities(tt.text)
			got := map[string][]string{
				"links": e.ExternalLinks, "emails": e.Emails, "handles": e.Handles, "ips": e.IPs,
				"phones": e.Phones, "cards": e.CreditCards, "ssns": e.SSNs,
			}[tt.kind]
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s of %q = %q, want %q", tt.kind, tt.text, got, tt.want)
			}
		})
	}
}

func TestEntitiesCap(t *testing.T) {
	var b strings.Builder
	for i := range 80 {
		b.WriteString("user")
		b.WriteString(strings.Repeat("x", i))
		b.WriteString("@example.com ")
	}
	if got := len(Entities(b.String()).Emails); got != maxEntitiesPerKind {
		t.Errorf("%d e-mails kept, want %d", got, maxEntitiesPerKind)
	}
}

func TestLuhn(t *testing.T) {
	for _, tt := range []struct {
		digits string
		want   bool
	}{
		{"79927398713", true}, {"79927398710", false}, {"4111111111111111", true}, {"4012888888881881", true},
		{"6011111111111117", true}, {"6011111111111118", false},
	} {
		if got := luhnValid(tt.digits); got != tt.want {
			t.Errorf("luhnValid(%s) = %v", tt.digits, got)
		}
	}
}

func FuzzEntities(f *testing.F) {
	for _, s := range []string{"+1 (415) 555-2671", "4111 1111 1111 1111", "536-22-1234", "::1", "@a@b.c", "http://x.y/(z", "1.2.3.4", "\xff@\xfe.com"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		e := Entities(text)
		for _, list := range [][]string{e.ExternalLinks, e.Emails, e.Handles, e.IPs, e.Phones, e.CreditCards, e.SSNs} {
			if len(list) > maxEntitiesPerKind {
				t.Fatalf("%d entities", len(list))
			}
			for _, s := range list {
				if s == "" {
					t.Fatalf("empty entity in %+v", e)
				}
			}
		}
		for _, c := range e.CreditCards {
			if !luhnValid(c) {
				t.Fatalf("card %s fails Luhn", c)
			}
		}
		for _, s := range EntitySpans(text) {
			if s.Start < 0 || s.End > len(text) || s.Start >= s.End {
				t.Fatalf("span %+v of a %d-byte text", s, len(text))
			}
		}
	})
}

// Spans are where the entities are written, repeats included, as written.
func TestEntitySpans(t *testing.T) {
	tests := []struct {
		text string
		want []string // kind=text of each span
	}{
		{"Quiet day.", nil},
		{"Call +44 20 7946 0958 or +44 20 7946 0958.", []string{"phone=+44 20 7946 0958", "phone=+44 20 7946 0958"}},
		{"see https://x.example/a, from 203.0.113.7 by @Leaker; mail A.B@Example.com",
			[]string{"link=https://x.example/a", "handle=@Leaker", "email=A.B@Example.com", "ip=203.0.113.7"}},
		{"card 4111-1111-1111-1111 SSN 536 22 1234 and ssn: 536221234", []string{"ssn=536 22 1234", "ssn=536221234", "credit_card=4111-1111-1111-1111"}},
		{"v6 2001:db8::1.", []string{"ip=2001:db8::1"}},
	}
	for _, tt := range tests {
		var got []string
		for _, s := range EntitySpans(tt.text) {
			got = append(got, string(s.Kind)+"="+tt.text[s.Start:s.End])
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("EntitySpans(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
