package enrich

import (
	"net/netip"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/post"
)

// maxEntitiesPerKind bounds each list so that a pasted dump cannot make one post huge.
const maxEntitiesPerKind = 50

// The patterns find candidates; the checks after them decide. RE2 has no look-behind, so what may
// stand before a match is checked in code.
var (
	linkPattern     = regexp.MustCompile(`(?i)\b(?:https?://|www\.)[^\s<>"'{}|\\^\[\]` + "`" + `]+`)
	emailPattern    = regexp.MustCompile(`(?i)[a-z0-9._%+\-]+@[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?)*\.[a-z]{2,24}\b`)
	handlePattern   = regexp.MustCompile(`@([A-Za-z0-9_]{1,30})(@[a-z0-9\-]+(?:\.[a-z0-9\-]+)+)?`)
	ipv4Pattern     = regexp.MustCompile(`\d{1,3}(?:\.\d{1,3}){3}`)
	ipv6Pattern     = regexp.MustCompile(`[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*`)
	phonePattern    = regexp.MustCompile(`\+?\(?\d[\d ().\-]{5,22}\d`)
	nanpPattern     = regexp.MustCompile(`^(?:\+?1[ .\-]?)?\(?[2-9]\d{2}\)?[ .\-]?[2-9]\d{2}[ .\-]\d{4}$`)
	cardPattern     = regexp.MustCompile(`\b\d(?:[ \-]?\d){12,18}\b`)
	ssnPattern      = regexp.MustCompile(`\b(\d{3})([ \-])(\d{2})([ \-])(\d{4})\b`)
	ssnLabelPattern = regexp.MustCompile(`(?i)\b(?:ssn|social security(?: number| no\.?)?)\W{0,3}(\d{9})\b`)
)

// Entities extracts the entities of a text, each list in order of first appearance, without
// duplicates, at most 50 of a kind.
func Entities(text string) post.Entities {
	var e post.Entities
	// Lists are made on first use: most posts hold no entity at all.
	var lists [7]*list
	visit(text, func(k Kind, value string, _, _ int) {
		i := kindIndex(k)
		if lists[i] == nil {
			lists[i] = newList()
		}
		lists[i].add(value)
	})
	items := func(k Kind) []string {
		if l := lists[kindIndex(k)]; l != nil {
			return l.items
		}
		return nil
	}
	e.ExternalLinks, e.Handles, e.Emails = items(KindLink), items(KindHandle), items(KindEmail)
	e.IPs, e.Phones, e.SSNs, e.CreditCards = items(KindIP), items(KindPhone), items(KindSSN), items(KindCreditCard)
	return e
}

func kindIndex(k Kind) int {
	switch k {
	case KindLink:
		return 0
	case KindHandle:
		return 1
	case KindEmail:
		return 2
	case KindIP:
		return 3
	case KindPhone:
		return 4
	case KindSSN:
		return 5
	}
	return 6
}

// Kind is a kind of entity.
type Kind string

// The kinds of entity Entities lists.
const (
	KindLink       Kind = "link"
	KindHandle     Kind = "handle"
	KindEmail      Kind = "email"
	KindIP         Kind = "ip"
	KindPhone      Kind = "phone"
	KindSSN        Kind = "ssn"
	KindCreditCard Kind = "credit_card"
)

// Span is where an entity is written in a text: text[Start:End], as written (Entities lists
// some normalized: a phone's digits, a card's digits, an e-mail's lower-case domain).
type Span struct {
	Kind       Kind
	Start, End int
}

// EntitySpans finds every occurrence of every entity Entities lists, repeats included, in
// order of the kinds then of position; spans of different kinds may overlap (a link holding an
// IP address). Translation masks them so that the server leaves them as they are.
func EntitySpans(text string) []Span {
	var spans []Span
	visit(text, func(k Kind, _ string, start, end int) {
		spans = append(spans, Span{Kind: k, Start: start, End: end})
	})
	return spans
}

// visit calls fn with each entity of the text: its kind, its value as listed, and where it is.
func visit(text string, fn func(k Kind, value string, start, end int)) {
	// Most posts hold few digits and no '@' or ':': patterns that cannot match are not run.
	digits := 0
	for i := 0; i < len(text); i++ {
		if isDigit(text[i]) {
			digits++
		}
	}
	colon := strings.Contains(text, ":")
	if colon || strings.Contains(text, "www.") {
		links(text, fn)
	}
	if strings.Contains(text, "@") {
		handlesAndEmails(text, fn)
	}
	ipAddresses(text, digits >= 4, colon, fn)
	if digits >= 7 {
		phones(text, fn)
		ssns(text, fn)
		creditCards(text, fn)
	}
}

