// Package translate turns text into another language through an operator-configured
// LibreTranslate-compatible server, caching every answer per text and language pair so a text
// is sent once, and lists the entities a document holds (search-side.md sections 3, 4, 7).
// Entities need no server; translation answers ErrNotConfigured without one.
package translate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/enrich"
	"github.com/sightline/sightline/internal/problem"
)

// MaxTextChars bounds the text of one request: a post or a few keywords, never a whole dump.
const MaxTextChars = 10000

// maxQueryTerms bounds the search terms a form-B request may name.
const maxQueryTerms = 100

// Formats a text may be sent in: html keeps markup and translates only the text between tags.
const (
	FormatText = "text"
	FormatHTML = "html"
)

// Auto is the source language the backend detects itself.
const Auto = "auto"

// Errors of Translate, tested with errors.Is; like every error Translate returns, they are
// internal/problem errors the API answers as they are.
var (
	ErrNotConfigured error = problem.Unavailable("Translation is not configured on this server")
	ErrEmptyText     error = problem.InvalidField("query", "The text to translate is empty.")
	ErrTooLong       error = problem.TooLarge(fmt.Sprintf(
		"The text to translate is longer than %d characters; translate a shorter passage.", MaxTextChars))
)

// Backend translates one text. Its errors are shown to the user (after "The translation server
// failed: "), so they must name no credentials.
type Backend interface {
	Translate(ctx context.Context, text, source, target, format string) (string, error)
}

// Cache keeps translations. Key is the hash of the text with its format; a miss is ("", false, nil).
type Cache interface {
	CachedTranslation(ctx context.Context, k Key) (string, bool, error)
	// CachedTranslations looks up many keys at once (an export's page of posts); the map holds
	// the hits.
	CachedTranslations(ctx context.Context, keys []Key) (map[Key]string, error)
	SaveTranslation(ctx context.Context, k Key, translation string) error
}

// Key names one cached translation.
type Key struct {
	TextHash string // hex SHA-256 of the format, a NUL and the text
	Source   string // ISO 639-1 code, or "auto"
	Target   string
	Format   string
}

// KeyOf is the cache key of a text: whoever holds the same text (an export, another user) finds
// the same translation.
func KeyOf(text, source, target, format string) Key {
	sum := sha256.Sum256([]byte(format + "\x00" + text))
	return Key{TextHash: hex.EncodeToString(sum[:]), Source: source, Target: target, Format: format}
}

// BackendError is a failure of the translation server.
type BackendError struct{ Err error }

func (e *BackendError) Error() string { return "The translation server failed: " + e.Err.Error() }

// Unwrap gives the cause and the problem the API answers: 502 with this error's message.
func (e *BackendError) Unwrap() []error { return []error{e.Err, problem.BadGateway(e.Error())} }

// Request is one translation: form A (Text, Target, Source, Format) or form B, which adds the
// search's terms and the entities the client knows of, and asks for the document's entities.
type Request struct {
	// UserID is who asks: calls to the server are limited per user (0: not limited, for the
	// server's own callers).
	UserID int64
	Text   string
	Target string // default "en"
	Source string // default automatic detection
	Format string // default html (section 7)

	// WantEntities (beacon_entity_request) asks for EntitiesInDocument.
	WantEntities bool
	QueryTerms   []string
	// Known are entity lists the client sent; those the text holds are reported with the ones
	// found in it.
	Known Entities
}

// Entities are the lists of entitiesInDocument, named as the request's lists are.
type Entities struct {
	ExternalLinks    []string `json:"external_links"`
	ExternalIPs      []string `json:"external_ips"`
	Phones           []string `json:"phones"`
	Authors          []string `json:"authors"`
	AuthorScreenName []string `json:"author_screen_name"`
	AuthorUsername   []string `json:"author_username"`
	Emails           []string `json:"emails"`
	CreditCards      []string `json:"credit_cards"`
	SSNs             []string `json:"ssns"`
	QueryTerms       []string `json:"queryTerms"`
}

// Result is the reply: the translation, and the document's entities when they were asked for.
type Result struct {
	Translation        string    `json:"translation"`
	EntitiesInDocument *Entities `json:"entitiesInDocument"`
}

// Service translates through a Backend and a Cache; with a nil Backend only entities work, and
// with a Cache translations made earlier can still be read (Cached, CachedTexts).
type Service struct {
	backend Backend
	cache   Cache
	// Limiter bounds each user's calls to the server (NewLimiter's limits); cache hits are free.
	Limiter *Limiter
}

// NewService returns a Service; backend may be nil (no server configured).
func NewService(backend Backend, cache Cache) *Service {
	return &Service{backend: backend, cache: cache, Limiter: NewLimiter()}
}

