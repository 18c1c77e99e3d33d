package percolate

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/query"
)

// Every saved search is indexed under keys that any post it matches must hit (Lucene Monitor's
// presearcher, Elasticsearch's percolator query extraction): for a post, only the searches under
// the keys the post hits are candidates, and only candidates are verified.
//
// A posting key is one of
//   - a folded token, for an exact query token;
//   - "\x00p" + kind + edits + text, for a wildcard or similarity pattern (posts reach these
//     through the pattern lookup, see patterns.go, and their postings are kept on the pattern's
//     entry, not in the postings map);
//   - "\x00a" + folded author, "\x00b" + folded board, "\x00o" + folded object.
//
// Locations use grid cells (uint64 keys) instead.
const (
	authorPrefix = "\x00a"
	boardPrefix  = "\x00b"
	objectPrefix = "\x00o"
)

// searchKeys are the keys a search is indexed under.
type searchKeys struct {
	terms []string
	cells []uint64
	// patterns are the wildcard and similarity patterns among terms, to register for lookup.
	patterns []*query.Pattern
	// proven is the part of the keyword query that a hit on any of the terms proves true (a token,
	// or an OR of tokens, whose keys were chosen), or nil; verification takes it as matched. When
	// it is the whole query, a candidate needs no keyword verification at all: the required-term
	// shortcut of Elasticsearch's percolator, for the case where one term is enough.
	proven query.Node
}

// chooseKeys picks the most selective constraint the search has and the keys for it. Every
// compiled search has one: keywords, an author, a board or a location (Compile checks it).
func (ix *Index) chooseKeys(c *Compiled) searchKeys {
	switch {
	case len(c.authors) > 0:
		return searchKeys{terms: prefixed(authorPrefix, c.authors)}
	case c.keywords != nil:
		ks, _, _ := ix.queryKeys(c.keywords.Root)
		return ks
	case len(c.boards) > 0:
		return searchKeys{terms: prefixed(boardPrefix, c.boards)}
	case len(c.objects) > 0:
		shortest := c.objects[0]
		for _, list := range c.objects {
			if len(list) < len(shortest) {
				shortest = list
			}
		}
		return searchKeys{terms: prefixed(objectPrefix, shortest)}
	case c.bounds != nil:
		return searchKeys{cells: coverCells(c.boundsRect)}
	}
	// Unreachable for compiled searches; indexing under every cell keeps it correct anyway.
	return searchKeys{cells: coverCells(geom.Rect{MinLat: -90, MinLon: -180, MaxLat: 90, MaxLon: 180})}
}

