package enrich

import (
	"fmt"
	"slices"
	"strings"

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

// categoryCap is the most one category adds to the score: a post reaches the high end only when
// several kinds of threat come together (weapons and violence, doxxing and violence ...).
const categoryCap = 60

type weightedTerm struct {
	term   string
	weight int
}

// term is a lexicon entry folded into tokens the way post text is.
type term struct {
	label    string
	tokens   []string
	weight   int
	category category
}

// termsByFirstToken indexes the lexicon by each term's first token, so scoring is one map
// lookup per token of the post.
var termsByFirstToken = func() map[string][]term {
	index := map[string][]term{}
	for cat, terms := range lexicon {
		for _, t := range terms {
			tokens := query.Tokens(t.term)
			if len(tokens) == 0 {
				panic("enrich: lexicon term without tokens: " + t.term)
			}
			index[tokens[0]] = append(index[tokens[0]], term{label: t.term, tokens: tokens, weight: t.weight, category: cat})
		}
	}
	for _, terms := range index {
		// Longest first: "kill them all" is one finding, not also "kill them".
		slices.SortFunc(terms, func(a, b term) int { return len(b.tokens) - len(a.tokens) })
	}
	return index
}()

// Threat scores a text from 0 (nothing) to 100. Every distinct lexicon term found adds its
// weight to its category (where terms overlap, the longest one starting first counts), SSNs and card numbers add to doxxing and a pile of e-mail addresses to
// cyber; each category is capped at 60 and the score is the capped sum, at most 100. Reasons name
// each category that scored, its points and what was found, highest first.
func Threat(text string, e post.Entities) post.Threat {
	points := map[category]int{}
	found := map[category][]string{}
	tokens := query.Tokens(text)
	seen := map[string]bool{}
	for i := 0; i < len(tokens); i++ {
		for _, t := range termsByFirstToken[tokens[i]] {
			if !hasTokensAt(tokens, i, t.tokens) {
				continue
			}
			if !seen[t.label] {
				seen[t.label] = true
				points[t.category] += t.weight
				found[t.category] = append(found[t.category], t.label)
			}
			i += len(t.tokens) - 1
			break
		}
	}
	if n := len(e.SSNs); n > 0 {
		points[doxxing] += n * ssnWeight
		found[doxxing] = append(found[doxxing], counted(n, "SSN", "SSNs"))
	}
	if n := len(e.CreditCards); n > 0 {
		points[doxxing] += n * creditCardWeight
		found[doxxing] = append(found[doxxing], counted(n, "credit card number", "credit card numbers"))
	}
	if n := len(e.Emails); n >= manyEmails {
		points[cyber] += manyEmailWeight
		found[cyber] = append(found[cyber], counted(n, "e-mail address", "e-mail addresses"))
	}

	var threat post.Threat
	order := slices.Clone(categories)
	for _, c := range order {
		points[c] = min(points[c], categoryCap)
		threat.Score += points[c]
	}
	threat.Score = min(threat.Score, 100)
	slices.SortStableFunc(order, func(a, b category) int { return points[b] - points[a] })
	for _, c := range order {
		if points[c] > 0 {
			threat.Reasons = append(threat.Reasons, fmt.Sprintf("%s (+%d): %s", c, points[c], strings.Join(found[c], ", ")))
		}
	}
	return threat
}

func hasTokensAt(tokens []string, i int, want []string) bool {
	return i+len(want) <= len(tokens) && slices.Equal(tokens[i:i+len(want)], want)
}

func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