// Configured says whether a translation server is set up; the profile tells the app.
func (s *Service) Configured() bool { return s != nil && s.backend != nil }

// Translate translates r.Text, from the cache when it was translated before.
func (s *Service) Translate(ctx context.Context, r Request) (Result, error) {
	text := strings.TrimSpace(r.Text)
	if text == "" {
		return Result{}, ErrEmptyText
	}
	if utf8.RuneCountInString(text) > MaxTextChars {
		return Result{}, ErrTooLong
	}
	if len(r.QueryTerms) > maxQueryTerms {
		r.QueryTerms = r.QueryTerms[:maxQueryTerms]
	}
	target, err := languageCode("destination_language", r.Target, "en")
	if err != nil {
		return Result{}, err
	}
	source, err := languageCode("source_language", r.Source, Auto)
	if err != nil {
		return Result{}, err
	}
	if source == enrich.Undetermined {
		source = Auto
	}
	// The server is asked from the text's language; the cache keeps the source as asked (a post's
	// stored language), which the exports' lookup reads without detecting anything.
	from := sourceFor(text, source)
	format := r.Format
	switch format {
	case "":
		format = FormatHTML
	case FormatHTML, FormatText:
	default:
		return Result{}, problem.InvalidField("format", fmt.Sprintf("The format %q is not one of html and text.", r.Format))
	}
	var res Result
	if r.WantEntities {
		res.EntitiesInDocument = DocumentEntities(text, r.QueryTerms, r.Known)
	}
	if !s.Configured() {
		return res, ErrNotConfigured
	}
	if from == target {
		res.Translation = text
		return res, nil
	}
	if r.WantEntities {
		if m := mask(text, format, r.QueryTerms, r.Known); m.pattern != nil {
			if !strings.ContainsFunc(m.pattern.ReplaceAllString(m.text, ""), unicode.IsLetter) {
				res.Translation = text // only entities and numbers: nothing to translate
				return res, nil
			}
			translated, err := s.translate(ctx, r.UserID, m.text, source, from, target, format)
			if err != nil {
				return res, err
			}
			if restored, ok := m.restore(translated); ok {
				res.Translation = restored
				return res, nil
			}
			// The server lost or broke a placeholder: the plain text's translation, with its
			// entities as the server left them, is better than none.
		}
	}
	res.Translation, err = s.translate(ctx, r.UserID, text, source, from, target, format)
	return res, err
}

// translate answers from the cache, or asks the server (within the user's limit) to translate
// from the language from and keeps its answer under source.
func (s *Service) translate(ctx context.Context, userID int64, text, source, from, target, format string) (string, error) {
	key := KeyOf(text, source, target, format)
	cached, found, err := s.cache.CachedTranslation(ctx, key)
	if err != nil || found {
		return cached, err
	}
	if userID != 0 && s.Limiter != nil {
		if err := s.Limiter.Allow(userID); err != nil {
			return "", err
		}
	}
	translated, err := s.backend.Translate(ctx, text, from, target, format)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", &BackendError{Err: err}
	}
	if err := s.cache.SaveTranslation(ctx, key, translated); err != nil {
		return "", err
	}
	return translated, nil
}

// Cached returns the stored translation of a text, if any; it never calls the backend.
func (s *Service) Cached(ctx context.Context, text, source, target, format string) (string, bool, error) {
	if s == nil || s.cache == nil {
		return "", false, nil
	}
	return s.cache.CachedTranslation(ctx, KeyOf(strings.TrimSpace(text), sourceOf(source), targetOf(target), format))
}

// Text is a text to look up, in its language (as detected: a code, "und" or "").
type Text struct {
	Text     string
	Language string
}

// PostText is the text of a post that the post cards translate: its title and its text,
// each trimmed, the empty ones left out, joined by a blank line. Exports look up the same text,
// so what a user translated in the app is what the export finds.
func PostText(title, content string) string {
	title, content = strings.TrimSpace(title), strings.TrimSpace(content)
	switch {
	case title == "":
		return content
	case content == "":
		return title
	}
	return title + "\n\n" + content
}