func links(text string, fn func(Kind, string, int, int)) {
	for _, loc := range linkPattern.FindAllStringIndex(text, -1) {
		link := trimLink(text[loc[0]:loc[1]])
		fn(KindLink, link, loc[0], loc[0]+len(link))
	}
}

func handlesAndEmails(text string, fn func(Kind, string, int, int)) {
	for _, m := range handlePattern.FindAllStringSubmatchIndex(text, -1) {
		if before, _ := utf8.DecodeLastRuneInString(text[:m[0]]); isWordRune(before) || strings.ContainsRune("@./", before) {
			continue // the domain part of an e-mail, or a path
		}
		fn(KindHandle, text[m[2]:m[3]]+substring(text, m[4], m[5]), m[0], m[1]) // "user" or "user@instance.social"
	}
	for _, loc := range emailPattern.FindAllStringIndex(text, -1) {
		if before, _ := utf8.DecodeLastRuneInString(text[:loc[0]]); before == '@' {
			continue // "@user@instance.social" is a fediverse handle
		}
		local, domain, _ := strings.Cut(text[loc[0]:loc[1]], "@")
		fn(KindEmail, local+"@"+strings.ToLower(domain), loc[0], loc[1])
	}
}

func substring(s string, start, end int) string {
	if start < 0 {
		return ""
	}
	return s[start:end]
}

// trimLink drops the punctuation a sentence puts after a link, keeping a closing parenthesis
// that the link itself opened (Wikipedia titles).
func trimLink(link string) string {
	for link != "" {
		last, size := utf8.DecodeLastRuneInString(link)
		switch {
		case strings.ContainsRune(".,;:!?'\"”’…", last):
		case last == ')' && strings.Count(link, "(") < strings.Count(link, ")"):
		default:
			return link
		}
		link = link[:len(link)-size]
	}
	return link
}

// ipAddresses finds valid IPv4 addresses (when the text has the digits for one) and IPv6
// addresses (when it has a colon).
func ipAddresses(text string, v4, v6 bool, fn func(Kind, string, int, int)) {
	if v4 {
		for _, loc := range ipv4Pattern.FindAllStringIndex(text, -1) {
			before, _ := utf8.DecodeLastRuneInString(text[:loc[0]])
			after := text[loc[1]:]
			if unicode.IsDigit(before) || before == '.' || (len(after) > 1 && after[0] == '.' && isDigit(after[1])) || (after != "" && isDigit(after[0])) {
				continue // part of a longer dotted number, such as a version
			}
			if addr, err := netip.ParseAddr(text[loc[0]:loc[1]]); err == nil && addr.Is4() {
				fn(KindIP, addr.String(), loc[0], loc[1])
			}
		}
	}
	if v6 {
		for _, loc := range ipv6Pattern.FindAllStringIndex(text, -1) {
			candidate := strings.TrimRight(text[loc[0]:loc[1]], ".")
			before, _ := utf8.DecodeLastRuneInString(text[:loc[0]])
			after, _ := utf8.DecodeRuneInString(text[loc[0]+len(candidate):])
			if isWordRune(before) || isWordRune(after) || !strings.ContainsAny(candidate, "0123456789abcdefABCDEF") {
				continue
			}
			if addr, err := netip.ParseAddr(candidate); err == nil && addr.Is6() {
				fn(KindIP, addr.String(), loc[0], loc[0]+len(candidate))
			}
		}
	}
}

// creditCards keeps 13-19 digit numbers that pass the Luhn check and start like a card of a
// known network; numbers of one repeated digit pass Luhn but are placeholders.
func creditCards(text string, fn func(Kind, string, int, int)) {
	for _, loc := range cardPattern.FindAllStringIndex(text, -1) {
		digits := onlyDigits(text[loc[0]:loc[1]])
		if luhnValid(digits) && cardNetwork(digits) && strings.Count(digits, digits[:1]) != len(digits) {
			fn(KindCreditCard, digits, loc[0], loc[1])
		}
	}
}

