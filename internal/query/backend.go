package query

import "strings"

// Full-text backends for the stored-post search. The database finds candidates, the matcher
// decides. The contract of FTS5 and TSQuery below: the expression selects a SUPERSET of the posts
// the query matches, never fewer. What a backend cannot express exactly is widened, never
// narrowed:
//   - exclusions are left out (narrowing by NOT of a widened clause could drop real matches);
//   - similarity (word~) and wildcards without a literal start select everything;
//   - a wildcard with a literal start becomes a prefix query on that start;
//   - proximity becomes AND of its tokens; in tsquery phrases do too (tsvector positions stop at
//     16383, so a long post's phrase could be missed).
// When nothing narrows the search (ok is false), the caller scans every post its other filters
// leave and runs the matcher on each.
//
// Both backends must index the text exactly as IndexText / TSVector produce it: tokens already
// analyzed and folded here, so the database's own tokenizer only ever sees them.

// FTS5Tokenizer is the tokenize option of the FTS5 table: every character of an analyzed token is
// a token character, so FTS5 neither splits nor drops any of them.
const FTS5Tokenizer = `unicode61 remove_diacritics 0 categories 'L* N* M* Co' tokenchars '_'`

// IndexText returns a field's folded tokens separated by single spaces, for one FTS5 column per
// field (title, text: a phrase never spans two columns, as it never spans two fields here).
func IndexText(field string) string {
	return strings.Join(Tokens(field), " ")
}

// TSVector returns a PostgreSQL tsvector literal of the distinct folded tokens of the fields, to
// be cast with ::tsvector (no positions, as TSQuery uses none).
func TSVector(fields ...string) string {
	var t Text
	t.Reset(fields...)
	parts := make([]string, t.Len())
	for i := range parts {
		parts[i] = quoteTS(t.Token(i))
	}
	return strings.Join(parts, " ")
}

// FTS5 returns an FTS5 MATCH expression over IndexText columns that selects a superset of the
// posts the query matches; ok is false when no expression narrows the search.
func (q *Query) FTS5() (expr string, ok bool) {
	a := widen(q.Root, true)
	if a == nil {
		return "", false
	}
	return a.render(fts5Syntax), true
}

// TSQuery returns a PostgreSQL tsquery literal (cast with ::tsquery, matched against TSVector)
// that selects a superset of the posts the query matches; ok is false when nothing narrows.
func (q *Query) TSQuery() (expr string, ok bool) {
	a := widen(q.Root, false)
	if a == nil {
		return "", false
	}
	return a.render(tsSyntax), true
}

// FTS5Exact returns an FTS5 MATCH expression over IndexText columns that selects exactly the
// posts the query matches; ok is false when FTS5 cannot answer the query exactly (see exactly),
// and then FTS5 gives the superset to verify.
func (q *Query) FTS5Exact() (expr string, ok bool) {
	a, ok := exactly(q.Root, true)
	if !ok {
		return "", false
	}
	return a.render(fts5Syntax), true
}

// TSQueryExact returns a PostgreSQL tsquery literal (matched against TSVector) that selects
// exactly the posts the query matches; ok is false when the tsvector cannot answer the query
// exactly (see exactly): then TSQuery gives the superset to verify.
func (q *Query) TSQueryExact() (expr string, ok bool) {
	a, ok := exactly(q.Root, false)
	if !ok {
		return "", false
	}
	return a.render(tsSyntax), true
}

// exactly turns a node into an approx that selects exactly the posts the node matches, in FTS5
// (fts5) or in the tsvector: single words, words with one trailing '*' (a prefix of a token in
// both), AND, OR, exclusions beside a positive clause and, in FTS5, which keeps positions,
// phrases of whole words. It cannot (ok false) for similarity, any other wildcard, proximity,
// phrases in the tsvector (it keeps no positions), and an exclusion alone or inside an OR.
//
// In the tsvector the tokens are the analyzer's as they are. FTS5 reads IndexText again with
// its own tokenizer (FTS5Tokenizer); TestFTS5ReadsTokensAsTheAnalyzer checks, for every
// character up to U+3FFFF, that it finds exactly the analyzer's tokens.
func exactly(n Node, fts5 bool) (*approx, bool) {
	switch n := n.(type) {
	case *Term:
		if len(n.Patterns) == 1 {
			return exactPattern(n.Patterns[0])
		}
		if !fts5 || n.Slop >= 0 {
			return nil, false
		}
		phrase := &approx{op: 'f'}
		for _, p := range n.Patterns {
			if p.Kind != Exact {
				return nil, false
			}
			phrase.tokens = append(phrase.tokens, p.Text)
		}
		return phrase, true
	case *And:
		var with, without []*approx
		for _, c := range n.Children {
			if not, ok := c.(*Not); ok {
				a, ok := exactly(not.Child, fts5)
				if !ok {
					return nil, false
				}
				without = append(without, a)
				continue
			}
			a, ok := exactly(c, fts5)
			if !ok {
				return nil, false
			}
			with = append(with, a)
		}
		if len(with) == 0 {
			return nil, false
		}
		a := joinApprox('&', with)
		if len(without) > 0 {
			a = &approx{op: '-', children: []*approx{a, joinApprox('|', without)}}
		}
		return a, true
	case *Or:
		parts := make([]*approx, 0, len(n.Children))
		for _, c := range n.Children {
			a, ok := exactly(c, fts5)
			if !ok {
				return nil, false
			}
			parts = append(parts, a)
		}
		return joinApprox('|', parts), len(parts) > 0
	}
	return nil, false // a Not outside an AND: nothing positive beside it
}