func prefixed(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

// queryKeys returns keys of which a matching post must hit at least one, with their estimated
// cost (the expected share of posts hitting them); ok is false for a clause that needs none
// (an exclusion). An AND takes its cheapest clause, an OR needs all its branches. It also tells
// which node a hit proves: a one-token term, an OR of proven branches, or what the chosen clause
// of an AND proves.
func (ix *Index) queryKeys(n query.Node) (ks searchKeys, cost float64, ok bool) {
	switch n := n.(type) {
	case *query.Term:
		best, bestCost := (*query.Pattern)(nil), math.Inf(1)
		for _, p := range n.Patterns {
			if c := ix.patternCost(p); c < bestCost {
				best, bestCost = p, c
			}
		}
		key := patternKey(best)
		ks = searchKeys{terms: []string{key}}
		if key != best.Text {
			ks.patterns = []*query.Pattern{best}
		}
		if len(n.Patterns) == 1 {
			ks.proven = n
		}
		return ks, bestCost, true
	case *query.And:
		cost = math.Inf(1)
		for _, c := range n.Children {
			if cks, cc, cok := ix.queryKeys(c); cok && cc < cost {
				ks, cost, ok = cks, cc, true
			}
		}
		return ks, cost, ok
	case *query.Or:
		allProven := true
		for _, c := range n.Children {
			cks, cc, cok := ix.queryKeys(c)
			if !cok {
				return searchKeys{}, 0, false
			}
			ks.terms = append(ks.terms, cks.terms...)
			ks.patterns = append(ks.patterns, cks.patterns...)
			cost += cc
			allProven = allProven && cks.proven == c
		}
		if allProven {
			ks.proven = n
		}
		return ks, cost, true
	}
	return searchKeys{}, 0, false
}

// patternKey is the posting key of a query token: the token itself when exact (a similarity of
// 0 is exact too), else a key naming the pattern.
func patternKey(p *query.Pattern) string {
	if p.Kind == query.Exact || (p.Kind == query.Fuzzy && p.MaxEdits == 0) {
		return p.Text
	}
	return "\x00p" + strconv.Itoa(int(p.Kind)) + strconv.Itoa(p.MaxEdits) + p.Text
}

// patternCost estimates the share of posts containing a token matching p. Patterns cost more
// than exact tokens of the same length: they match several tokens.
func (ix *Index) patternCost(p *query.Pattern) float64 {
	switch {
	case p.Kind == query.Exact || (p.Kind == query.Fuzzy && p.MaxEdits == 0):
		return ix.tokenCost(p.Text)
	case p.Kind == query.Wildcard:
		lit, _, _ := p.Literal()
		return math.Min(1, 20*lengthPrior(utf8.RuneCountInString(lit)))
	default:
		return math.Min(1, 50*lengthPrior(utf8.RuneCountInString(p.Text)))
	}
}

// tokenCost is the share of posts holding the token: measured on the stream once enough posts
// were seen (see freqSketch), else guessed from its length (short words are the common ones).
func (ix *Index) tokenCost(tok string) float64 {
	prior := lengthPrior(utf8.RuneCountInString(tok))
	if est, ok := ix.freq.estimate(tok); ok {
		return est + prior/1000 // the prior only breaks ties
	}
	return prior
}

func lengthPrior(runes int) float64 {
	return math.Pow(0.6, float64(runes))
}

// Grid cells for locations: each search's box is covered by at most maxCells cells of the finest
// level that allows it; a post looks up the cell of each of its points at every level.
var cellSizes = [...]float64{0.25, 1, 4, 16, 64, 180}

const maxCells = 16

func cellIndex(v, origin, size float64, count int) int {
	i := int(math.Floor((v + origin) / size))
	return max(0, min(i, count-1))
}

func levelCounts(level int) (xs, ys int) {
	s := cellSizes[level]
	return int(math.Ceil(360 / s)), int(math.Ceil(180 / s))
}

func cellKey(level, x, y int) uint64 {
	return uint64(level)<<56 | uint64(y)<<28 | uint64(x)
}

func pointCell(level int, p geom.Point) uint64 {
	xs, ys := levelCounts(level)
	s := cellSizes[level]
	return cellKey(level, cellIndex(p.Lon, 180, s, xs), cellIndex(p.Lat, 90, s, ys))
}

// coverCells returns the cells of one level covering the box (split at the antimeridian when
// it crosses it). Cell indexes come from the same floor as pointCell's, so a point inside the box
// always falls in a covering cell.
func coverCells(r geom.Rect) []uint64 {
	for level := range cellSizes {
		xs, ys := levelCounts(level)
		s := cellSizes[level]
		y0, y1 := cellIndex(r.MinLat, 90, s, ys), cellIndex(r.MaxLat, 90, s, ys)
		type span struct{ from, to int }
		var xSpans []span
		if r.MinLon <= r.MaxLon {
			xSpans = []span{{cellIndex(r.MinLon, 180, s, xs), cellIndex(r.MaxLon, 180, s, xs)}}
		} else {
			xSpans = []span{{cellIndex(r.MinLon, 180, s, xs), xs - 1}, {0, cellIndex(r.MaxLon, 180, s, xs)}}
		}
		count := 0
		for _, sp := range xSpans {
			count += (sp.to - sp.from + 1) * (y1 - y0 + 1)
		}
		if count > maxCells && level < len(cellSizes)-1 {
			continue
		}
		cells := make([]uint64, 0, count)
		for _, sp := range xSpans {
			for x := sp.from; x <= sp.to; x++ {
				for y := y0; y <= y1; y++ {
					cells = append(cells, cellKey(level, x, y))
				}
			}
		}
		return cells
	}
	return nil
}
