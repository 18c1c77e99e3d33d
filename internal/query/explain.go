package query

// Hit is a term of a query that a field of a post contains: why the post matched.
type Hit struct {
	// Term is the term as the query language writes it: flood, "bridge closed", flo*, flod~1.
	Term string `json:"term"`
	// Kind is word, phrase, proximity, wildcard or fuzzy.
	Kind  string `json:"kind"`
	Field string `json:"field"`
}

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
		return "proximity"
	case t.Quoted || len(t.Patterns) > 1 && t.Patterns[0].Kind != Fuzzy:
		return "phrase"
	case t.Patterns[0].Kind == Wildcard:
		return "wildcard"
	case t.Patterns[0].Kind == Fuzzy:
		return "fuzzy"
	}
	return "word"
}
