package bench

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/query"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// The oracle decides whether a saved search matches a post the slow, obvious way, written from
// ../shared/QUERY_LANGUAGE.md and the SavedSearch contract (internal/percolate/search.go), so
// that `bench percolate` checks the percolator against something that cannot share its bugs.
//
// What it shares, and why:
//   - query.Parse, for the syntax tree of a keyword query (and/or/not, terms, their patterns and
//     options). The syntax and its validation rules are the parser's contract, tested on their
//     own (vectors shared with the browser); what the percolator could get wrong is matching.
//     The parser also folds each pattern's text; the oracle folds it again with its own folding,
//     which changes nothing when the parser folded it right.
//   - geom.Shape.Contains, for "the point inside the polygon": geometry, with its own tests; the
//     index's part (grid cells, bounding boxes) is not used.
//
// Everything else is its own: splitting text into tokens, folding case and accents (x/text's
// NFKD and full case folding, rune by rune, where the query package uses its own tables),
// positions, phrases, proximity, wildcards, similarity, and every field of a saved search. It
// evaluates every search on every post with no index and no shortcut but the order of the checks.

// oracleSearch is a saved search as the oracle keeps it.
type oracleSearch struct {
	s percolate.SavedSearch
	// The fields compared whole, folded once.
	providers, boards, authors, notAuthors []string
	objects                                [][]string
	keywords                               *oracleNode // nil without a keyword query
	include                                [][]oracleTerm
	exclude                                [][]oracleTerm
}

// oracleNode is the oracle's own copy of a keyword query's tree, its patterns folded again.
type oracleNode struct {
	op       byte // '&', '|', '-' or 't' for a term
	children []*oracleNode
	// A term: its tokens (kind 'e'xact, 'w'ildcard or 'f'uzzy), in order; slop < 0 for a phrase.
	kinds    []byte
	patterns []string
	edits    []int
	slop     int
}

func newOracleNode(n query.Node) *oracleNode {
	switch n := n.(type) {
	case *query.And:
		o := &oracleNode{op: '&'}
		for _, c := range n.Children {
			o.children = append(o.children, newOracleNode(c))
		}
		return o
	case *query.Or:
		o := &oracleNode{op: '|'}
		for _, c := range n.Children {
			o.children = append(o.children, newOracleNode(c))
		}
		return o
	case *query.Not:
		return &oracleNode{op: '-', children: []*oracleNode{newOracleNode(n.Child)}}
	case *query.Term:
		o := &oracleNode{op: 't', slop: n.Slop}
		for _, p := range n.Patterns {
			kind := byte('e')
			switch p.Kind {
			case query.Wildcard:
				kind = 'w'
			case query.Fuzzy:
				kind = 'f'
			}
			o.kinds = append(o.kinds, kind)
			o.patterns = append(o.patterns, oracleFold(p.Text))
			o.edits = append(o.edits, p.MaxEdits)
		}
		return o
	}
	panic("oracle: unknown query node")
}

// oracleTerm is one keyword of a filter list: a phrase of patterns written as the user typed
// them, '*' and '?' being wildcards.
type oracleTerm []string

// oracleFold folds a token or a name as the spec says: NFKD, combining marks removed, Unicode
// (full) case folding, so "Café" is "cafe" and "Straße" is "strasse".
func oracleFold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(r)
	}
	return cases.Fold().String(b.String())
}

// oracleTokenRune: a token is a maximal run of letters, digits, marks and '_'.
func oracleTokenRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// oracleTokens splits text into folded tokens; extra runes (the wildcards of a filter keyword)
// also count as token runes.
func oracleTokens(text string, extra string) []string {
	fields := strings.FieldsFunc(text, func(r rune) bool {
		return !oracleTokenRune(r) && !strings.ContainsRune(extra, r)
	})
	for i, f := range fields {
		fields[i] = oracleFold(f)
	}
	return fields
}

// oracleName folds a name compared whole (author, provider, board, object): folded, outer
// space trimmed, inner runs of space made one; for authors a leading '@' is dropped.
func oracleName(s string, handle bool) string {
	s = strings.Join(strings.Fields(oracleFold(s)), " ")
	if handle {
		s = strings.TrimSpace(strings.TrimPrefix(s, "@"))
	}
	return s
}

