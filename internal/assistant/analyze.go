package assistant

import (
	"context"
	"strings"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/enrich"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/search"
)

// Analysis is "Analyze" on a post: what it says, what it names and why it may be a threat.
type Analysis struct {
	PostID string `json:"postId"`
	// Summary is the post in at most three of its own sentences (or the model's, each kept only
	// where it cites the post).
	Summary  string        `json:"summary"`
	Model    string        `json:"model"`
	Entities post.Entities `json:"entities"`
	// Locations are the places the text names.
	Locations []string `json:"mentioned_locations"`
	// Threat is the post's threat score and its reasons (docs/threat-score.md).
	Threat Threat `json:"threat"`
}

// Threat is a post's threat score with its reasons, listed even when there are none.
type Threat struct {
	Score   int      `json:"score"`
	Reasons []string `json:"reasons"`
}

// Analyze analyses a post the caller may see. It needs an English post of more than ten words
// (search-side.md section 5).
func (s *Service) Analyze(ctx context.Context, actor authz.Actor, postID string) (Analysis, error) {
	if err := authz.CanUseAssistant(actor); err != nil {
		return Analysis{}, err
	}
	if strings.TrimSpace(postID) == "" {
		return Analysis{}, problem.InvalidField("postId", "The postId field is required.")
	}
	done, err := s.limit.begin(ctx, true)
	if err != nil {
		return Analysis{}, err
	}
	defer done()
	p, err := s.store.Post(ctx, strings.TrimSpace(postID), actor.TenantID)
	if problem.Is(err, problem.KindNotFound) || (err == nil && !entitlementsOf(actor).Reaches(p.Provider)) {
		return Analysis{}, problem.NotFound(search.MsgPostNotFound)
	}
	if err != nil {
		return Analysis{}, err
	}
	if !Analyzable(p) {
		return Analysis{}, problem.InvalidField("postId", MsgNotAnalyzable)
	}
	if err := s.limit.charge(actor.OrganizationID); err != nil {
		return Analysis{}, err
	}
	summary, err := s.engine.Summarize(ctx, []post.Post{p}, summarySentences)
	if err != nil {
		s.log.Warn("assistant: the engine failed", "model", s.engine.Model(), "err", err)
		return Analysis{}, problem.BadGateway(MsgLLMFailed)
	}
	var sentences []string
	for _, c := range summary.Sentences {
		if len(c.Cites) > 0 && c.Cites[0] == 1 {
			sentences = append(sentences, c.Text)
		}
	}
	if len(sentences) == 0 {
		// Too short to pick from: the post is its own summary.
		sentences = []string{Excerpt(Text(p), maxSentenceRunes)}
	}
	a := Analysis{PostID: p.ID, Summary: strings.Join(sentences, " "), Model: s.engine.Model(), Entities: p.Entities,
		Locations: []string{}, Threat: Threat{Score: p.Threat.Score, Reasons: p.Threat.Reasons}}
	for _, l := range p.MentionedLocations {
		a.Locations = append(a.Locations, l.Name)
	}
	if a.Threat.Reasons == nil {
		a.Threat.Reasons = []string{}
	}
	return a, nil
}

// Analyzable says whether "Analyze" applies to a post: written in English, more than ten words.
// The language is the text's, not the stored one: posts stored before ingest detected languages
// carry what the provider declared, which may be wrong (an English post declared Ukrainian).
func Analyzable(p post.Post) bool {
	text := Text(p)
	return len(strings.Fields(text)) >= minAnalysisWords && enrich.PostLanguage(text, p.Language) == "en"
}
