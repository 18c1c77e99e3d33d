package query

// Hit is a term of a query that a field of a post contains: why the post matched.
type Hit struct {
	// Term is the term as the query language writes it: flood, "bridge closed", flo*, flod~1.
	Term string `json:"term"`
	// Kind is one of HitKinds.
	Kind string `json:"kind"`
	// Field is one of HitFields.
	Field string `json:"field"`
}

// What a hit is: a term of the keywords (by its form), or an author of the author list.
const (
	HitWord      = "word"
	HitPhrase    = "phrase"
	HitProximity = "proximity"
	HitWildcard  = "wildcard"
	HitFuzzy     = "fuzzy"
	HitAuthor    = "author"
)

// HitKinds are every kind of hit; the web app's copy is generated from it (internal/contracts).
var HitKinds = []string{HitWord, HitPhrase, HitProximity, HitWildcard, HitFuzzy, HitAuthor}

// The parts of a post a hit is found in.
const (
	FieldTitle  = "title"
	FieldText   = "text"
	FieldAuthor = "author"
)

// HitFields are every part of a post a hit is found in.
var HitFields = []string{FieldTitle, FieldText, FieldAuthor}

// Field is a named part of a post (title, text) as the matcher reads it.
type Field struct {
	Name string
	Text string
}

// Explain returns the terms of q that made it match the fields analysed together, as the
// matcher reads them, each with the fields that contain it; nil when q does not match. Only
// terms that count are given: those of an OR's matching branches and of a matching AND, never
// an excluded one.
func (q *Query) Explain(fields ...Field) []Hit {
	texts := make([]string, len(fields))
	for i, f := range fields {
		texts[i] = f.Text
	}
	var all Text
	all.Reset(texts...)
	var terms []*Term
	collectHits(q.Root, &all, &terms)
	if len(terms) == 0 {
		return nil
	}
	var hits []Hit
	seen := map[[2]string]bool{}
	var one Text
	for _, f := range fields {
		one.Reset(f.Text)
		for _, term := range terms {
			h := Hit{Term: term.String(), Kind: kindOf(term), Field: f.Name}
			if !seen[[2]string{h.Term, h.Field}] && one.hasTerm(term) {
				seen[[2]string{h.Term, h.Field}] = true
				hits = append(hits, h)
			}
		}
	}
	return hits
}

// collectHits adds the terms of n that make it match t, if it does.
func collectHits(n Node, t *Text, terms *[]*Term) {
	if !Eval(n, t) {
		return
	}
	switch n := n.(type) {
	case *Term:
		*terms = append(*terms, n)
	case *And:
		for _, c := range n.Children {
			collectHits(c, t, terms)
		}
	case *Or:
		for _, c := range n.Children {
			collectHits(c, t, terms)
		}
	}
	// A matching *Not holds only what the post lacks.
}

func kindOf(t *Term) string {
	switch {
	case t.Slop >= 0:
		return HitProximity
	case t.Quoted || len(t.Patterns) > 1 && t.Patterns[0].Kind != Fuzzy:
		return HitPhrase
	case t.Patterns[0].Kind == Wildcard:
		return HitWildcard
	case t.Patterns[0].Kind == Fuzzy:
		return HitFuzzy
	}
	return HitWord
}
