// Package asset holds the Monitor area's assets (monitor-area.md section 4): a typed value an
// organization watches, such as an IP address, a domain or a card issuer's IIN/BIN, and the
// rules a value must meet for its type, with the spec's messages (section 6).
package asset

import (
	"net/mail"
	"net/netip"
	"strings"

	"golang.org/x/net/idna"

	"github.com/sightline/sightline/internal/problem"
)

// Type is what an asset's value is.
type Type string

// The spec's asset types.
const (
	Author         Type = "author"
	Domain         Type = "domain"
	Email          Type = "email"
	IPAddress      Type = "ip_address"
	Text           Type = "text"
	IINBIN         Type = "iin_bin"
	SocialBoard    Type = "social_board"
	LocationSearch Type = "location_search"
)

// Types lists every asset type, in the spec's order.
var Types = []Type{Author, Domain, Email, IPAddress, Text, IINBIN, SocialBoard, LocationSearch}

// TypeNames lists every asset type's name, in the spec's order.
func TypeNames() []string {
	out := make([]string, len(Types))
	for i, t := range Types {
		out[i] = string(t)
	}
	return out
}

// Asset is a value of a type.
type Asset struct {
	Type  Type   `json:"type"`
	Value string `json:"value"`
}

// The spec's messages; the e-mail one is the members' and sign-up's, which the spec leaves to us.
const (
	MsgTypeRequired  = "Type is required"
	MsgUnknownType   = "Type must be one of author, domain, email, ip_address, text, iin_bin, social_board, location_search"
	MsgValueRequired = "Value is required"
	MsgInvalidIP     = "Please provide a valid IP address"
	MsgInvalidIINBIN = "IIN/BIN must be a 6 or 8 digit number"
	MsgInvalidCard   = "Invalid credit card"
	MsgInvalidDomain = "Invalid domain"
	MsgInvalidEmail  = "The email must be a valid email address."
)

// Normalize returns the asset with its value trimmed and, where the type has a canonical form,
// in it (a lower-case domain and e-mail, the shortest form of an IP address), or a problem
// naming the field at fault with the spec's message.
func Normalize(a Asset) (Asset, error) {
	a.Value = strings.TrimSpace(a.Value)
	switch {
	case a.Type == "":
		return a, problem.InvalidField("type", MsgTypeRequired)
	case !known(a.Type):
		return a, problem.InvalidField("type", MsgUnknownType)
	case a.Value == "":
		return a, problem.InvalidField("value", MsgValueRequired)
	}
	value, msg := normalizeValue(a.Type, a.Value)
	if msg != "" {
		return a, problem.InvalidField("value", msg)
	}
	a.Value = value
	return a, nil
}

func known(t Type) bool {
	for _, k := range Types {
		if k == t {
			return true
		}
	}
	return false
}

// normalizeValue returns the value's canonical form, or the message saying why it is not one of
// its type. Types without a form of their own (author, text, board, location search) take any
// text.
func normalizeValue(t Type, v string) (string, string) {
	switch t {
	case IPAddress:
		// A zone (fe80::1%eth0) names an interface of one machine, not an address to watch.
		ip, err := netip.ParseAddr(v)
		if err != nil || ip.Zone() != "" {
			return "", MsgInvalidIP
		}
		return ip.Unmap().String(), ""
	case Domain:
		return normalizeDomain(v)
	case Email:
		addr, err := mail.ParseAddress(v)
		if err != nil || addr.Address != v {
			return "", MsgInvalidEmail
		}
		return strings.ToLower(v), ""
	case IINBIN:
		return normalizeIINBIN(v)
	}
	return v, ""
}

// normalizeDomain takes a host name of at least two labels, international ones in Unicode or
// punycode, and returns it in lower-case ASCII without a trailing dot.
func normalizeDomain(v string) (string, string) {
	ascii, err := idna.Lookup.ToASCII(strings.TrimSuffix(v, "."))
	if err != nil || len(ascii) > 253 {
		return "", MsgInvalidDomain
	}
	labels := strings.Split(ascii, ".")
	if len(labels) < 2 {
		return "", MsgInvalidDomain
	}
	for _, label := range labels {
		if !validLabel(label) {
			return "", MsgInvalidDomain
		}
	}
	// A top-level domain is never all digits: 192.168.0.1 is an IP address, not a domain.
	if strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return "", MsgInvalidDomain
	}
	return ascii, ""
}

func validLabel(label string) bool {
	if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
		return false
	}
	for _, r := range label {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// normalizeIINBIN takes the 6 or 8 digits of an issuer's prefix. A whole card number (13 to 19
// digits, spaces and dashes allowed) is never kept as an asset: one that fails the Luhn check
// is an invalid card, a valid one is asked for its prefix only.
func normalizeIINBIN(v string) (string, string) {
	if digitsOnly(v) && (len(v) == 6 || len(v) == 8) {
		return v, ""
	}
	card := strings.NewReplacer(" ", "", "-", "").Replace(v)
	if digitsOnly(card) && len(card) >= 13 && len(card) <= 19 && !luhn(card) {
		return "", MsgInvalidCard
	}
	return "", MsgInvalidIINBIN
}

func digitsOnly(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// luhn is the check digit test every payment card number passes.
func luhn(digits string) bool {
	sum := 0
	for i := range len(digits) {
		d := int(digits[len(digits)-1-i] - '0')
		if i%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}
