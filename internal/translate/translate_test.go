package translate

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestDocumentEntities(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		terms []string
		known Entities
		want  Entities
	}{
		{name: "nothing", text: "Quiet day at the harbour.", want: Entities{}},
		{name: "found by enrichment", text: "Dump at https://paste.example/x from 203.0.113.7, card 4111 1111 1111 1111, SSN 536-22-1234, call +44 20 7946 0958, mail a.b@example.com, via @leaker",
			want: Entities{ExternalLinks: []string{"https://paste.example/x"}, ExternalIPs: []string{"203.0.113.7"},
				CreditCards: []string{"4111111111111111"}, SSNs: []string{"536-22-1234"}, Phones: []string{"+442079460958"},
				Emails: []string{"a.b@example.com"}, Authors: []string{"@leaker"}}},
		{name: "client lists kept only when in the text", text: "Posted by Jane Roe (jroe) about the flood",
			terms: []string{"Flood", "fire", " "},
			known: Entities{AuthorScreenName: []string{"Jane Roe", "John Doe"}, AuthorUsername: []string{"jroe"}, Emails: []string{"x@y.example"}},
			want:  Entities{AuthorScreenName: []string{"Jane Roe"}, AuthorUsername: []string{"jroe"}, QueryTerms: []string{"Flood"}}},
		{name: "no duplicates ignoring case", text: "Mail ANA@example.com", known: Entities{Emails: []string{"ana@EXAMPLE.com"}},
			want: Entities{Emails: []string{"ANA@example.com"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DocumentEntities(tt.text, tt.terms, tt.known)
			want := normalize(tt.want)
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("got  %+v\nwant %+v", *got, want)
			}
		})
	}
}

// normalize makes every nil list empty, as DocumentEntities does for JSON.
func normalize(e Entities) Entities {
	v := reflect.ValueOf(&e).Elem()
	for i := range v.NumField() {
		if v.Field(i).IsNil() {
			v.Field(i).Set(reflect.ValueOf([]string{}))
		}
	}
	return e
}

