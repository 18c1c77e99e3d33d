package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/translate"
)

// translateRequest holds both payload forms of search-side.md section 7: form A (query,
// destination_language, source_language, format) and form B (query, destination_language,
// queryTerms, beacon_entity_request and the entity lists).
type translateRequest struct {
	Query               string   `json:"query"`
	DestinationLanguage string   `json:"destination_language"`
	SourceLanguage      string   `json:"source_language"`
	Format              string   `json:"format"`
	QueryTerms          []string `json:"queryTerms"`
	BeaconEntityRequest bool     `json:"beacon_entity_request"`
	ExternalLinks       []string `json:"external_links"`
	ExternalIPs         []string `json:"external_ips"`
	Phones              []string `json:"phones"`
	Authors             []string `json:"authors"`
	AuthorScreenName    []string `json:"author_screen_name"`
	AuthorUsername      []string `json:"author_username"`
	Emails              []string `json:"emails"`
	CreditCards         []string `json:"credit_cards"`
	SSNs                []string `json:"ssns"`
}

// translateText translates a text, and with beacon_entity_request lists the document's entities.
func (a *API) translateText(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var in translateRequest
	if err := decode(r, &in); err != nil {
		return err
	}
	res, err := a.Translate.Translate(r.Context(), translate.Request{
		UserID: id.User.ID,
		Text:   in.Query, Target: in.DestinationLanguage, Source: in.SourceLanguage, Format: in.Format,
		WantEntities: in.BeaconEntityRequest, QueryTerms: in.QueryTerms,
		Known: translate.Entities{ExternalLinks: in.ExternalLinks, ExternalIPs: in.ExternalIPs, Phones: in.Phones,
			Authors: in.Authors, AuthorScreenName: in.AuthorScreenName, AuthorUsername: in.AuthorUsername,
			Emails: in.Emails, CreditCards: in.CreditCards, SSNs: in.SSNs},
	})
	if err != nil {
		// The entities need no server: without one (or past the limit) a form B reply still
		// carries them beside the reason there is no translation. The problem is copied, as
		// the domain's may be shared (translate.ErrNotConfigured).
		if p, isProblem := problem.As(err); isProblem && res.EntitiesInDocument != nil {
			withEntities := *p
			withEntities.Extra = map[string]any{"entitiesInDocument": res.EntitiesInDocument}
			return &withEntities
		}
		return err
	}
	return ok(w, res)
}