func newOracleSearch(s percolate.SavedSearch) (*oracleSearch, error) {
	o := &oracleSearch{s: s}
	if strings.TrimSpace(s.Keywords) != "" {
		mode := s.Mode
		if mode == "" {
			mode = query.ModeSavedSearch
		}
		q, issues := query.Parse(s.Keywords, mode)
		if q == nil {
			return nil, &percolate.CompileError{ID: s.ID, Problems: []percolate.Problem{{Field: "keywords", Message: issues[0].Message}}}
		}
		o.keywords = newOracleNode(q.Root)
	}
	names := func(list []string, handle bool) []string {
		var out []string
		for _, n := range list {
			if n = oracleName(n, handle); n != "" {
				out = append(out, n)
			}
		}
		return out
	}
	o.providers, o.boards, o.authors = names(s.Providers, false), names(s.Boards, false), names(strings.Split(s.Author, ","), true)
	for _, f := range s.Filters {
		switch f.Kind {
		case percolate.AuthorExclusion:
			o.notAuthors = append(o.notAuthors, names(f.Entries, true)...)
		case percolate.ObjectDetection:
			o.objects = append(o.objects, names(f.Entries, false))
		}
	}
	for _, f := range s.Filters {
		var terms []oracleTerm
		for _, e := range f.Entries {
			if t := oracleTokens(e, "*?"); len(t) > 0 {
				terms = append(terms, t)
			}
		}
		switch f.Kind {
		case percolate.KeywordInclusion:
			o.include = append(o.include, terms)
		case percolate.KeywordExclusion:
			o.exclude = append(o.exclude, terms)
		}
	}
	return o, nil
}

// oraclePost is a post analyzed by the oracle: its tokens in order (title, then text).
type oraclePost struct {
	d *percolate.Doc
	// at lists each distinct token's positions; distinct are those tokens, as runes too.
	at       map[string][]int
	distinct []string
	runes    [][]rune
	// found caches, per pattern, the positions of the tokens it matches.
	found map[string][]int
	// table is scratch space for globRunes and osaDistance.
	table []int
	// The fields compared whole, folded.
	provider, board, author, screenName string
	objects                             []string
}

func newOraclePost(d *percolate.Doc) *oraclePost {
	p := &oraclePost{d: d, at: map[string][]int{}, found: map[string][]int{},
		provider: oracleName(d.Provider, false), board: oracleName(d.Board, false),
		author: oracleName(d.AuthorName, true), screenName: oracleName(d.AuthorScreenName, true)}
	for i, t := range oracleTokens(d.Title+" "+d.Text, "") {
		if _, ok := p.at[t]; !ok {
			p.distinct = append(p.distinct, t)
			p.runes = append(p.runes, []rune(t))
		}
		p.at[t] = append(p.at[t], i)
	}
	for _, o := range d.Objects {
		p.objects = append(p.objects, oracleName(o, false))
	}
	return p
}

// positions are where the pattern's tokens are: kind is 'e'xact, 'w'ildcard or 'f'uzzy.
func (p *oraclePost) positions(kind byte, pattern string, edits int) []int {
	if kind == 'e' {
		return p.at[pattern]
	}
	key := string([]byte{kind, byte('0' + edits)}) + pattern
	if at, ok := p.found[key]; ok {
		return at
	}
	var at []int
	pr := []rune(pattern)
	for i, tok := range p.distinct {
		var ok bool
		switch kind {
		case 'e':
			ok = tok == pattern
		case 'w':
			ok = globRunes(pr, p.runes[i], &p.table)
		default:
			// Each edit changes the length by one at most: farther lengths need no table.
			ok = abs(len(pr)-len(p.runes[i])) <= edits && osaDistance(pr, p.runes[i], &p.table) <= edits
		}
		if ok {
			at = append(at, p.at[tok]...)
		}
	}
	slices.Sort(at)
	p.found[key] = at
	return at
}

// matches reports whether search o matches the post at time now.
func (o *oracleSearch) matches(p *oraclePost, now time.Time) bool {
	s, d := o.s, p.d
	if !s.Enabled || s.Paused {
		return false
	}
	// Before its start and after its end a search is not running, and the post's time must be
	// inside the range.
	if s.Start != nil && (now.Before(*s.Start) || d.Published.Before(*s.Start)) {
		return false
	}
	if s.End != nil && (now.After(*s.End) || d.Published.After(*s.End)) {
		return false
	}
	if !slices.Contains(o.providers, p.provider) {
		return false
	}
	if (s.ImagesOnly && !d.HasImages) || (s.VideosOnly && !d.HasVideos) {
		return false
	}
	if len(o.boards) > 0 && !slices.Contains(o.boards, p.board) {
		return false
	}
	isAuthor := func(names []string) bool {
		return (p.author != "" && slices.Contains(names, p.author)) || (p.screenName != "" && slices.Contains(names, p.screenName))
	}
	if len(o.authors) > 0 && !isAuthor(o.authors) {
		return false
	}
	if isAuthor(o.notAuthors) {
		return false
	}
	for _, list := range o.objects {
		if !slices.ContainsFunc(p.objects, func(obj string) bool { return slices.Contains(list, obj) }) {
			return false
		}
	}
	if s.Bounds != nil {
		inside := d.Location != nil && s.Bounds.Contains(*d.Location)
		if !inside && !slices.ContainsFunc(d.Mentioned, s.Bounds.Contains) {
			return false
		}
	}
	if o.keywords != nil && !p.eval(o.keywords) {
		return false
	}
	for _, list := range o.include {
		if !slices.ContainsFunc(list, p.hasKeyword) {
			return false
		}
	}
	for _, list := range o.exclude {
		if slices.ContainsFunc(list, p.hasKeyword) {
			return false
		}
	}
	return true
}

