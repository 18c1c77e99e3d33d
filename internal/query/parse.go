package query

import (
	"strconv"
	"strings"
)

// Query is a parsed, valid query.
type Query struct {
	Root Node
	// Source is the text it was parsed from.
	Source string
}

// String writes the query back, fully bracketed, in the query language.
func (q *Query) String() string { return q.Root.String() }

// Parse validates q and, when it has no error (warnings allowed), returns its syntax tree.
// Every failing rule is reported, in a fixed order (see Codes).
func Parse(q string, mode Mode) (*Query, []Issue) {
	if is := TooLong(q); is != nil {
		return nil, []Issue{*is}
	}
	lexemes := lex(q)
	sig := significant(lexemes)
	p := &parser{lx: sig}
	root := p.parseAll()
	issues := check(q, lexemes, sig, root, p.tooDeep, mode)
	if HasError(issues) {
		return nil, issues
	}
	return &Query{Root: root, Source: q}, issues
}

// Validate returns every rule q breaks; a query is usable when none of them is an error.
func Validate(q string, mode Mode) []Issue {
	_, issues := Parse(q, mode)
	return issues
}

// significant drops words with nothing searchable in them, and a '-' that would exclude one.
func significant(lexemes []lexeme) []lexeme {
	out := make([]lexeme, 0, len(lexemes))
	for i, lx := range lexemes {
		if lx.kind == lexWord && lx.noise {
			continue
		}
		if lx.kind == lexMinus && i+1 < len(lexemes) && lexemes[i+1].kind == lexWord && lexemes[i+1].noise {
			continue
		}
		out = append(out, lx)
	}
	return out
}

// parser builds the tree from significant lexemes. It recovers from every malformation (stray
// operators and brackets, unclosed groups) so that the validator can still judge the rest, such
// as whether any positive clause is left.
type parser struct {
	lx  []lexeme
	pos int
	// depth counts the groups and exclusions being parsed; past MaxDepth the parser gives up
	// (tooDeep), so that no input can exhaust the stack.
	depth   int
	tooDeep bool
}

// enter opens one level of nesting; beyond MaxDepth it marks the query too deep and skips
// everything left, and the caller returns nil.
func (p *parser) enter() bool {
	if p.depth == MaxDepth {
		p.tooDeep = true
		p.pos = len(p.lx)
		return false
	}
	p.depth++
	return true
}

func (p *parser) parseAll() Node {
	var parts []Node
	for p.pos < len(p.lx) {
		if n := p.parseOr(); n != nil {
			parts = append(parts, n)
		}
		if p.pos < len(p.lx) && p.lx[p.pos].kind == lexClose {
			p.pos++ // a closing bracket without an opening one
		}
	}
	return combine(parts, false)
}

// parseOr: branches separated by OR or commas (any number of them, so "a,,b" is "a OR b").
func (p *parser) parseOr() Node {
	var branches []Node
	for {
		if n := p.parseAnd(); n != nil {
			branches = append(branches, n)
		}
		if p.pos < len(p.lx) && (p.lx[p.pos].kind == lexOr || p.lx[p.pos].kind == lexComma) {
			p.pos++
			continue
		}
		return combine(branches, true)
	}
}

// parseAnd: clauses side by side or joined by AND.
func (p *parser) parseAnd() Node {
	var parts []Node
	for p.pos < len(p.lx) {
		switch p.lx[p.pos].kind {
		case lexOr, lexComma, lexClose:
			return combine(parts, false)
		case lexAnd:
			p.pos++
		default:
			if n := p.parseUnary(); n != nil {
				parts = append(parts, n)
			}
		}
	}
	return combine(parts, false)
}

func (p *parser) parseUnary() Node {
	if p.lx[p.pos].kind != lexMinus {
		return p.parsePrimary()
	}
	p.pos++
	if p.pos == len(p.lx) {
		return nil
	}
	switch p.lx[p.pos].kind {
	case lexWord, lexPhrase, lexOpen, lexMinus:
		if !p.enter() {
			return nil
		}
		defer func() { p.depth-- }()
		if n := p.parseUnary(); n != nil {
			return &Not{Child: n}
		}
	}
	return nil
}

func (p *parser) parsePrimary() Node {
	lx := p.lx[p.pos]
	p.pos++
	switch lx.kind {
	case lexWord:
		edits := -1
		if lx.tilde {
			edits = MaxEdits
			if lx.digits != "" {
				edits, _ = strconv.Atoi(lx.digits)
			}
		}
		return newTerm(lx.text, false, edits, -1)
	case lexPhrase:
		slop := -1
		if lx.tilde {
			slop, _ = strconv.Atoi(lx.digits)
		}
		return newTerm(lx.text, true, -1, slop)
	case lexOpen:
		if !p.enter() {
			return nil
		}
		defer func() { p.depth-- }()
		n := p.parseOr()
		if p.pos < len(p.lx) && p.lx[p.pos].kind == lexClose {
			p.pos++
		}
		return n
	}
	return nil
}

// newTerm analyzes a word or phrase into a term; nil when nothing searchable is left.
// edits >= 0 makes every token of a word fuzzy.
func newTerm(text string, quoted bool, edits, slop int) Node {
	var patterns []*Pattern
	for _, raw := range rawQueryTokens(text) {
		folded := string(appendFold(nil, []byte(raw)))
		switch {
		case strings.ContainsAny(folded, "*?"):
			patterns = append(patterns, newPattern(Wildcard, folded, 0))
		case edits >= 0:
			patterns = append(patterns, newPattern(Fuzzy, folded, min(edits, MaxEdits)))
		default:
			patterns = append(patterns, newPattern(Exact, folded, 0))
		}
	}
	if len(patterns) == 0 {
		return nil
	}
	return &Term{Patterns: patterns, Quoted: quoted, Slop: slop}
}

// rawQueryTokens splits a query word or phrase into its unfolded tokens, wildcards included.
func rawQueryTokens(text string) []string {
	var toks []string
	var scratch []byte
	rawTokens(text, true, &scratch, func(tok []byte) { toks = append(toks, string(tok)) })
	return toks
}

// combine makes one node of several: nil for none, the node itself for one, else an Or or And
// (children of the same kind merged in, since the operators are associative).
func combine(nodes []Node, or bool) Node {
	switch len(nodes) {
	case 0:
		return nil
	case 1:
		return nodes[0]
	}
	var flat []Node
	for _, n := range nodes {
		switch c := n.(type) {
		case *Or:
			if or {
				flat = append(flat, c.Children...)
				continue
			}
		case *And:
			if !or {
				flat = append(flat, c.Children...)
				continue
			}
		}
		flat = append(flat, n)
	}
	if or {
		return &Or{Children: flat}
	}
	return &And{Children: flat}
}

// KeywordList returns a query matching posts that contain any of the keywords (the entries of a
// filter list). Each keyword is taken literally as a phrase of its tokens, with '*' and '?' as
// wildcards; nothing else in it is an operator. Keywords with nothing searchable are skipped; the
// result is nil when none is left.
func KeywordList(keywords []string) *Query {
	var terms []Node
	for _, k := range keywords {
		if n := newTerm(k, true, -1, -1); n != nil {
			terms = append(terms, n)
		}
	}
	root := combine(terms, true)
	if root == nil {
		return nil
	}
	return &Query{Root: root, Source: strings.Join(keywords, ", ")}
}
