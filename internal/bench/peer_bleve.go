package bench

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/query"
)

// The Bleve peer matches posts the way the Elasticsearch and Lucene percolators do: a presearch
// picks the candidate queries from the terms each query requires (a query whose terms cannot be
// extracted, such as a wildcard or a similarity, is always a candidate), then each post becomes a
// one-document in-memory index and every candidate query runs against it.

// BleveResult is `bench percolate --peer bleve`: the peer and Sightline's percolator on the same
// posts and the same searches (those that translate into Bleve queries).
type BleveResult struct {
	Searches   int `json:"searches"`    // translated
	OfSearches int `json:"of_searches"` // in the workload
	Posts      int `json:"posts"`
	// CandidatesPerPost are the queries the presearch made the peer run on each post.
	CandidatesPerPost    float64 `json:"candidates_per_post"`
	PostsPerSec          float64 `json:"posts_per_sec"`
	SightlinePostsPerSec float64 `json:"sightline_posts_per_sec"`
	// Ratio is Sightline's throughput over the peer's.
	Ratio float64 `json:"ratio"`
	// Matches found by each; they may differ a little, as Bleve's analysis folds accents its own
	// way (ASCII folding) and measures similarity as Levenshtein distance without transpositions.
	Matches          int `json:"matches"`
	SightlineMatches int `json:"sightline_matches"`
}

func (r *BleveResult) WriteText(w io.Writer) {
	fmt.Fprintf(w, "peer: Bleve            %.0f posts/s against Sightline's %.0f posts/s on the same %d posts: Sightline %.0fx\n",
		r.PostsPerSec, r.SightlinePostsPerSec, r.Posts, r.Ratio)
	fmt.Fprintf(w, "                       %d of the %d searches translate; %.1f candidate queries per post; matches %d (Sightline %d)\n",
		r.Searches, r.OfSearches, r.CandidatesPerPost, r.Matches, r.SightlineMatches)
}

// bleveSearch is a saved search translated into a Bleve query; terms are those the presearch
// looks for (nil: a candidate for every post).
type bleveSearch struct {
	id    int64
	q     bq.Query
	terms []string
}

const bleveAnalyzer = "folded"

// sightlineSampleTime is how long Sightline's passes over the peer's sample are timed.
const sightlineSampleTime = time.Second

// bleveMapping indexes a post's text with Unicode word boundaries, ASCII folding and lower
// case, and its provider, author and board as keywords.
func bleveMapping() (*mapping.IndexMappingImpl, error) {
	im := bleve.NewIndexMapping()
	if err := im.AddCustomAnalyzer(bleveAnalyzer, map[string]any{
		"type": custom.Name, "char_filters": []string{asciifolding.Name},
		"tokenizer": unicode.Name, "token_filters": []string{lowercase.Name},
	}); err != nil {
		return nil, err
	}
	doc := bleve.NewDocumentMapping()
	text := bleve.NewTextFieldMapping()
	text.Analyzer = bleveAnalyzer
	text.IncludeTermVectors = true // phrases need positions
	doc.AddFieldMappingsAt("text", text)
	for _, f := range []string{"provider", "author", "board"} {
		doc.AddFieldMappingsAt(f, bleve.NewKeywordFieldMapping())
	}
	doc.AddFieldMappingsAt("images", bleve.NewBooleanFieldMapping())
	doc.AddFieldMappingsAt("videos", bleve.NewBooleanFieldMapping())
	im.DefaultMapping = doc
	return im, nil
}

// bleveDoc is what the peer indexes of a post.
func bleveDoc(d *percolate.Doc) map[string]any {
	return map[string]any{
		"text": d.Title + " " + d.Text, "provider": query.Fold(d.Provider), "board": query.Fold(d.Board),
		"author": []string{strings.TrimPrefix(query.Fold(d.AuthorName), "@"), strings.TrimPrefix(query.Fold(d.AuthorScreenName), "@")},
		"images": d.HasImages, "videos": d.HasVideos,
	}
}

