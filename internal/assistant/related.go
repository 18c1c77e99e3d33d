package assistant

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
	"github.com/sightline/sightline/internal/search"
)

// Related searches (docs/assistant.md): each is the question's words that the posts hold, plus a
// word or a two-word phrase that the posts the question found say most often and the question
// does not. They come from the posts, never from a list, so asking one finds those posts again.
const (
	// MaxRelated bounds an answer's related searches.
	MaxRelated = 4
	// anchorWords bounds the question's words a related search keeps.
	anchorWords = 3
	// minRelatedWord is the shortest word a related search adds, in letters.
	minRelatedWord = 3
)

// addresses are the links and mail addresses written in posts: their words (a site's name, "com")
// say nothing of the topic, and a post with a link would offer them.
var addresses = regexp.MustCompile(`(?i)\b(?:https?://|www\.)\S+|\S+@\S+\.\S+`)

// webNoise are what is left of addresses written without a scheme ("example.com"), and HTML's
// entities.
var webNoise = map[string]bool{"com": true, "org": true, "net": true, "html": true, "htm": true, "php": true, "amp": true}

// relatedCandidate is a word (one stem) or a phrase (two) the posts hold.
type relatedCandidate struct {
	stems   []string
	df      int            // posts holding it
	first   int            // best rank of a post holding it
	surface map[string]int // how it is written, folded, and how often
}

// RelatedSearches are up to MaxRelated searches related to the question, drawn from posts (the
// ones the question found, best first). history gives the topic of a follow-up without words of
// its own ("tell me more").
func RelatedSearches(question string, history []Turn, posts []post.Post) []string {
	weights := questionWeights(question, history)
	topic := map[string]bool{}
	for t, w := range weights {
		if w == 1 {
			topic[t] = true
		}
	}
	if len(topic) == 0 {
		for t := range weights {
			topic[t] = true
		}
	}
	if len(topic) == 0 || len(posts) == 0 {
		return []string{}
	}
	// Every post holds at least one topic word, or the question would not have found it; a
	// word of the topic shared by no post is left out of the searches.
	held := map[string]int{}
	candidates := map[string]*relatedCandidate{}
	add := func(rank int, seen map[string]bool, stems []string, surface string) {
		key := strings.Join(stems, " ")
		c := candidates[key]
		if c == nil {
			c = &relatedCandidate{stems: stems, first: rank, surface: map[string]int{}}
			candidates[key] = c
		}
		c.surface[surface]++
		if !seen[key] {
			seen[key] = true
			c.df++
		}
	}
	for rank, p := range posts {
		stop := search.StopWords(p.Language)
		seen, heldHere := map[string]bool{}, map[string]bool{}
		for _, sentence := range postSentences(p) {
			prev, prevStem := "", ""
			for _, tok := range query.Tokens(addresses.ReplaceAllString(sentence, " ")) {
				st := stem(tok)
				if topic[st] {
					heldHere[st] = true
				}
				if !relatedWord(tok, stop) || weights[st] > 0 {
					prev, prevStem = "", ""
					continue
				}
				add(rank, seen, []string{st}, tok)
				if prev != "" && prevStem != st {
					add(rank, seen, []string{prevStem, st}, prev+" "+tok)
				}
				prev, prevStem = tok, st
			}
		}
		for st := range heldHere {
			held[st]++
		}
	}
	anchor := anchorOf(question, history, topic, held)
	if anchor == "" {
		return []string{}
	}
	// A word or phrase found in one post only is offered when the question found few posts.
	minDF := 1
	if len(posts) >= 3 {
		minDF = 2
	}
	var ranked []*relatedCandidate
	for _, c := range candidates {
		if c.df >= minDF {
			ranked = append(ranked, c)
		}
	}
	score := func(c *relatedCandidate) float64 { return float64(c.df) * (1 + 0.25*float64(len(c.stems)-1)) }
	slices.SortFunc(ranked, func(a, b *relatedCandidate) int {
		return cmp.Or(cmp.Compare(score(b), score(a)), cmp.Compare(a.first, b.first),
			cmp.Compare(strings.Join(a.stems, " "), strings.Join(b.stems, " ")))
	})
	used := map[string]bool{}
	out := []string{}
	for _, c := range ranked {
		if len(out) == MaxRelated {
			break
		}
		if slices.ContainsFunc(c.stems, func(s string) bool { return used[s] }) {
			continue // one search a word: "container terminal" and "terminal" are not two
		}
		for _, s := range c.stems {
			used[s] = true
		}
		out = append(out, anchor+" "+mostWritten(c.surface))
	}
	return out
}

// relatedWord says whether a folded token may be the word a related search adds: a word of
// three letters or more that is no stop word, number or piece of an address.
func relatedWord(tok string, stop map[string]bool) bool {
	if utf8.RuneCountInString(tok) < minRelatedWord || stop[tok] || search.StopWords("en")[tok] || webNoise[tok] {
		return false
	}
	return strings.ContainsFunc(tok, func(r rune) bool { return r < '0' || r > '9' })
}

// anchorOf is the question's words that the posts hold, as the user wrote them (folded), in their
// order: the most widely held anchorWords of them. A follow-up without words of its own takes
// the previous question's.
func anchorOf(question string, history []Turn, topic map[string]bool, held map[string]int) string {
	source := question
	if len(terms(question, "en")) == 0 && len(history) > 0 {
		source = history[len(history)-1].Question
	}
	type word struct {
		text string
		pos  int
		held int
	}
	var words []word
	seen := map[string]bool{}
	for i, tok := range query.Tokens(source) {
		st := stem(tok)
		if !topic[st] || held[st] == 0 || seen[st] {
			continue
		}
		seen[st] = true
		words = append(words, word{tok, i, held[st]})
	}
	slices.SortStableFunc(words, func(a, b word) int { return cmp.Compare(b.held, a.held) })
	words = words[:min(len(words), anchorWords)]
	slices.SortFunc(words, func(a, b word) int { return cmp.Compare(a.pos, b.pos) })
	parts := make([]string, len(words))
	for i, w := range words {
		parts[i] = w.text
	}
	return strings.Join(parts, " ")
}

// mostWritten is the commonest of the ways a word or phrase is written (the first in order on a
// tie).
func mostWritten(forms map[string]int) string {
	best, n := "", 0
	for f, c := range forms {
		if c > n || (c == n && f < best) {
			best, n = f, c
		}
	}
	return best
}