// luhnValid is the ISO/IEC 7812 check digit test.
func luhnValid(digits string) bool {
	sum := 0
	double := false
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

// cardNetwork reports whether the number starts with the issuer prefix of a card network and
// has a length that network uses.
func cardNetwork(digits string) bool {
	n := len(digits)
	prefix := func(lo, hi int, width int) bool {
		if n < width {
			return false
		}
		v := 0
		for _, c := range digits[:width] {
			v = v*10 + int(c-'0')
		}
		return v >= lo && v <= hi
	}
	switch {
	case prefix(4, 4, 1): // Visa
		return n == 13 || n == 16 || n == 19
	case prefix(51, 55, 2), prefix(2221, 2720, 4): // Mastercard
		return n == 16
	case prefix(34, 34, 2), prefix(37, 37, 2): // American Express
		return n == 15
	case prefix(6011, 6011, 4), prefix(644, 649, 3), prefix(65, 65, 2): // Discover
		return n >= 16 && n <= 19
	case prefix(3528, 3589, 4): // JCB
		return n >= 16 && n <= 19
	case prefix(300, 305, 3), prefix(36, 36, 2), prefix(38, 39, 2): // Diners Club
		return n >= 14 && n <= 19
	case prefix(62, 62, 2): // UnionPay
		return n >= 16 && n <= 19
	case prefix(50, 50, 2), prefix(56, 69, 2): // Maestro
		return n >= 12 && n <= 19
	}
	return false
}

// ssns finds US Social Security numbers written 123-45-6789 (or with spaces), or as nine digits
// right after "SSN", that the SSA could have issued: area not 000, 666 or 900-999, group not 00,
// serial not 0000, and not one of the numbers known from advertising and samples.
func ssns(text string, fn func(Kind, string, int, int)) {
	for _, m := range ssnPattern.FindAllStringSubmatchIndex(text, -1) {
		g := func(i int) string { return text[m[2*i]:m[2*i+1]] }
		if g(2) == g(4) { // one separator style: "123-45 6789" is something else
			if ssn, ok := validSSN(g(1), g(3), g(5)); ok {
				fn(KindSSN, ssn, m[0], m[1])
			}
		}
	}
	for _, m := range ssnLabelPattern.FindAllStringSubmatchIndex(text, -1) {
		n := text[m[2]:m[3]]
		if ssn, ok := validSSN(n[:3], n[3:5], n[5:]); ok {
			fn(KindSSN, ssn, m[2], m[3])
		}
	}
}

// publicizedSSNs were printed in advertising or documentation and belong to no one.
var publicizedSSNs = map[string]bool{"078-05-1120": true, "219-09-9999": true, "123-45-6789": true}

func validSSN(area, group, serial string) (string, bool) {
	ssn := area + "-" + group + "-" + serial
	switch {
	case area == "000", area == "666", area[0] == '9', group == "00", serial == "0000", publicizedSSNs[ssn]:
		return "", false
	}
	return ssn, true
}

// phones keeps numbers written as phone numbers: international ("+44 20 7946 0958", 8 to 15
// digits), North American ("(415) 555-2671") or national with a trunk zero ("06 12 34 56 78").
// Bare digit runs, dates, versions and card numbers do not look like that and are left out.
func phones(text string, fn func(Kind, string, int, int)) {
	for _, loc := range phonePattern.FindAllStringIndex(text, -1) {
		match := text[loc[0]:loc[1]]
		before, _ := utf8.DecodeLastRuneInString(text[:loc[0]])
		after, _ := utf8.DecodeRuneInString(text[loc[1]:])
		if isWordRune(before) || strings.ContainsRune(".-+/", before) || isWordRune(after) {
			continue
		}
		digits := onlyDigits(match)
		switch {
		case match[0] == '+' && len(digits) >= 8 && len(digits) <= 15 && digits[0] != '0':
			fn(KindPhone, "+"+digits, loc[0], loc[1])
		case nanpPattern.MatchString(match):
			fn(KindPhone, "+1"+digits[len(digits)-10:], loc[0], loc[1])
		case digits[0] == '0' && len(digits) >= 9 && len(digits) <= 11 && nationalGroups(match):
			fn(KindPhone, digits, loc[0], loc[1])
		}
	}
}

// nationalGroups reports whether a number is written in three or more groups of 2 to 4 digits.
func nationalGroups(s string) bool {
	groups := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsDigit(r) })
	if len(groups) < 3 {
		return false
	}
	for _, g := range groups {
		if len(g) < 2 || len(g) > 4 {
			return false
		}
	}
	return true
}

func onlyDigits(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// list collects distinct strings in order, up to maxEntitiesPerKind.
type list struct {
	items []string
	seen  map[string]bool
}

func newList() *list { return &list{seen: map[string]bool{}} }

func (l *list) add(s string) {
	if s == "" || l.seen[s] || len(l.items) == maxEntitiesPerKind {
		return
	}
	l.seen[s] = true
	l.items = append(l.items, s)
}
