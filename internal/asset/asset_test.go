package asset

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/problem"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name      string
		in        Asset
		want      string // the normalized value when valid
		wantField string // the field at fault, with wantMsg, when not
		wantMsg   string
	}{
		{"no type", Asset{Value: "x"}, "", "type", MsgTypeRequired},
		{"unknown type", Asset{Type: "phone", Value: "x"}, "", "type", MsgUnknownType},
		{"no value", Asset{Type: Author, Value: "  "}, "", "value", MsgValueRequired},

		{"author as typed", Asset{Type: Author, Value: " @JaneD "}, "@JaneD", "", ""},
		{"text as typed", Asset{Type: Text, Value: "Acme Corp leak"}, "Acme Corp leak", "", ""},
		{"social board", Asset{Type: SocialBoard, Value: "r/worldnews"}, "r/worldnews", "", ""},
		{"location search", Asset{Type: LocationSearch, Value: "Paris, France"}, "Paris, France", "", ""},

		{"IPv4", Asset{Type: IPAddress, Value: "192.0.2.10"}, "192.0.2.10", "", ""},
		{"IPv6 shortened", Asset{Type: IPAddress, Value: "2001:DB8:0:0:0:0:0:1"}, "2001:db8::1", "", ""},
		{"IPv4-mapped IPv6", Asset{Type: IPAddress, Value: "::ffff:192.0.2.10"}, "192.0.2.10", "", ""},
		{"IPv4 out of range", Asset{Type: IPAddress, Value: "256.1.1.1"}, "", "value", MsgInvalidIP},
		{"IPv4 with a leading zero", Asset{Type: IPAddress, Value: "192.0.2.010"}, "", "value", MsgInvalidIP},
		{"IP with a zone", Asset{Type: IPAddress, Value: "fe80::1%eth0"}, "", "value", MsgInvalidIP},
		{"IP range", Asset{Type: IPAddress, Value: "192.0.2.0/24"}, "", "value", MsgInvalidIP},

		{"domain", Asset{Type: Domain, Value: "Example.COM."}, "example.com", "", ""},
		{"subdomain with hyphen", Asset{Type: Domain, Value: "mail-1.example.co.uk"}, "mail-1.example.co.uk", "", ""},
		{"international domain", Asset{Type: Domain, Value: "bücher.de"}, "xn--bcher-kva.de", "", ""},
		{"one label", Asset{Type: Domain, Value: "localhost"}, "", "value", MsgInvalidDomain},
		{"IP as domain", Asset{Type: Domain, Value: "192.0.2.10"}, "", "value", MsgInvalidDomain},
		{"label with a leading hyphen", Asset{Type: Domain, Value: "-bad.example"}, "", "value", MsgInvalidDomain},
		{"empty label", Asset{Type: Domain, Value: "a..example"}, "", "value", MsgInvalidDomain},
		{"underscore", Asset{Type: Domain, Value: "a_b.example"}, "", "value", MsgInvalidDomain},
		{"URL", Asset{Type: Domain, Value: "https://example.com/x"}, "", "value", MsgInvalidDomain},
		{"label too long", Asset{Type: Domain, Value: strings.Repeat("a", 64) + ".example"}, "", "value", MsgInvalidDomain},

		{"e-mail", Asset{Type: Email, Value: "Jane@Example.com"}, "jane@example.com", "", ""},
		{"e-mail with a name", Asset{Type: Email, Value: "Jane <jane@example.com>"}, "", "value", MsgInvalidEmail},
		{"not an e-mail", Asset{Type: Email, Value: "jane"}, "", "value", MsgInvalidEmail},

		{"6-digit IIN", Asset{Type: IINBIN, Value: "411111"}, "411111", "", ""},
		{"8-digit IIN", Asset{Type: IINBIN, Value: "41111111"}, "41111111", "", ""},
		{"7 digits", Asset{Type: IINBIN, Value: "4111111"}, "", "value", MsgInvalidIINBIN},
		{"letters", Asset{Type: IINBIN, Value: "41111a"}, "", "value", MsgInvalidIINBIN},
		{"card number failing Luhn", Asset{Type: IINBIN, Value: "4111 1111 1111 1112"}, "", "value", MsgInvalidCard},
		{"valid card number, prefix asked", Asset{Type: IINBIN, Value: "4111-1111-1111-1111"}, "", "value", MsgInvalidIINBIN},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.in)
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("Normalize(%+v) = %v", tt.in, err)
				}
				if got.Value != tt.want || got.Type != tt.in.Type {
					t.Fatalf("Normalize(%+v) = %+v, want value %q", tt.in, got, tt.want)
				}
				return
			}
			p, ok := problem.As(err)
			if !ok || p.Kind != problem.KindInvalid {
				t.Fatalf("Normalize(%+v) = %v, want an invalid problem", tt.in, err)
			}
			if want := map[string][]string{tt.wantField: {tt.wantMsg}}; !reflect.DeepEqual(p.Fields, want) {
				t.Fatalf("fields = %v, want %v", p.Fields, want)
			}
		})
	}
}
