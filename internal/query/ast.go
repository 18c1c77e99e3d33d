package query

import (
	"strconv"
	"strings"
)

// Node is a node of a parsed query: *And, *Or, *Not or *Term.
type Node interface {
	// String writes the node back in the query language, fully bracketed.
	String() string
	node()
}

// And matches when every child matches.
type And struct{ Children []Node }

// Or matches when any child matches.
type Or struct{ Children []Node }

// Not matches when its child does not (an exclusion).
type Not struct{ Child Node }

// Term is a word or a quoted phrase. One pattern is a single token; several must appear
// consecutively and in order (a phrase, or a word the analyzer split, like "e-mail"), unless
// Slop >= 0: then they must all appear, in any order, within len(Patterns)+Slop positions.
type Term struct {
	Patterns []*Pattern
	Quoted   bool
	Slop     int // -1 without proximity
}

func (*And) node()  {}
func (*Or) node()   {}
func (*Not) node()  {}
func (*Term) node() {}

func (n *And) String() string { return joinNodes(n.Children, " AND ") }
func (n *Or) String() string  { return joinNodes(n.Children, " OR ") }
func (n *Not) String() string { return "-" + n.Child.String() }

func (n *Term) String() string {
	if p := n.Patterns[0]; p.Kind == Fuzzy {
		// A similarity word the analyzer split ("e-mail~1"): its tokens joined by a separator,
		// since inside quotes '~' would be punctuation.
		parts := make([]string, len(n.Patterns))
		for i, p := range n.Patterns {
			parts[i] = p.Text
		}
		return strings.Join(parts, "-") + "~" + strconv.Itoa(p.MaxEdits)
	}
	parts := make([]string, len(n.Patterns))
	for i, p := range n.Patterns {
		parts[i] = p.String()
	}
	if len(parts) == 1 && !n.Quoted && !isLowercaseOperator(parts[0]) {
		return parts[0]
	}
	s := `"` + strings.Join(parts, " ") + `"`
	if n.Slop >= 0 {
		s += "~" + strconv.Itoa(n.Slop)
	}
	return s
}

func joinNodes(children []Node, sep string) string {
	parts := make([]string, len(children))
	for i, c := range children {
		parts[i] = c.String()
	}
	return "(" + strings.Join(parts, sep) + ")"
}

// Walk calls fn for n and, while fn returns true, for its descendants, depth first.
func Walk(n Node, fn func(Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	switch n := n.(type) {
	case *And:
		for _, c := range n.Children {
			Walk(c, fn)
		}
	case *Or:
		for _, c := range n.Children {
			Walk(c, fn)
		}
	case *Not:
		Walk(n.Child, fn)
	}
}

// hasPositiveClause reports whether n can only match a post that contains something: a term
// outside any exclusion, on every OR branch. A query without one would match nearly every post.
func hasPositiveClause(n Node) bool {
	switch n := n.(type) {
	case *Term:
		return true
	case *Not:
		return false
	case *And:
		for _, c := range n.Children {
			if hasPositiveClause(c) {
				return true
			}
		}
		return false
	case *Or:
		for _, c := range n.Children {
			if !hasPositiveClause(c) {
				return false
			}
		}
		return len(n.Children) > 0
	}
	return false
}