// translateToBleve translates the searches that map onto Bleve's queries: keyword queries of
// words, phrases, wildcards, similarity, AND, OR and exclusions, with providers, authors, boards
// and the media flags. Proximity, places, dates and filter lists are left out, and so are paused
// searches.
func translateToBleve(s percolate.SavedSearch) (*bleveSearch, bool) {
	if !s.Enabled || s.Paused || s.Bounds != nil || s.Start != nil || s.End != nil || len(s.Filters) > 0 {
		return nil, false
	}
	must := bleve.NewConjunctionQuery()
	b := &bleveSearch{id: s.ID}
	keyed := false
	if strings.TrimSpace(s.Keywords) != "" {
		q, issues := query.Parse(s.Keywords, query.ModeSavedSearch)
		if query.HasError(issues) {
			return nil, false
		}
		kq, terms, ok := bleveNode(q.Root)
		if !ok {
			return nil, false
		}
		must.AddQuery(kq)
		b.terms, keyed = terms, true
	}
	field := func(name string, values []string, handle bool) {
		oneOf := bleve.NewDisjunctionQuery()
		var keys []string
		for _, v := range values {
			if v = query.Fold(v); handle {
				v = strings.TrimSpace(strings.TrimPrefix(v, "@"))
			}
			if v == "" {
				continue
			}
			t := bleve.NewTermQuery(v)
			t.SetField(name)
			oneOf.AddQuery(t)
			keys = append(keys, name+":"+v)
		}
		if len(keys) > 0 {
			must.AddQuery(oneOf)
			if !keyed {
				b.terms, keyed = keys, true
			}
		}
	}
	field("author", strings.Split(s.Author, ","), true)
	field("board", s.Boards, false)
	field("provider", s.Providers, false)
	for name, on := range map[string]bool{"images": s.ImagesOnly, "videos": s.VideosOnly} {
		if on {
			f := bleve.NewBoolFieldQuery(true)
			f.SetField(name)
			must.AddQuery(f)
		}
	}
	b.q = must
	return b, true
}

// bleveNode translates a keyword query's node and says which terms a post needs for it to
// match (nil when they cannot be told, as for wildcards).
func bleveNode(n query.Node) (bq.Query, []string, bool) {
	switch n := n.(type) {
	case *query.Term:
		if n.Slop >= 0 {
			return nil, nil, false
		}
		if len(n.Patterns) > 1 {
			terms := make([]string, len(n.Patterns))
			for i, p := range n.Patterns {
				if p.Kind != query.Exact {
					return nil, nil, false
				}
				terms[i] = p.Text
			}
			return bleve.NewPhraseQuery(terms, "text"), terms[:1], true
		}
		p := n.Patterns[0]
		switch p.Kind {
		case query.Wildcard:
			q := bleve.NewWildcardQuery(p.Text)
			q.SetField("text")
			return q, nil, true
		case query.Fuzzy:
			q := bleve.NewFuzzyQuery(p.Text)
			q.SetFuzziness(p.MaxEdits)
			q.SetField("text")
			return q, nil, true
		}
		q := bleve.NewTermQuery(p.Text)
		q.SetField("text")
		return q, []string{p.Text}, true
	case *query.Or:
		or := bleve.NewDisjunctionQuery()
		var terms []string
		known := true
		for _, c := range n.Children {
			q, t, ok := bleveNode(c)
			if !ok {
				return nil, nil, false
			}
			if _, not := c.(*query.Not); not {
				return nil, nil, false
			}
			or.AddQuery(q)
			terms, known = append(terms, t...), known && t != nil
		}
		if !known {
			terms = nil
		}
		return or, terms, true
	case *query.And:
		and := bleve.NewBooleanQuery()
		var terms []string
		for _, c := range n.Children {
			if not, ok := c.(*query.Not); ok {
				q, _, ok := bleveNode(not.Child)
				if !ok {
					return nil, nil, false
				}
				and.AddMustNot(q)
				continue
			}
			q, t, ok := bleveNode(c)
			if !ok {
				return nil, nil, false
			}
			and.AddMust(q)
			if t != nil && (terms == nil || len(t) < len(terms)) {
				terms = t // like Lucene's query analyzer: the narrowest clause
			}
		}
		return and, terms, true
	}
	return nil, nil, false // an exclusion on its own
}

