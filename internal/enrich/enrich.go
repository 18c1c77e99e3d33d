// Package enrich adds to a post what can be read from its text: the language, entities (links,
// IP addresses, phone numbers, e-mails, credit cards, SSNs, handles), the places it mentions and
// an explainable threat score. It runs on every ingested post, so it is pure computation over
// data held in memory: no network, no disk.
package enrich

import (
	"slices"

	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/post"
)

// LocationFinder finds the places a text names; *geo.Gazetteer is one.
type LocationFinder interface {
	MentionedLocations(text string) []post.MentionedLocation
}

// TerritoryFinder tells whether a point lies in US territory (geo.Gazetteer does); with one, a
// post made there carries the US-persons marker too, not only one naming a US place.
type TerritoryFinder interface {
	InUSTerritory(p geom.Point) bool
}

// Enricher enriches posts. It holds no per-post state and is safe for concurrent use.
type Enricher struct {
	locations LocationFinder
}

// New returns an Enricher. A nil LocationFinder leaves mentioned locations out.
func New(locations LocationFinder) *Enricher {
	return &Enricher{locations: locations}
}

// Enrich fills the post's Language (from its text; the provider's only when the text cannot
// tell), Entities,
// MentionedLocations and Threat from its title and text. Running it again gives the same result,
// so a redelivered post is enriched identically.
func (e *Enricher) Enrich(p *post.Post) {
	text := joinText(p.TitleText, p.ContentText)
	p.Entities = Entities(text)
	p.Language = PostLanguage(text, p.Language)
	p.MentionedLocations = nil
	if e.locations != nil {
		// Title and text separately: a Title Case headline says less through its capitals.
		p.MentionedLocations = mergeLocations(
			e.locations.MentionedLocations(p.TitleText),
			e.locations.MentionedLocations(p.ContentText))
	}
	p.Threat = Threat(text, p.Entities)
	p.USPI = e.usPersons(p)
}

// usPersons is the US-persons marker: the post names a place of the United States or its
// territories, or was made in them.
func (e *Enricher) usPersons(p *post.Post) bool {
	for _, l := range p.MentionedLocations {
		if geo.IsUSTerritoryCode(l.CountryCode) {
			return true
		}
	}
	t, ok := e.locations.(TerritoryFinder)
	return ok && p.Location != nil && t.InUSTerritory(geom.Point{Lat: p.Location.Lat, Lon: p.Location.Lon})
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