// hasKeyword: a filter keyword is a phrase of its tokens, with wildcards.
func (p *oraclePost) hasKeyword(t oracleTerm) bool {
	lists := make([][]int, len(t))
	for i, tok := range t {
		kind := byte('e')
		if strings.ContainsAny(tok, "*?") {
			kind = 'w'
		}
		lists[i] = p.positions(kind, tok, 0)
	}
	return consecutive(lists)
}

// eval evaluates a keyword query's tree on the post.
func (p *oraclePost) eval(n *oracleNode) bool {
	switch n.op {
	case '&':
		for _, c := range n.children {
			if !p.eval(c) {
				return false
			}
		}
		return true
	case '|':
		for _, c := range n.children {
			if p.eval(c) {
				return true
			}
		}
		return false
	case '-':
		return !p.eval(n.children[0])
	}
	if len(n.patterns) == 1 {
		return len(p.positions(n.kinds[0], n.patterns[0], n.edits[0])) > 0
	}
	lists := make([][]int, len(n.patterns))
	for i, pattern := range n.patterns {
		if lists[i] = p.positions(n.kinds[i], pattern, n.edits[i]); len(lists[i]) == 0 {
			return false
		}
	}
	if n.slop >= 0 {
		return withinWindow(lists, len(lists)+n.slop)
	}
	return consecutive(lists)
}

// consecutive: some position of the first list is followed by one of each next list in turn.
func consecutive(lists [][]int) bool {
	if len(lists) == 0 {
		return false
	}
	for _, start := range lists[0] {
		ok := true
		for i := 1; i < len(lists) && ok; i++ {
			ok = slices.Contains(lists[i], start+i)
		}
		if ok {
			return true
		}
	}
	return false
}

// withinWindow: some window of size positions holds a position of every list, in any order.
func withinWindow(lists [][]int, size int) bool {
	for _, l := range lists {
		for _, start := range l {
			ok := true
			for _, other := range lists {
				ok = ok && slices.ContainsFunc(other, func(at int) bool { return at >= start && at < start+size })
			}
			if ok {
				return true
			}
		}
	}
	return false
}

// globRunes matches '*' (any run of characters, empty too) and '?' (one character): the table
// of which pattern prefixes match which text prefixes, a row per pattern character.
func globRunes(pattern, text []rune, scratch *[]int) bool {
	n := len(text) + 1
	*scratch = slices.Grow((*scratch)[:0], 2*n)[:2*n]
	row, next := (*scratch)[:n], (*scratch)[n:] // row[j] is 1 when the pattern so far matches text[:j]
	clear(row)
	row[0] = 1
	for _, c := range pattern {
		for j := 0; j < n; j++ {
			next[j] = 0
			switch {
			case c == '*':
				if row[j] == 1 || (j > 0 && next[j-1] == 1) {
					next[j] = 1
				}
			case j > 0:
				if row[j-1] == 1 && (c == '?' || c == text[j-1]) {
					next[j] = 1
				}
			}
		}
		row, next = next, row
	}
	return row[len(text)] == 1
}

// osaDistance is the Damerau-Levenshtein distance in its optimal-string-alignment form (edits:
// insert, delete, substitute, swap two neighbours), the full table.
func osaDistance(a, b []rune, scratch *[]int) int {
	w := len(b) + 1
	size := (len(a) + 1) * w
	*scratch = slices.Grow((*scratch)[:0], size)[:size]
	d := *scratch // d[i*w+j]: the distance between a[:i] and b[:j]
	for i := 0; i <= len(a); i++ {
		d[i*w] = i
	}
	for j := 0; j <= len(b); j++ {
		d[j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(d[(i-1)*w+j]+1, d[i*w+j-1]+1, d[(i-1)*w+j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, d[(i-2)*w+j-2]+1)
			}
			d[i*w+j] = v
		}
	}
	return d[len(a)*w+len(b)]
}

// oracleMatch returns the ids of the searches the post matches, sorted.
func oracleMatch(searches []*oracleSearch, d *percolate.Doc, now time.Time) []int64 {
	p := newOraclePost(d)
	var ids []int64
	for _, o := range searches {
		if o.matches(p, now) {
			ids = append(ids, o.s.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

func abs(n int) int { return max(n, -n) }
