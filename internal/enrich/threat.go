package enrich

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
)

// category is a kind of threat; each one's points are capped so that no single kind of
// language reaches 100 alone.
type category string

const (
	violence  category = "violence"
	weapons   category = "weapons"
	extremism category = "extremism"
	cyber     category = "cyber"
	selfHarm  category = "self-harm"
	doxxing   category = "doxxing"
)

// categories fixes the order of reasons with equal points.
var categories = []category{violence, weapons, extremism, cyber, selfHarm, doxxing}

// Threat levels the product names: a high score is a threat to act on (Locate's "High only",
// the dashboard's threat ranking); an elevated one has at least one clear finding.
const (
	HighThreat     = 50
	ElevatedThreat = 25
)

// categoryCap is the most one category adds to the score: a post reaches 100 only when several
// kinds of threat come together (weapons and violence, doxxing and violence ...).
const categoryCap = 60

// role is what a lexicon term does in the constructions the score is made of.
type role uint8

const (
	harm         role = iota + 1 // a harm word: "bomb", "shoot", "matar" (weighted)
	threatPhrase                 // a complete threat: "kill you", "nobody walks out" (weighted)
	intent                       // "I will", "we are going to", "vamos a", "there will be"
	target                       // a place or people: "school", "station", "everyone", "judge"
	object                       // an object pronoun right by the harm word: "kill you", "te"
	selfObject                   // "me": "my mom is gonna kill me" threatens nobody
	when                         // a time: "saturday", "tomorrow", "at 9pm"
	warning                      // "you have been warned", "stay home", "I know where you live"
	weapon                       // a weapon or explosive (weighted)
	offer                        // selling: "for sale", "vendo", "продам", a price
	illicit                      // the marks of an illicit sale: "no serial", "btc", "escrow"
	legal                        // a lawful or harmless sale: "license", "airsoft", "replica"
	goods                        // stolen data, access or extortion (weighted)
	dataKind                     // what a dump holds: "SSNs", "passwords", "IBAN"
	volume                       // how much: "rows", "million", "40k"
	tech                         // attack techniques security advisories name too (weighted)
	extremist                    // extremist vocabulary and codes (weighted)
	selfHarmTerm                 // suicidal statements (weighted)
	doxxTerm                     // "doxxed", "деанон", "home address" (weighted)
	residence                    // "lives at", "habite", "wohnt"
	addressWord                  // "address", "dirección", "адрес"
	street                       // a street word next to a number: "88 Elm Street", "ул. Ленина 15"
	callToAct                    // "go get him", "pay him a visit", "навестите его"
	idiom                        // an everyday phrase that takes threat words: "kill time", "is the bomb"
	figContext                   // music, film, sport, games, photos, drills, defused bombs
	reporting                    // news of a past event: "police said", "yesterday", "victims"
	advisory                     // a security advisory or breach notice: "patch", "CVE", "reset"
)

// flags qualify a group of terms.
type flags uint8

const (
	// figurative words have an everyday sense ("the bomb", "shoot a scene") and do not count in
	// a figurative context.
	figurative flags = 1 << iota
	// future verb forms say "I will" or "we will" by themselves: "убью", "سأفجر".
	future
	// offered goods are also news words ("database", "leak"): they count only when offered.
	offered
)

// Points each construction adds; docs/threat-score.md explains them.
const (
	intentPoints    = 15
	targetPoints    = 15
	whenPoints      = 10
	warningPoints   = 15
	offerPoints     = 20
	illicitPoints   = 15
	dataKindPoints  = 5
	dataKindMax     = 15
	volumePoints    = 10
	residencePoints = 20
	addressPoints   = 10
	streetPoints    = 10
	callPoints      = 30
	// weaponHarmPoints is what a weapon adds to violence as the harm of a threat.
	weaponHarmPoints = 10

	// window is how many tokens either side of a harm word a modifier is looked for.
	window = 20
)

// group is a list of lexicon terms with one role, weight and flags.
type group struct {
	role   role
	weight int
	flags  flags
	terms  []string
}

// term is a lexicon entry folded into tokens the way post text is.
type term struct {
	label  string
	tokens []string
	role   role
	weight int
	flags  flags
}