// blevePeer runs the peer on the sample and, for the ratio, Sightline's percolator on the same
// posts with the same searches.
func blevePeer(specs []percolate.SavedSearch, sample []percolate.Doc, now time.Time, workers int) (*BleveResult, error) {
	im, err := bleveMapping()
	if err != nil {
		return nil, err
	}
	res := &BleveResult{OfSearches: len(specs), Posts: len(sample)}
	var searches []*bleveSearch
	var translated []percolate.SavedSearch
	byTerm := map[string][]*bleveSearch{}
	var always []*bleveSearch
	for _, s := range specs {
		b, ok := translateToBleve(s)
		if !ok {
			continue
		}
		searches, translated = append(searches, b), append(translated, s)
		if b.terms == nil {
			always = append(always, b)
		}
		for _, t := range b.terms {
			byTerm[t] = append(byTerm[t], b)
		}
	}
	res.Searches = len(searches)

	// Sightline on the same searches and posts.
	ix := percolate.New()
	if err := ix.Put(translated...); err != nil {
		return nil, err
	}
	// A few hundred posts take Sightline milliseconds, which one cold pass would time mostly as
	// first touches and goroutine starts: it is timed warm, over whole passes for at least a
	// second, as the main run is. The peer takes seconds a pass, so its one pass is its figure.
	found := make([]int, len(sample))
	matchSample := func() {
		parallel(len(sample), workers, func(i int) { found[i] = len(ix.Match(&sample[i], now)) })
	}
	matchSample()
	passes, start := 0, time.Now()
	for passes == 0 || time.Since(start) < sightlineSampleTime {
		matchSample()
		passes++
	}
	res.SightlinePostsPerSec = float64(passes*len(sample)) / time.Since(start).Seconds()
	for _, n := range found {
		res.SightlineMatches += n
	}

	analyzer := im.AnalyzerNamed(bleveAnalyzer)
	matches, candidates := make([]int, len(sample)), make([]int, len(sample))
	errs := make([]error, len(sample))
	start = time.Now()
	parallel(len(sample), workers, func(i int) {
		d := &sample[i]
		// The presearch: the post's terms, then the queries keyed by them.
		seen := map[int64]bool{}
		var todo []*bleveSearch
		add := func(list []*bleveSearch) {
			for _, b := range list {
				if !seen[b.id] {
					seen[b.id] = true
					todo = append(todo, b)
				}
			}
		}
		add(always)
		for _, tok := range analyzer.Analyze([]byte(d.Title + " " + d.Text)) {
			add(byTerm[string(tok.Term)])
		}
		for _, key := range []string{"author:" + strings.TrimPrefix(query.Fold(d.AuthorName), "@"),
			"author:" + strings.TrimPrefix(query.Fold(d.AuthorScreenName), "@"), "board:" + query.Fold(d.Board),
			"provider:" + query.Fold(d.Provider)} {
			add(byTerm[key])
		}
		candidates[i] = len(todo)
		// The one-document index.
		one, err := bleve.NewMemOnly(im)
		if err != nil {
			errs[i] = err
			return
		}
		defer one.Close()
		if err := one.Index("post", bleveDoc(d)); err != nil {
			errs[i] = err
			return
		}
		for _, b := range todo {
			r, err := one.Search(bleve.NewSearchRequestOptions(b.q, 1, 0, false))
			if err != nil {
				errs[i] = err
				return
			}
			if r.Total > 0 {
				matches[i]++
			}
		}
	})
	res.PostsPerSec = float64(len(sample)) / time.Since(start).Seconds()
	total := 0
	for i := range sample {
		if errs[i] != nil {
			return nil, fmt.Errorf("bleve: %w", errs[i])
		}
		res.Matches += matches[i]
		total += candidates[i]
	}
	if len(sample) > 0 {
		res.CandidatesPerPost = float64(total) / float64(len(sample))
	}
	if res.PostsPerSec > 0 {
		res.Ratio = res.SightlinePostsPerSec / res.PostsPerSec
	}
	return res, nil
}