func TestLanguageCode(t *testing.T) {
	tests := []struct{ in, fallback, want string }{
		{"", "en", "en"}, {"EN", "en", "en"}, {"pt-BR", "en", "pt"}, {"zh_TW", "en", "zt"}, {"zh-Hans", "en", "zh"},
		{"auto", Auto, Auto}, {"fil", "en", "fil"},
	}
	for _, tt := range tests {
		if got, err := languageCode("f", tt.in, tt.fallback); err != nil || got != tt.want {
			t.Errorf("languageCode(%q) = %q %v, want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"auto", "e", "english", "e1", "<b>"} {
		if _, err := languageCode("destination_language", bad, "en"); err == nil {
			t.Errorf("languageCode(%q) accepted", bad)
		}
	}
}

type memCache map[Key]string

func (m memCache) CachedTranslation(_ context.Context, k Key) (string, bool, error) {
	s, ok := m[k]
	return s, ok, nil
}
func (m memCache) CachedTranslations(_ context.Context, keys []Key) (map[Key]string, error) {
	out := map[Key]string{}
	for _, k := range keys {
		if s, ok := m[k]; ok {
			out[k] = s
		}
	}
	return out, nil
}
func (m memCache) SaveTranslation(_ context.Context, k Key, s string) error { m[k] = s; return nil }

func TestUnreachableServer(t *testing.T) {
	backend, err := NewLibreTranslate("http://127.0.0.1:1/?api_key=secret", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewService(backend, memCache{}).Translate(context.Background(), Request{Text: "Hola", Target: "en"})
	var be *BackendError
	if !errors.As(err, &be) || !strings.HasPrefix(err.Error(), "The translation server failed: could not reach it") ||
		strings.Contains(err.Error(), "secret") {
		t.Errorf("err = %v", err)
	}
	if _, err := NewLibreTranslate("ftp://x", ""); err == nil {
		t.Error("ftp address accepted")
	}
}

func TestSameLanguageIsNotSent(t *testing.T) {
	res, err := NewService(failing{}, memCache{}).Translate(context.Background(), Request{Text: " Hello ", Source: "en", Target: "en"})
	if err != nil || res.Translation != "Hello" {
		t.Errorf("= %+v %v", res, err)
	}
}

type failing struct{}

func (failing) Translate(context.Context, string, string, string, string) (string, error) {
	return "", errors.New("called")
}

// An export's lookup: the cards' text and key, the text itself when already in the target, and
// nothing where none is stored; the server is never called.
func TestCachedTexts(t *testing.T) {
	cache := memCache{}
	cache[KeyOf("Titre\n\nBonjour", "fr", "en", FormatText)] = "Title\n\nHello"
	cache[KeyOf("Hola", Auto, "en", FormatText)] = "Hello"
	cache[KeyOf("Ciao", "it", "en", FormatHTML)] = "html, not what cards ask"
	svc := NewService(failing{}, cache)
	texts := []Text{
		{Text: PostText(" Titre ", "Bonjour "), Language: "fr"},
		{Text: "Hola", Language: "und"},
		{Text: "Hola", Language: ""},
		{Text: "Hello there", Language: "EN"},
		{Text: "Ciao", Language: "it"},
		{Text: "", Language: "de"},
		{Text: "Hola", Language: "es"}, // stored under auto, not es
	}
	got, err := svc.CachedTexts(context.Background(), texts, "")
	want := []string{"Title\n\nHello", "Hello", "Hello", "Hello there", "", "", ""}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("CachedTexts = %q %v, want %q", got, err, want)
	}
	if got, _ := NewService(nil, nil).CachedTexts(context.Background(), texts, "en"); len(got) != len(texts) || got[0] != "" {
		t.Errorf("without a cache = %q", got)
	}
	if PostText("", " x ") != "x" || PostText("t", "") != "t" {
		t.Error("PostText")
	}
}

// recording is a backend that answers with the source language it was asked to translate from.
type recording struct{}

func (recording) Translate(_ context.Context, _, source, _, _ string) (string, error) {
	return "from " + source, nil
}

// A post's stored language may be the provider's, which the text contradicts; the text's
// language is what the server is asked to translate from, so the post is neither garbled nor
// returned untranslated as already in the target.
func TestSourceComesFromTheText(t *testing.T) {
	tests := []struct{ text, source, want string }{
		{"The bridge on the main road stays closed until tomorrow morning.", "uk", "The bridge on the main road stays closed until tomorrow morning."},
		{"Міст на головній дорозі закритий до завтрашнього ранку.", "en", "from uk"},
		{"Міст на головній дорозі закритий до завтрашнього ранку.", "ru", "from uk"},
		{"Міст на головній дорозі закритий до завтрашнього ранку.", "", "from auto"},
		{"Дякую", "uk", "from uk"},       // too short to tell: the stored language stands
		{"Nice work", "uk", "from auto"}, // not in Ukrainian letters
		{"Tudo bem?", "es", "from auto"}, // short, but clearly not Spanish
	}
	for _, tt := range tests {
		svc := NewService(recording{}, memCache{})
		res, err := svc.Translate(context.Background(), Request{Text: tt.text, Source: tt.source, Target: "en", Format: FormatText})
		if err != nil || res.Translation != tt.want {
			t.Errorf("Translate(%q from %q) = %q %v, want %q", tt.text, tt.source, res.Translation, err, tt.want)
		}
	}
}

// A translation is kept under the source as asked, the post's stored language, so an export's
// lookup by that language finds it without detecting anything.
func TestCorrectedSourceIsCachedAsAsked(t *testing.T) {
	const text = "Міст на головній дорозі закритий до завтрашнього ранку."
	svc := NewService(recording{}, memCache{})
	if _, err := svc.Translate(context.Background(), Request{Text: text, Source: "en", Target: "de", Format: FormatText}); err != nil {
		t.Fatal(err)
	}
	got, err := svc.CachedTexts(context.Background(), []Text{{Text: text, Language: "en"}}, "de")
	if err != nil || len(got) != 1 || got[0] != "from uk" {
		t.Errorf("CachedTexts = %q %v, want the translation from Ukrainian", got, err)
	}
}