// termsByFirstToken indexes the lexicon by each term's first token, so scanning a post is one
// map lookup per token.
var termsByFirstToken = func() map[string][]*term {
	index := map[string][]*term{}
	for _, g := range lexicon {
		for _, s := range g.terms {
			tokens := query.Tokens(s)
			if len(tokens) == 0 {
				panic("enrich: lexicon term without tokens: " + s)
			}
			t := &term{label: strings.Join(tokens, " "), tokens: tokens, role: g.role, weight: g.weight, flags: g.flags}
			index[tokens[0]] = append(index[tokens[0]], t)
		}
	}
	for _, terms := range index {
		// Longest first: "kill them all" is one finding, not also "kill them".
		slices.SortStableFunc(terms, func(a, b *term) int { return len(b.tokens) - len(a.tokens) })
	}
	return index
}()

// hit is a term found at a token position.
type hit struct {
	*term
	pos int
}

// Threat scores a text from 0 (nothing) to 100 and says why. The text's tokens are matched
// against the lexicon, each term taking a role; the roles then make constructions, one per
// category: a harm word with an intent, a target, a time and a warning near it (violence), a
// weapon offered for sale with the marks of an illicit sale (weapons), stolen data offered with
// what it holds and how much (cyber), an address with a call to go there (doxxing). Context
// cancels what it explains: figurative harm words in music, film, sport or game talk, harm words
// in news of a past event, attack techniques in a security advisory, a weapon sale with a
// licence. SSNs and card numbers add to doxxing, a pile of e-mail addresses to cyber. Each
// category is capped at 60 and the score is the capped sum, at most 100. Reasons name each
// category that scored, its points and the words that gave them, highest first.
func Threat(text string, e post.Entities) post.Threat {
	tokens := query.Tokens(text)
	hits := scan(tokens)
	// A price is an offer; it has no token (the analyzer drops the sign), so no position.
	if i := strings.IndexAny(text, "$€£₽₴"); i >= 0 {
		r, _ := utf8.DecodeRuneInString(text[i:])
		hits = append(hits, hit{&term{label: string(r), role: offer}, -1})
	}
	s := scorer{tokens: tokens, hits: hits}
	violent := s.violence()
	findings := map[category]finding{
		violence:  violent,
		weapons:   s.weapons(),
		extremism: s.sum(extremist),
		cyber:     s.cyber(len(e.Emails)),
		selfHarm:  s.sum(selfHarmTerm),
		doxxing:   s.doxxing(violent.points > 0, len(e.SSNs), len(e.CreditCards)),
	}

	var threat post.Threat
	order := slices.Clone(categories)
	for _, c := range order {
		threat.Score += min(findings[c].points, categoryCap)
	}
	threat.Score = min(threat.Score, 100)
	slices.SortStableFunc(order, func(a, b category) int {
		return min(findings[b].points, categoryCap) - min(findings[a].points, categoryCap)
	})
	for _, c := range order {
		if f := findings[c]; f.points > 0 {
			threat.Reasons = append(threat.Reasons, fmt.Sprintf("%s (+%d): %s", c, min(f.points, categoryCap), strings.Join(f.parts, " + ")))
		}
	}
	return threat
}

// scan finds the lexicon terms in the tokens, the longest starting first where they overlap,
// and the times and counts written in figures ("9pm", "14h30", "15:00", "14th", "40k").
func scan(tokens []string) []hit {
	var hits []hit
	for i := 0; i < len(tokens); i++ {
		if t := match(tokens, i); t != nil {
			hits = append(hits, hit{t, i})
			i += len(t.tokens) - 1
			continue
		}
		if !isDigit(tokens[i][0]) {
			continue
		}
		switch {
		case isClock(tokens, i):
			hits = append(hits, hit{&term{label: tokens[i], role: when}, i})
		case isCount(tokens[i]):
			hits = append(hits, hit{&term{label: tokens[i], role: volume}, i})
		}
	}
	return hits
}

// match is the longest lexicon term starting at token i, or nil. Arabic writes "and" as a
// prefix (و): "وقنابل" is "and grenades", so a token that matches nothing is tried without it.
func match(tokens []string, i int) *term {
	for _, t := range termsByFirstToken[tokens[i]] {
		if hasTokensAt(tokens, i, t.tokens) {
			return t
		}
	}
	if rest, ok := strings.CutPrefix(tokens[i], "و"); ok && utf8.RuneCountInString(rest) > 2 {
		for _, t := range termsByFirstToken[rest] {
			if hasTokensAt(tokens, i+1, t.tokens[1:]) {
				return t
			}
		}
	}
	return nil
}

