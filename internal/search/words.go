package search

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
)

// A word cloud counts the words of what posts say: case and accents merged as the search
// merges them ("Paris", "PARIS" and "paris" are one word, shown as most posts wrote it), stop
// words of the post's language and of English left out, and so are numbers (a word starts with
// a letter: "2026", "10km" and "3rd" are not words), links, @handles and e-mail addresses, and
// the first halves of English negations ("don't"). A hashtag counts as the word it spells:
// #flood is flood.

// wordUse is how many posts use a word, each counting for its weight, by how they wrote it.
type wordUse struct {
	posts float64
	// asFolded counts the posts that wrote the word in its folded form, forms the others by
	// form (nil while there are none: most words are written one way).
	asFolded float64
	forms    map[string]float64
	// last is the number of the tally's post that counted the word last: a post counts once.
	last int
}

// countWords adds the words of a post to the tally, each once, the post counting for weight.
func (t *tally) countWords(p post.Post, weight float64) {
	t.posts++
	c := postWords{t: t, weight: weight, stop: stopWordsOf(p.Language), english: stopWordsOf("en")}
	if len(c.stop) == 0 {
		c.stop = anyStopWord // the language is unknown, or has no list: none of them says anything
	}
	c.scan(p.TitleText)
	c.scan(p.ContentText)
}

// postWords counts the words of one post into a tally.
type postWords struct {
	t             *tally
	weight        float64
	stop, english map[string]bool
}

// add counts a word as written. Words are looked up by their folded form in the tally's scratch
// buffer: a map read through string(bytes) allocates nothing, and most words are already
// stored.
func (c postWords) add(written string) {
	t := c.t
	if isASCII(written) {
		t.scratch = append(t.scratch[:0], written...)
		for i, b := range t.scratch {
			if 'A' <= b && b <= 'Z' {
				t.scratch[i] = b + 'a' - 'A'
			}
		}
	} else {
		t.scratch = append(t.scratch[:0], query.Fold(written)...)
	}
	if c.stop[string(t.scratch)] || c.english[string(t.scratch)] {
		return
	}
	u := t.words[string(t.scratch)]
	if u == nil {
		u = &wordUse{}
		t.words[string(t.scratch)] = u
	}
	if u.last == t.posts {
		return
	}
	u.last, u.posts = t.posts, u.posts+c.weight
	switch {
	case written == string(t.scratch):
		u.asFolded += c.weight
	case u.forms == nil:
		u.forms = map[string]float64{strings.Clone(written): c.weight} // not the post's whole text
	default:
		if n, ok := u.forms[written]; ok {
			u.forms[written] = n + c.weight
		} else {
			u.forms[strings.Clone(written)] = c.weight
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// addWords adds another tally's words to t's.
func (t *tally) addWords(o *tally) {
	for w, ou := range o.words {
		u := t.words[w]
		if u == nil {
			t.words[w] = &wordUse{posts: ou.posts, asFolded: ou.asFolded, forms: ou.forms}
			continue
		}
		u.posts += ou.posts
		u.asFolded += ou.asFolded
		for form, n := range ou.forms {
			if u.forms == nil {
				u.forms = map[string]float64{}
			}
			u.forms[form] += n
		}
	}
}

// scan adds each word of text that a cloud may count: the runs of letters, digits and marks
// (ideographs, each a token of the search, are too short to count) of at least minWordRunes
// that start with a letter, outside links, handles and addresses.
func (c postWords) scan(text string) {
	for len(text) > 0 {
		// One space-separated chunk at a time: a link or a handle is left out whole.
		end := strings.IndexFunc(text, unicode.IsSpace)
		if end < 0 {
			end = len(text)
		}
		chunk := text[:end]
		text = strings.TrimLeftFunc(text[end:], unicode.IsSpace)
		if isLinkOrHandle(chunk) {
			continue
		}
		start := -1
		for i, r := range chunk {
			switch inWord := isWordRune(r); {
			case inWord && start < 0:
				start = i
			case !inWord && start >= 0:
				if !negation(chunk[i:]) {
					c.word(chunk[start:i])
				}
				start = -1
			}
		}
		if start >= 0 {
			c.word(chunk[start:])
		}
	}
}

// word adds w if it is long enough and starts with a letter.
func (c postWords) word(w string) {
	if utf8.RuneCountInString(w) >= minWordRunes && startsWithLetter(w) {
		c.add(w)
	}
}

// negation reports whether what follows a word makes it the first half of an English negative
// contraction ("don" of "don't", "haven" of "haven’t"), which says nothing: listed as stop
// words, they would hide words of other languages (Dutch "haven", a harbour).
func negation(rest string) bool {
	for _, apostrophe := range []string{"'", "’"} {
		if after, ok := strings.CutPrefix(rest, apostrophe); ok {
			after, ok = strings.CutPrefix(after, "t")
			if r, _ := utf8.DecodeRuneInString(after); ok && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				return true
			}
		}
	}
	return false
}

// isWordRune is the search's token characters (letters, digits, marks, '_') less ideographs.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_'
	}
	return (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)) && !isIdeograph(r)
}

func startsWithLetter(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsLetter(r)
}

func isIdeograph(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// isLinkOrHandle reports whether a space-separated chunk of text is a link (a scheme, www., or
// a lower-case host name such as example.com or bbc.co.uk, with or without a path), a
// @handle or an e-mail address.
func isLinkOrHandle(chunk string) bool {
	if strings.Contains(chunk, "@") || strings.Contains(chunk, "://") {
		return true
	}
	chunk = strings.TrimLeftFunc(chunk, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(chunk) >= 4 && strings.EqualFold(chunk[:4], "www.") {
		return true
	}
	host, _, _ := strings.Cut(chunk, "/")
	host = strings.TrimRightFunc(host, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if !strings.Contains(host, ".") {
		return false // most chunks: no list of labels to make
	}
	labels := strings.Split(host, ".")
	for _, l := range labels {
		if l == "" || strings.IndexFunc(l, func(r rune) bool {
			return !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-')
		}) >= 0 {
			return false
		}
	}
	tld := labels[len(labels)-1]
	return len(tld) >= 2 && strings.IndexFunc(tld, func(r rune) bool { return r < 'a' || r > 'z' }) < 0
}

// topWords is the n words the most posts use, most used first (ties in folded alphabetical
// order), each shown in the form most of its posts wrote.
func topWords(words map[string]*wordUse, n int) []WordCount {
	folded := make([]string, 0, len(words))
	for w := range words {
		folded = append(folded, w)
	}
	count := func(w string) int { return int(math.Round(words[w].posts)) }
	slices.SortFunc(folded, func(a, b string) int { return cmp.Or(cmp.Compare(count(b), count(a)), strings.Compare(a, b)) })
	out := make([]WordCount, 0, min(n, len(folded)))
	for _, w := range folded[:min(n, len(folded))] {
		out = append(out, WordCount{Word: writtenForm(w, words[w]), Count: count(w)})
	}
	return out
}

// writtenForm is how most of the posts using a word wrote it; a tie goes to a form with
// capitals or accents, which say more than the folded one, then to the form sorting first.
func writtenForm(folded string, u *wordUse) string {
	best, most := folded, u.asFolded
	for form, n := range u.forms {
		if n > most || (n == most && (best == folded || form < best)) {
			best, most = form, n
		}
	}
	return best
}
