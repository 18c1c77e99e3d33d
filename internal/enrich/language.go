package enrich

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/pemistahl/lingua-go"
)

// Undetermined is the ISO 639-2 code for a language that cannot be told.
const Undetermined = "und"

// minLanguageLetters is the shortest text whose language is guessed: below it ("ok", "lol",
// "Hello world") any statistics are noise. A Chinese or Japanese character counts as three
// letters, about one word.
const minLanguageLetters = 20

// languageSample is how many bytes of a text language detection reads: the opening of a post
// says its language as well as the whole does.
const languageSample = 600

// minLanguageConfidence is how sure the detector must be (0 to 1, its confidence values sum to
// 1 over the languages it knows) before a language is named; below it the post is "und", which
// the translator sends as "auto" rather than as a wrong source language.
const minLanguageConfidence = 0.5

// DetectedLanguages are the languages DetectLanguage can name: the simulator's eleven and the
// most common others of open sources. A closed list keeps the detector's models (and memory)
// small and stops rare neighbours (Nynorsk, Latin, Esperanto) from claiming short English text;
// a post in another language is "und", which translation handles with automatic detection.
var DetectedLanguages = []lingua.Language{
	lingua.English, lingua.Spanish, lingua.French, lingua.German, lingua.Portuguese, lingua.Arabic,
	lingua.Russian, lingua.Ukrainian, lingua.Japanese, lingua.Italian, lingua.Turkish,
	lingua.Chinese, lingua.Korean, lingua.Dutch, lingua.Polish, lingua.Persian, lingua.Hindi,
	lingua.Indonesian, lingua.Vietnamese, lingua.Hebrew, lingua.Swedish,
}

// detector is built on first use: loading its models takes a moment and some memory
// (docs/performance.md), which commands that never enrich a post should not pay.
var detector = sync.OnceValue(func() lingua.LanguageDetector {
	// Low-accuracy mode reads trigrams only: a fraction of the memory of all five n-gram
	// lengths, and on texts of a sentence or more nearly the same answers.
	return lingua.NewLanguageDetectorBuilder().
		FromLanguages(DetectedLanguages...).
		WithLowAccuracyMode().
		WithPreloadedLanguageModels().
		Build()
})

// DetectLanguage returns the ISO 639-1 code of the text's language ("en"), or "und" for text
// too short, without letters, in a language outside DetectedLanguages or too ambiguous to tell.
func DetectLanguage(text string) string {
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
	values := detector().ComputeLanguageConfidenceValues(text)
	if len(values) == 0 || values[0].Value() < minLanguageConfidence {
		return Undetermined
	}
	return strings.ToLower(values[0].Language().IsoCode639_1().String())
}

// PostLanguage is the language a post is given: the one its text is written in, and the
// provider's declared language only when the text is too short or too ambiguous to tell. Authors
// and providers often declare a language the text contradicts (an account set to Ukrainian
// posting in English), and a wrong language makes translation and analysis refuse the post.
func PostLanguage(text, declared string) string {
	if detected := DetectLanguage(text); detected != Undetermined {
		return detected
	}
	if declared = strings.ToLower(strings.TrimSpace(declared)); declared != "" {
		return declared
	}
	return Undetermined
}