func hasTokensAt(tokens []string, i int, want []string) bool {
	return i+len(want) <= len(tokens) && slices.Equal(tokens[i:i+len(want)], want)
}

// finding is what one category found: its points and the words or constructions that gave
// them, read as "ak 47, ammo + offer (selling)".
type finding struct {
	points int
	parts  []string
	terms  []string // the terms counted, each once
	listed bool     // the last part is a list of terms, which the next term joins
}

// add counts a construction.
func (f *finding) add(points int, part string) {
	f.points += points
	f.parts = append(f.parts, part)
	f.listed = false
}

// addTerm counts a term or an entity, once.
func (f *finding) addTerm(points int, label string) {
	if slices.Contains(f.terms, label) {
		return
	}
	f.terms = append(f.terms, label)
	f.points += points
	if f.listed {
		f.parts[len(f.parts)-1] += ", " + label
		return
	}
	f.parts = append(f.parts, label)
	f.listed = true
}

type scorer struct {
	tokens []string
	hits   []hit
}

// first is the first hit of a role, or nil.
func (s scorer) first(r role) *hit {
	for i := range s.hits {
		if s.hits[i].role == r {
			return &s.hits[i]
		}
	}
	return nil
}

func (s scorer) has(r role) bool { return s.first(r) != nil }

// near is the hit of a role nearest to pos within from..to tokens of it, or nil.
func (s scorer) near(r role, pos, from, to int) *hit {
	var best *hit
	for i := range s.hits {
		h := &s.hits[i]
		if h.role != r || h.pos < 0 || h.pos-pos < from || h.pos-pos > to {
			continue
		}
		if best == nil || abs(h.pos-pos) < abs(best.pos-pos) {
			best = h
		}
	}
	return best
}

// sum adds the weight of each distinct term of a role.
func (s scorer) sum(r role) finding {
	var f finding
	for _, h := range s.hits {
		if h.role == r {
			f.addTerm(h.weight, h.label)
		}
	}
	return f
}

// violence scores the strongest harm word with what is near it: who or what it aims at, who
// says they will do it, when, and a warning.
func (s scorer) violence() finding {
	figurativeContext, past, lawful := s.has(figContext), s.has(reporting), s.has(legal)
	var best finding
	for _, h := range s.hits {
		weight := h.weight
		switch {
		case h.role == threatPhrase:
		case h.role == harm:
			if past || h.flags&figurative != 0 && figurativeContext || s.near(selfObject, h.pos, -3, 1) != nil {
				continue
			}
		case h.role == weapon:
			// "I have my dad's rifle and I will use it at school": a weapon is a harm word
			// when someone says they will do something with it.
			if past || figurativeContext || lawful || s.near(intent, h.pos, -window, window) == nil {
				continue
			}
			weight = weaponHarmPoints
		default:
			continue
		}
		f := finding{points: weight, parts: []string{h.label}}
		intended := h.flags&future != 0
		if intended {
			f.add(intentPoints, "intent (future tense)")
		} else if m := s.near(intent, h.pos, -window, window); m != nil {
			f.add(intentPoints, "intent ("+m.label+")")
			intended = true
		}
		warned := s.near(warning, h.pos, -window, window)
		// A harm word with a place and a time but nobody saying they will do it, nor warning,
		// is as likely an eyewitness or a headline ("explosion near the station").
		if intended || warned != nil || h.role == threatPhrase {
			if m := s.near(object, h.pos, -2, 1); m != nil && h.role == harm {
				f.add(targetPoints, "target ("+m.label+")")
			} else if m := s.near(target, h.pos, -window, window); m != nil {
				f.add(targetPoints, "target ("+m.label+")")
			}
			if m := s.near(when, h.pos, -window, window); m != nil {
				f.add(whenPoints, "time ("+m.label+")")
			}
		}
		if warned != nil {
			f.add(warningPoints, "warning ("+warned.label+")")
		}
		best = maxFinding(best, f)
	}
	return best
}

func maxFinding(a, b finding) finding {
	if b.points > a.points {
		return b
	}
	return a
}