// exactPattern is the approx of a one-token term, when the backends answer it exactly: the
// token itself, or a '*' after a literal start, which matches the tokens that start with it
// (the start included) as the backends' prefix queries do.
func exactPattern(p *Pattern) (*approx, bool) {
	switch {
	case p.Kind == Exact:
		return &approx{op: 't', text: p.Text}, true
	case p.Kind == Wildcard && p.Prefix() != "" && p.Text == p.Prefix()+string(wildcardMany):
		return &approx{op: 'p', text: p.Prefix()}, true
	}
	return nil, false
}

// FTS5AllOf returns an FTS5 MATCH expression over IndexText columns selecting the rows that hold
// every one of tokens (at least one, folded as Tokens returns them).
func FTS5AllOf(tokens []string) string { return allOf(tokens).render(fts5Syntax) }

// TSQueryAllOf returns a PostgreSQL tsquery literal (cast with ::tsquery, matched against
// TSVector) selecting the rows that hold every one of tokens (at least one).
func TSQueryAllOf(tokens []string) string { return allOf(tokens).render(tsSyntax) }

func allOf(tokens []string) *approx {
	parts := make([]*approx, len(tokens))
	for i, t := range tokens {
		parts[i] = &approx{op: 't', text: t}
	}
	return joinApprox('&', parts)
}

// approx is a backend-neutral widened query: a token, a prefix, a phrase, or AND/OR of approx.
// nil stands for "every post".
type approx struct {
	op       byte // 't' token, 'p' prefix, 'f' phrase, '&' and, '|' or, '-' the first child but not the second
	text     string
	tokens   []string
	children []*approx
}

// widen turns a node into the narrowest approx that still selects every post the node matches.
// Phrases stay phrases only when keepPhrases is set.
func widen(n Node, keepPhrases bool) *approx {
	switch n := n.(type) {
	case *Term:
		var parts []*approx
		exact := n.Slop < 0 && keepPhrases
		for _, p := range n.Patterns {
			switch {
			case p.Kind == Exact:
				parts = append(parts, &approx{op: 't', text: p.Text})
			case p.Kind == Wildcard && p.Prefix() != "":
				parts = append(parts, &approx{op: 'p', text: p.Prefix()})
				exact = false
			default:
				exact = false
			}
		}
		if exact && len(parts) > 1 {
			phrase := &approx{op: 'f'}
			for _, part := range parts {
				phrase.tokens = append(phrase.tokens, part.text)
			}
			return phrase
		}
		return joinApprox('&', parts)
	case *And:
		var parts []*approx
		for _, c := range n.Children {
			if a := widen(c, keepPhrases); a != nil {
				parts = append(parts, a)
			}
		}
		return joinApprox('&', parts)
	case *Or:
		parts := make([]*approx, 0, len(n.Children))
		for _, c := range n.Children {
			a := widen(c, keepPhrases)
			if a == nil {
				return nil // one branch may match any post, so the OR may too
			}
			parts = append(parts, a)
		}
		return joinApprox('|', parts)
	}
	return nil // Not: see the contract above
}

func joinApprox(op byte, parts []*approx) *approx {
	switch len(parts) {
	case 0:
		return nil
	case 1:
		return parts[0]
	}
	return &approx{op: op, children: parts}
}

type syntax struct {
	token, prefix func(string) string
	phrase        func([]string) string
	and, or, not  string
}

var fts5Syntax = syntax{
	token:  quoteFTS5,
	prefix: func(s string) string { return quoteFTS5(s) + "*" },
	phrase: func(toks []string) string { return quoteFTS5(strings.Join(toks, " ")) },
	and:    " AND ",
	or:     " OR ",
	not:    " NOT ",
}

var tsSyntax = syntax{
	token:  quoteTS,
	prefix: func(s string) string { return quoteTS(s) + ":*" },
	and:    " & ",
	or:     " | ",
	not:    " & !",
}

func (a *approx) render(s syntax) string {
	switch a.op {
	case 't':
		return s.token(a.text)
	case 'p':
		return s.prefix(a.text)
	case 'f':
		return s.phrase(a.tokens)
	}
	sep := s.and
	switch a.op {
	case '|':
		sep = s.or
	case '-':
		sep = s.not
	}
	parts := make([]string, len(a.children))
	for i, c := range a.children {
		parts[i] = c.render(s)
	}
	return "(" + strings.Join(parts, sep) + ")"
}

// quoteFTS5 makes an FTS5 string, in which only a doubled quote is special (a backslash is an
// ordinary character); a folded token holds no quote, but escaping costs nothing.
func quoteFTS5(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// quoteTS makes a tsvector/tsquery lexeme literal: inside quotes PostgreSQL reads a backslash as
// an escape, so it is doubled like the quote.
func quoteTS(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
