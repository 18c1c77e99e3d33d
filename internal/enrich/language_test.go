package enrich

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pemistahl/lingua-go"
)

// scriptDetected are the detected languages lingua has no models for: it names them by their
// scripts alone.
var scriptDetected = []lingua.Language{lingua.Japanese, lingua.Chinese, lingua.Korean, lingua.Hebrew}

// The binary embeds only the models the detector reads for the detected languages
// (third_party/lingua-go/README.md). A language without its model is never named by lingua,
// silently, so adding one to DetectedLanguages without copying its model must fail here; so
// must a model left behind for a language no longer detected, which only grows the binary.
func TestEveryDetectedLanguageHasItsModel(t *testing.T) {
	models := filepath.Join("..", "..", "third_party", "lingua-go", "language-models")
	var want []string
	for _, lang := range DetectedLanguages {
		iso := strings.ToLower(lang.IsoCode639_1().String())
		if slices.Contains(scriptDetected, lang) {
			continue
		}
		want = append(want, iso)
		for _, n := range []string{"unigrams", "bigrams", "trigrams"} {
			if _, err := os.Stat(filepath.Join(models, iso, n+".pb.bin.zip")); err != nil {
				t.Errorf("%s is detected but a model is missing: copy language-models/%s/%s.pb.bin.zip from lingua-go v1.4.0 (%v)", lang, iso, n, err)
			}
		}
	}
	entries, err := os.ReadDir(models)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !slices.Contains(want, e.Name()) {
			t.Errorf("language-models/%s is embedded but %s is not in DetectedLanguages", e.Name(), e.Name())
		}
	}
}

// Each detected language is named from a sentence of it: the detector loads every model it
// needs from the trimmed copy.
func TestDetectorNamesEveryLanguage(t *testing.T) {
	sentences := map[string]string{
		"en": "The water supply was cut off in the northern districts this morning after the storm.",
		"es": "El suministro de agua se cortó esta mañana en los barrios del norte después de la tormenta.",
		"fr": "L'approvisionnement en eau a été coupé ce matin dans les quartiers nord après la tempête.",
		"de": "Die Wasserversorgung wurde heute Morgen nach dem Sturm in den nördlichen Bezirken unterbrochen.",
		"pt": "O abastecimento de água foi cortado esta manhã nos bairros do norte depois da tempestade.",
		"ar": "انقطعت إمدادات المياه صباح اليوم في الأحياء الشمالية بعد العاصفة.",
		"ru": "Сегодня утром после шторма в северных районах отключили водоснабжение.",
		"uk": "Сьогодні вранці після шторму в північних районах відключили водопостачання.",
		"ja": "嵐の後、今朝北部の地区で水の供給が止まりました。",
		"it": "La fornitura d'acqua è stata interrotta stamattina nei quartieri settentrionali dopo la tempesta.",
		"tr": "Fırtınanın ardından bu sabah kuzey mahallelerinde su kesintisi yaşandı.",
		"zh": "暴风雨过后，今天早上北部地区的供水被切断了。",
		"ko": "폭풍 후 오늘 아침 북부 지역에서 물 공급이 끊겼습니다.",
		"nl": "De watervoorziening werd vanochtend na de storm in de noordelijke wijken afgesloten.",
		"pl": "Dziś rano po burzy w północnych dzielnicach odcięto dostawy wody.",
		"fa": "امروز صبح پس از طوفان آب در محله های شمالی قطع شد.",
		"hi": "तूफान के बाद आज सुबह उत्तरी इलाकों में पानी की आपूर्ति बंद कर दी गई।",
		"id": "Pasokan air terputus pagi ini di wilayah utara setelah badai melanda kota.",
		"vi": "Nguồn cung cấp nước đã bị cắt sáng nay ở các quận phía bắc sau cơn bão.",
		"he": "אספקת המים נותקה הבוקר בשכונות הצפוניות לאחר הסערה.",
		"sv": "Vattenförsörjningen stängdes av i morse i de norra stadsdelarna efter stormen.",
	}
	for _, lang := range DetectedLanguages {
		iso := strings.ToLower(lang.IsoCode639_1().String())
		text, ok := sentences[iso]
		if !ok {
			t.Errorf("no sentence in %s: add one", lang)
			continue
		}
		if got := DetectLanguage(text); got != iso {
			t.Errorf("DetectLanguage(%q) = %q, want %q", text, got, iso)
		}
	}
}
