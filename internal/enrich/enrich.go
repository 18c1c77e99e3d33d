// Package enrich adds to a post what can be read from its text: the language, entities (links,
// IP addresses, phone numbers, e-mails, credit cards, SSNs, handles), the places it mentions and
// an explainable threat score. It runs on every ingested post, so it is pure computation over
// data held in memory: no network, no disk.
package enrich

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"

	"github.com/sightline/sightline/internal/post"
)

// LocationFinder finds the places a text names; *geo.Gazetteer is one.
type LocationFinder interface {
	MentionedLocations(text string) []post.MentionedLocation
}

// Enricher enriches posts. It holds no per-post state and is safe for concurrent use.
type Enricher struct {
	locations LocationFinder
}

// New returns an Enricher. A nil LocationFinder leaves mentioned locations out.
func New(locations LocationFinder) *Enricher {
	return &Enricher{locations: locations}
}

// Enrich fills the post's Language (when the provider gave none), Entities,
// MentionedLocations and Threat from its title and text. Running it again gives the same result,
// so a redelivered post is enriched identically.
func (e *Enricher) Enrich(p *post.Post) {
	text := joinText(p.TitleText, p.ContentText)
	p.Entities = Entities(text)
	if p.Language == "" {
		p.Language = DetectLanguage(withoutEntities(text, p.Entities))
	}
	p.MentionedLocations = nil
	if e.locations != nil {
		// Title and text separately: a Title Case headline says less through its capitals.
		p.MentionedLocations = mergeLocations(
			e.locations.MentionedLocations(p.TitleText),
			e.locations.MentionedLocations(p.ContentText))
	}
	p.Threat = Threat(text, p.Entities)
}

func joinText(title, content string) string {
	switch {
	case title == "":
		return content
	case content == "":
		return title
	}
	return title + "\n" + content
}

// mergeLocations appends to a the places of b that a does not hold.
func mergeLocations(a, b []post.MentionedLocation) []post.MentionedLocation {
	out := a
	for _, l := range b {
		if !slices.ContainsFunc(a, func(m post.MentionedLocation) bool {
			return m.Name == l.Name && m.CountryCode == l.CountryCode
		}) {
			out = append(out, l)
		}
	}
	return out
}

// Undetermined is the ISO 639-2 code for a language that cannot be told.
const Undetermined = "und"

// minLanguageLetters is the shortest text whose language is guessed: below it ("ok", "lol",
// "Hello world") trigram statistics are noise. A Chinese or Japanese character counts as three
// letters, about one word.
const minLanguageLetters = 20

// languageSample is how many bytes of a text language detection reads.
const languageSample = 600

// DetectLanguage returns the ISO 639-1 code of the text's language ("en"), the ISO 639-3 code
// for languages without one, or "und" for text too short or without letters.
func DetectLanguage(text string) string {
	// The opening of a post says its language as well as the whole does; comparing trigrams of
	// a long post against every profile would cost milliseconds for nothing.
	if len(text) > languageSample {
		cut := languageSample
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	letters := 0
	for _, r := range text {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			letters += 3
		case unicode.IsLetter(r):
			letters++
		}
	}
	if letters < minLanguageLetters {
		return Undetermined
	}
	if code, ok := commonLanguageByFunctionWords(text); ok {
		return code
	}
	info := whatlanggo.Detect(text)
	if info.Script == nil || info.Lang < 0 {
		return Undetermined
	}
	return languageCode(info.Lang)
}

// functionWords are frequent words of the most common Latin-script languages of the stream, each
// chosen to be rare in the others and in their neighbours ("para" is Spanish and Portuguese,
// "to" English and Polish, "di" Italian and Indonesian: left out). Counting them settles most posts in microseconds;
// whatlanggo's trigram comparison against all its languages takes a few hundred.
var functionWords = func() map[string]string {
	lists := map[string]string{
		"en": "the and is are was were of that this with have has not you they been would from",
		"es": "el los las y pero muy hay también fue ellos donde cuando",
		"pt": "os uma não é são mas em do dos das também foi ao você isso muito",
		"fr": "les des est et une dans pas sur avec ce qui sont au aux elle nous vous",
		"de": "die das und ist nicht mit ein eine auf für sich von zu im sind auch",
		"it": "gli della che è sono nel alla anche questo molto",
		"nl": "het een van niet dat op voor zijn ook naar maar wij",
	}
	words := map[string]string{}
	for lang, list := range lists {
		for _, w := range strings.Fields(list) {
			words[w] = lang
		}
	}
	return words
}()

// commonLanguageByFunctionWords names the language when at least three function words point to
// it and three times as many as to any other.
func commonLanguageByFunctionWords(text string) (string, bool) {
	counts := map[string]int{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if lang, ok := functionWords[w]; ok {
			counts[lang]++
		}
	}
	best, first, second := "", 0, 0
	for lang, n := range counts {
		switch {
		case n > first:
			best, first, second = lang, n, first
		case n > second:
			second = n
		}
	}
	return best, first >= 3 && first >= 3*second
}

// languageCodes caches whatlanggo's code lookups, which build a map on every call.
var languageCodes = func() map[whatlanggo.Lang]string {
	codes := map[whatlanggo.Lang]string{}
	for lang := range whatlanggo.Langs {
		code := lang.Iso6391()
		if code == "" {
			code = lang.Iso6393()
		}
		codes[lang] = code
	}
	return codes
}()

func languageCode(l whatlanggo.Lang) string {
	if code := languageCodes[l]; code != "" {
		return code
	}
	return Undetermined
}

// withoutEntities removes links, e-mails and handles, whose letters say nothing of the language.
func withoutEntities(text string, e post.Entities) string {
	if len(e.ExternalLinks)+len(e.Emails)+len(e.Handles) == 0 {
		return text
	}
	pairs := make([]string, 0, 2*(len(e.ExternalLinks)+len(e.Emails)+len(e.Handles)))
	for _, list := range [][]string{e.ExternalLinks, e.Emails} {
		for _, s := range list {
			pairs = append(pairs, s, " ")
		}
	}
	for _, h := range e.Handles {
		pairs = append(pairs, "@"+h, " ")
	}
	return strings.NewReplacer(pairs...).Replace(text)
}
