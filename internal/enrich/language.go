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
// The binary embeds the models of these languages only (third_party/lingua-go/README.md).
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
// Links, handles and e-mail addresses are left out: their letters say nothing of the language.
func DetectLanguage(text string) string { return detectLanguage(languageText(text)) }

// detectLanguage is DetectLanguage on a text already without links and handles.
func detectLanguage(text string) string {
	if letterCount(text) < minLanguageLetters {
		return Undetermined
	}
	lang, confidence := detect(text)
	if confidence < minLanguageConfidence {
		return Undetermined
	}
	return lang
}

// PostLanguage is the language a post is given: the one its text is written in, and the
// provider's declared language only when the text is too short or too ambiguous to tell and does
// not contradict it. Authors and providers often declare a language the text contradicts (an
// account set to Ukrainian posting in English), and a wrong language makes translation and
// analysis refuse the post; "und" is safe, the translator detects the language itself.
func PostLanguage(text, declared string) string {
	text = languageText(text)
	if detected := detectLanguage(text); detected != Undetermined {
		return detected
	}
	declared = strings.ToLower(strings.TrimSpace(declared))
	if declared == "" || declared == Undetermined {
		return Undetermined
	}
	if letterCount(text) == 0 {
		return declared // nothing to contradict it: an image, a link, emoji
	}
	primary, _, _ := strings.Cut(strings.ReplaceAll(declared, "_", "-"), "-") // "pt-br" is Portuguese
	if !writtenIn(text, primary) {
		return Undetermined // "Nice work" is not Ukrainian
	}
	// Short text can still say clearly that it is in another language ("Tudo bem?" declared
	// Spanish), though not clearly enough to name that language: the detector is sure of
	// another, or the text uses the words of the language the declared one is confused with.
	if lang, confidence := detect(text); lang != primary && confidence >= minContradictConfidence {
		return Undetermined
	}
	if pair, ok := confusable[primary]; ok && pair.marks(text, pair.other(primary)) > pair.marks(text, primary) {
		return Undetermined
	}
	return declared
}

// minContradictConfidence is how sure the detector must be of another language, on text too
// short to be named, to overrule the declared one.
const minContradictConfidence = 0.9

// detect returns the detector's most likely language for the text and its confidence, with
// Spanish and Portuguese, and Russian and Ukrainian, told apart by the words and letters only
// one of each pair uses: trigrams alone confuse them on a sentence ("Se necesitan voluntarios
// en el banco" reads as Portuguese), and the detector's high-accuracy mode that separates them
// needs 300 MB (docs/accuracy.md).
func detect(text string) (string, float64) {
	values := detector().ComputeLanguageConfidenceValues(text)
	if len(values) == 0 || values[0].Value() == 0 {
		return Undetermined, 0
	}
	lang := strings.ToLower(values[0].Language().IsoCode639_1().String())
	if pair, ok := confusable[lang]; ok {
		if other := pair.other(lang); pair.marks(text, other) > pair.marks(text, lang) {
			return other, values[0].Value()
		}
	}
	return lang, values[0].Value()
}

// languageText is the text without links, handles and e-mail addresses, and hashtags as words.
func languageText(text string) string {
	if len(text) > languageSample {
		cut := languageSample
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	if !strings.ContainsAny(text, "@/#") && !strings.Contains(text, "www.") {
		return text
	}
	fields := strings.Fields(text)
	kept := fields[:0]
	for _, f := range fields {
		if strings.Contains(f, "://") || strings.HasPrefix(f, "www.") || strings.Contains(f, "@") {
			continue
		}
		kept = append(kept, strings.TrimLeft(f, "#"))
	}
	return strings.Join(kept, " ")
}

// letterCount counts the letters of a text; a Chinese or Japanese character counts as three,
// about one word.
func letterCount(text string) int {
	letters := 0
	for _, r := range text {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			letters += 3
		case unicode.IsLetter(r):
			letters++
		}
	}
	return letters
}