// CachedTexts returns the stored plain-text translation of each text into target, as the post
// cards ask for them, with one read of the store for all: "" where none is stored, and the text
// itself where it is already in target (what Translate answers). It never calls the server.
func (s *Service) CachedTexts(ctx context.Context, texts []Text, target string) ([]string, error) {
	out := make([]string, len(texts))
	if s == nil || s.cache == nil {
		return out, nil
	}
	target = targetOf(target)
	keys := make([]Key, 0, len(texts))
	at := make([]int, 0, len(texts))
	for i, t := range texts {
		text := strings.TrimSpace(t.Text)
		switch source := sourceOf(t.Language); {
		case text == "":
		case source == target:
			out[i] = text
		default:
			keys = append(keys, KeyOf(text, source, target, FormatText))
			at = append(at, i)
		}
	}
	if len(keys) == 0 {
		return out, nil
	}
	found, err := s.cache.CachedTranslations(ctx, keys)
	if err != nil {
		return nil, err
	}
	for j, k := range keys {
		out[at[j]] = found[k]
	}
	return out, nil
}

// TargetLanguage checks a target language as Translate does: en when empty.
func TargetLanguage(field, code string) (string, error) { return languageCode(field, code, "en") }

// sourceOf is a stored language as a source: a code as Translate normalizes it, and auto for
// undetermined or anything else.
func sourceOf(language string) string {
	code, err := languageCode("", language, Auto)
	if err != nil || code == enrich.Undetermined {
		return Auto
	}
	return code
}

// sourceFor is the language a text is translated from: the one given (a post's stored language
// or the caller's), unless the text is written in another or is too short to be in the one given;
// then the detected language or auto. Posts stored before ingest took their language from the
// text carry what the provider declared, sometimes wrong ("uk" on an English post), and a wrong
// source makes the server garble the text, or makes Translate return it untranslated as already
// in the target.
func sourceFor(text, language string) string {
	source := sourceOf(language)
	if source == Auto {
		return Auto
	}
	switch lang := enrich.PostLanguage(text, source); {
	case lang == source, lang == "zh" && source == "zt":
		return source
	default:
		return sourceOf(lang)
	}
}

// targetOf is a target as Translate normalizes it (en when empty or invalid).
func targetOf(language string) string {
	code, err := languageCode("", language, "en")
	if err != nil {
		return "en"
	}
	return code
}

// languageCode checks a language code: two or three lower-case letters ("pt-BR" is "pt"), or
// "auto" for a source.
func languageCode(field, code, fallback string) (string, error) {
	code = strings.ToLower(strings.TrimSpace(code))
	if code == "" {
		return fallback, nil
	}
	if code == Auto && fallback == Auto {
		return Auto, nil
	}
	primary, _, _ := strings.Cut(strings.ReplaceAll(code, "_", "-"), "-")
	if len(primary) < 2 || len(primary) > 3 || strings.Trim(primary, "abcdefghijklmnopqrstuvwxyz") != "" {
		return "", problem.InvalidField(field, fmt.Sprintf("%q is not a language code (two or three letters, such as en).", code))
	}
	// Chinese keeps its script: LibreTranslate knows zh (simplified) and zt (traditional).
	if primary == "zh" && (strings.Contains(code, "tw") || strings.Contains(code, "hant") || strings.Contains(code, "hk")) {
		return "zt", nil
	}
	return primary, nil
}

// DocumentEntities lists what the text holds: the entities enrichment finds in it, the client's
// lists (only the items the text contains, so a client cannot make a document say more than it
// does) and the search terms it contains.
func DocumentEntities(text string, queryTerms []string, known Entities) *Entities {
	found := enrich.Entities(text)
	lower := strings.ToLower(text)
	inText := func(items []string) []string {
		var out []string
		for _, it := range items {
			if it = strings.TrimSpace(it); it != "" && strings.Contains(lower, strings.ToLower(it)) {
				out = append(out, it)
			}
		}
		return out
	}
	handles := make([]string, 0, len(found.Handles))
	for _, h := range found.Handles {
		handles = append(handles, "@"+h)
	}
	return &Entities{
		ExternalLinks:    union(found.ExternalLinks, inText(known.ExternalLinks)),
		ExternalIPs:      union(found.IPs, inText(known.ExternalIPs)),
		Phones:           union(found.Phones, inText(known.Phones)),
		Authors:          union(handles, inText(known.Authors)),
		AuthorScreenName: union(nil, inText(known.AuthorScreenName)),
		AuthorUsername:   union(nil, inText(known.AuthorUsername)),
		Emails:           union(found.Emails, inText(known.Emails)),
		CreditCards:      union(found.CreditCards, inText(known.CreditCards)),
		SSNs:             union(found.SSNs, inText(known.SSNs)),
		QueryTerms:       union(nil, inText(queryTerms)),
	}
}

// union appends to a the items of b it lacks, ignoring case; never nil, so JSON says [].
func union(a, b []string) []string {
	out := append([]string{}, a...)
	for _, s := range b {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, s) }) {
			out = append(out, s)
		}
	}
	return out
}
