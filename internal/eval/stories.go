package eval

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/enrich"
	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/story"
)

const (
	storiesWithinF1Target     = 0.85
	storiesAcrossF1Target     = 0.70
	storiesLookalikePrecision = 0.90
	// acrossLanguages is the row of the report for pairs of posts in two languages.
	acrossLanguages = "across"
)

// storyLabel is a stories item's label: the event it reports, when it was published, and the
// group of look-alike events (one template, different subjects) it belongs to, if any.
type storyLabel struct {
	Event     string   `json:"event"`
	Published string   `json:"published"`
	Places    []string `json:"places,omitempty"`
	Lookalike string   `json:"lookalike,omitempty"`
}

// scoreStories enriches the items as ingest does, feeds them to the clusterer in order of
// publication and scores every pair: joined or apart, against same event or not. Pairs in one
// language count for that language, pairs in two for "across"; pairs of two events of a
// look-alike group give the look-alike precision.
func scoreStories(items []Item) (Result, error) {
	var res Result
	g, err := geo.LoadGazetteer()
	if err != nil {
		return res, err
	}
	type labelled struct {
		it    Item
		label storyLabel
		post  post.Post
		story string
	}
	all := make([]labelled, len(items))
	for i, it := range items {
		l := &all[i]
		l.it = it
		if err := decodeExpect(it, &l.label); err != nil {
			return res, err
		}
		at, err := time.Parse(time.RFC3339, l.label.Published)
		if err != nil || l.label.Event == "" {
			return res, fmt.Errorf("%s: expect needs an event and an RFC 3339 published time", it.ID)
		}
		l.post = post.Post{ID: it.ID, ContentText: it.Text, PublishedAt: at}
		enrich.New(g).Enrich(&l.post)
	}
	slices.SortStableFunc(all, func(a, b labelled) int {
		return cmpTimeThenID(a.post.PublishedAt, b.post.PublishedAt, a.it.ID, b.it.ID)
	})
	c := story.New()
	for i := range all {
		all[i].story = c.Add(&all[i].post)
	}

	var look Figures
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			a, b := &all[i], &all[j]
			same, joined := a.label.Event == b.label.Event, a.story == b.story
			var f Figures
			switch {
			case same && joined:
				f.TP = 1
			case joined:
				f.FP = 1
			case same:
				f.FN = 1
			default:
				f.TN = 1
			}
			row := a.it.Lang
			if a.it.Lang != b.it.Lang {
				row = acrossLanguages
			}
			res.count(row, f)
			if a.label.Lookalike != "" && a.label.Lookalike == b.label.Lookalike {
				look.add(f)
			}
			if f.FP+f.FN > 0 {
				want, got := "apart", "joined"
				if same {
					want, got = "joined", "apart"
				}
				res.Errors = append(res.Errors, Error{a.it.ID + " & " + b.it.ID, row, clip(a.it.Text, 50) + " | " + b.it.Text, want, got})
			}
		}
	}

	var within Figures
	for l, f := range res.Languages {
		if l != acrossLanguages {
			within.add(*f)
		}
	}
	across := Figures{}
	if f := res.Languages[acrossLanguages]; f != nil {
		across = *f
	}
	res.Extra = map[string]float64{"within_language_f1": within.F1(), "across_languages_f1": across.F1(),
		"lookalike_precision": look.Precision(), "stories": float64(countStories(all, func(i int) string { return all[i].story })),
		"events": float64(countStories(all, func(i int) string { return all[i].label.Event }))}
	if f := within.F1(); f < storiesWithinF1Target {
		res.Failures = append(res.Failures, fmt.Sprintf("F1 within a language %.3f < %.2f", f, storiesWithinF1Target))
	}
	if f := across.F1(); f < storiesAcrossF1Target {
		res.Failures = append(res.Failures, fmt.Sprintf("F1 across languages %.3f < %.2f", f, storiesAcrossF1Target))
	}
	if p := look.Precision(); p < storiesLookalikePrecision {
		res.Failures = append(res.Failures, fmt.Sprintf("precision on look-alike pairs %.3f < %.2f", p, storiesLookalikePrecision))
	}
	return res, nil
}

func cmpTimeThenID(a, b time.Time, aID, bID string) int {
	if c := a.Compare(b); c != 0 {
		return c
	}
	return strings.Compare(aID, bID)
}

func countStories[T any](all []T, key func(int) string) int {
	seen := map[string]bool{}
	for i := range all {
		seen[key(i)] = true
	}
	return len(seen)
}