// scripts are the writing systems of the languages not written in Latin letters.
var scripts = map[string][]*unicode.RangeTable{
	"ru": {unicode.Cyrillic}, "uk": {unicode.Cyrillic}, "bg": {unicode.Cyrillic},
	"sr": {unicode.Cyrillic, unicode.Latin}, "mk": {unicode.Cyrillic}, "be": {unicode.Cyrillic},
	"kk": {unicode.Cyrillic}, "ky": {unicode.Cyrillic}, "mn": {unicode.Cyrillic}, "tg": {unicode.Cyrillic},
	"ar": {unicode.Arabic}, "fa": {unicode.Arabic}, "ur": {unicode.Arabic}, "ps": {unicode.Arabic},
	"he": {unicode.Hebrew}, "yi": {unicode.Hebrew}, "el": {unicode.Greek},
	"zh": {unicode.Han}, "ja": {unicode.Han, unicode.Hiragana, unicode.Katakana},
	"ko": {unicode.Hangul, unicode.Han}, "hi": {unicode.Devanagari}, "mr": {unicode.Devanagari},
	"ne": {unicode.Devanagari}, "bn": {unicode.Bengali}, "th": {unicode.Thai},
	"ka": {unicode.Georgian}, "hy": {unicode.Armenian}, "am": {unicode.Ethiopic},
}

// writtenIn reports whether most letters of the text are in the script of the language; a
// language not in scripts is taken to be written in Latin letters.
func writtenIn(text, lang string) bool {
	script, ok := scripts[lang]
	if !ok {
		script = []*unicode.RangeTable{unicode.Latin}
	}
	in, letters := 0, 0
	for _, r := range text {
		if unicode.IsLetter(r) {
			letters++
			if unicode.In(r, script...) {
				in++
			}
		}
	}
	return 2*in > letters
}

// pair is two languages the trigram detector confuses, with what only each of them writes.
type pair struct {
	langs   [2]string
	letters [2]string          // letters only that language uses
	words   [2]map[string]bool // frequent words only that language uses, lowercase
}

func (p *pair) other(lang string) string {
	if lang == p.langs[0] {
		return p.langs[1]
	}
	return p.langs[0]
}

// marks counts the letters and words of the text that only lang uses.
func (p *pair) marks(text, lang string) int {
	i := 0
	if lang == p.langs[1] {
		i = 1
	}
	n := 0
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && r != '\''
	}) {
		if p.words[i][w] {
			n++
		}
		for _, r := range w {
			if strings.ContainsRune(p.letters[i], r) {
				n++
			}
		}
	}
	return n
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

var (
	spanishPortuguese = &pair{
		langs:   [2]string{"es", "pt"},
		letters: [2]string{"ñ¿¡", "ãõçêô"},
		words: [2]map[string]bool{
			wordSet("el los las del y un una con en es muy pero hay ya aquí qué cuando ella ellos también pues hoy mañana " +
				"gracias hola buenos buenas noches señor ahora"),
			wordSet("os as do da dos das e um uma com em é não na nas mas muito já aqui você vc tá pra tô ao à hoje amanhã também " +
				"obrigado obrigada olá boa bom noite agora valeu galera"),
		},
	}
	russianUkrainian = &pair{
		langs:   [2]string{"ru", "uk"},
		letters: [2]string{"ыэъё", "іїєґ"},
		words: [2]map[string]bool{
			wordSet("и что это как будет от но уже ещё еще который его мы вы он она они сегодня нет " +
				"спасибо привет всем хорошо очень"),
			wordSet("і й та що це як буде від але вже ще який його ми ви він вона вони сьогодні немає " +
				"дякую привіт всім добре дуже"),
		},
	}
	confusable = map[string]*pair{
		"es": spanishPortuguese, "pt": spanishPortuguese,
		"ru": russianUkrainian, "uk": russianUkrainian,
	}
)