// weapons scores the weapons named, and their offer for sale unless the sale is lawful.
func (s scorer) weapons() finding {
	f := s.sum(weapon)
	if f.points > 0 && !s.has(legal) {
		s.addSale(&f)
	}
	return f
}

// addSale adds an offer to sell and the marks of an illicit sale.
func (s scorer) addSale(f *finding) {
	if h := s.first(offer); h != nil {
		f.add(offerPoints, "offer ("+h.label+")")
	}
	if h := s.first(illicit); h != nil {
		f.add(illicitPoints, "illicit ("+h.label+")")
	}
}

// cyber scores stolen data, access and extortion: what is offered, what it holds and how much,
// and the offer itself. Attack techniques count unless the post is an advisory.
func (s scorer) cyber(emails int) finding {
	var f finding
	sold := s.has(offer) || s.has(illicit)
	for _, h := range s.hits {
		counts := h.role == goods && (h.flags&offered == 0 || sold) ||
			h.role == tech && !s.has(advisory)
		if counts {
			f.addTerm(h.weight, h.label)
		}
	}
	if f.points > 0 {
		var kinds []string
		for _, h := range s.hits {
			if h.role == dataKind && !slices.Contains(kinds, h.label) {
				kinds = append(kinds, h.label)
			}
		}
		if len(kinds) > 0 {
			f.add(min(len(kinds)*dataKindPoints, dataKindMax), "data ("+strings.Join(kinds, ", ")+")")
		}
		if h := s.first(volume); h != nil {
			f.add(volumePoints, "volume ("+h.label+")")
		}
		s.addSale(&f)
	}
	if emails >= manyEmails {
		f.addTerm(manyEmailWeight, counted(emails, "e-mail address", "e-mail addresses"))
	}
	return f
}

// doxxing scores exposing a person: doxxing words, and where someone lives when the post
// exposes them, sends people there or threatens violence; SSNs and card numbers on display.
func (s scorer) doxxing(violent bool, ssns, cards int) finding {
	f := s.sum(doxxTerm)
	call := s.first(callToAct)
	// Where someone lives is personal data on display when the post is about exposing or
	// hurting them; "my grandma lives at the end of our street" is not.
	if f.points > 0 || call != nil || violent {
		if res := s.first(residence); res != nil {
			f.add(residencePoints, "residence ("+res.label+")")
		}
		if h := s.first(addressWord); h != nil {
			f.add(addressPoints, "address ("+h.label+")")
		}
		for _, h := range s.hits {
			if h.role == street && s.numberNear(h.pos) {
				f.add(streetPoints, "street ("+h.label+")")
				break
			}
		}
		if call != nil {
			f.add(callPoints, "call to act ("+call.label+")")
		}
	}
	if ssns > 0 {
		f.addTerm(ssns*ssnWeight, counted(ssns, "SSN", "SSNs"))
	}
	if cards > 0 {
		f.addTerm(cards*creditCardWeight, counted(cards, "credit card number", "credit card numbers"))
	}
	return f
}

// numberNear reports whether a number is written within 3 tokens of pos: a house number.
func (s scorer) numberNear(pos int) bool {
	for i := max(pos-3, 0); i < min(pos+4, len(s.tokens)); i++ {
		if isDigit(s.tokens[i][0]) {
			return true
		}
	}
	return false
}

// digits is how many ASCII digits s starts with.
func digits(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

// isClock reports whether the token at i is a time of day or a date: "9pm", "14h", "14h30",
// "15" followed by "00" (15:00), "14th".
func isClock(tokens []string, i int) bool {
	tok := tokens[i]
	n := digits(tok)
	if n > 2 {
		return false
	}
	switch rest := tok[n:]; rest {
	case "am", "pm", "h", "st", "nd", "rd", "th":
		return true
	case "":
		return i+1 < len(tokens) && len(tokens[i+1]) == 2 && digits(tokens[i+1]) == 2
	default:
		return rest[0] == 'h' && digits(rest[1:]) == len(rest)-1
	}
}

// isCount reports whether a token is a count in thousands or millions: "40k", "3m" (of 2.3M).
func isCount(tok string) bool {
	n := digits(tok)
	return n > 0 && (tok[n:] == "k" || tok[n:] == "m")
}

func abs(n int) int { return max(n, -n) }

func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
