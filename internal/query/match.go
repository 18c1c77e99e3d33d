package query

import (
	"slices"
	"sort"
)

// Match reports whether the analyzed text matches the query.
func (q *Query) Match(t *Text) bool { return Eval(q.Root, t) }

// Eval reports whether the analyzed text matches the node. Its cost is bounded by the size of the
// node times the size of the text: each term is resolved from the text's token map (wildcard and
// similarity patterns scan the text's distinct tokens once and are cached in it).
func Eval(n Node, t *Text) bool { return EvalKnowing(n, t, nil) }

// EvalKnowing is Eval when the caller already knows that the node known (part of n, or nil)
// matches the text, as an index that found the post through that node's tokens does.
func EvalKnowing(n Node, t *Text, known Node) bool {
	if n == known {
		return true
	}
	switch n := n.(type) {
	case *Term:
		return t.hasTerm(n)
	case *And:
		for _, c := range n.Children {
			if !EvalKnowing(c, t, known) {
				return false
			}
		}
		return true
	case *Or:
		for _, c := range n.Children {
			if EvalKnowing(c, t, known) {
				return true
			}
		}
		return false
	case *Not:
		return !EvalKnowing(n.Child, t, known)
	}
	return false
}

func (t *Text) hasTerm(term *Term) bool {
	if len(term.Patterns) == 1 {
		return len(t.positionsOf(term.Patterns[0])) > 0
	}
	lists := make([][]int32, len(term.Patterns))
	for i, p := range term.Patterns {
		lists[i] = t.positionsOf(p)
		if len(lists[i]) == 0 {
			return false
		}
	}
	if term.Slop < 0 {
		return phraseMatch(lists)
	}
	return proximityMatch(lists, len(lists)+term.Slop)
}

// phraseMatch reports whether some start s has lists[i] containing s+i for every i. It walks
// the shortest list and looks the others up by binary search.
func phraseMatch(lists [][]int32) bool {
	anchor := 0
	for i := range lists {
		if len(lists[i]) < len(lists[anchor]) {
			anchor = i
		}
	}
	for _, p := range lists[anchor] {
		start := p - int32(anchor)
		found := true
		for i, l := range lists {
			if i == anchor {
				continue
			}
			if _, ok := slices.BinarySearch(l, start+int32(i)); !ok {
				found = false
				break
			}
		}
		if found {
			return true
		}
	}
	return false
}

// proximityMatch reports whether every list can be given its own position, all of them inside
// one window of the given width, in any order. Tokens of a phrase may match the same position
// (the same word twice, overlapping wildcards), so each window is checked by bipartite matching
// of the phrase's tokens to the window's positions. There are at most 64 lists.
func proximityMatch(lists [][]int32, width int) bool {
	type slot struct {
		pos  int32
		mask uint64 // which lists hold pos
	}
	var slots []slot
	for i, l := range lists {
		for _, p := range l {
			slots = append(slots, slot{pos: p, mask: 1 << i})
		}
	}
	sort.Slice(slots, func(a, b int) bool { return slots[a].pos < slots[b].pos })
	merged := slots[:0]
	for _, s := range slots {
		if n := len(merged); n > 0 && merged[n-1].pos == s.pos {
			merged[n-1].mask |= s.mask
			continue
		}
		merged = append(merged, s)
	}
	full := uint64(1)<<len(lists) - 1
	if len(lists) == 64 {
		full = ^uint64(0)
	}
	owner := make([]int, len(merged)) // slot -> list holding it, -1 if free
	for start := range merged {
		end, union := start, uint64(0)
		for end < len(merged) && int(merged[end].pos-merged[start].pos) < width {
			union |= merged[end].mask
			end++
		}
		if union != full {
			continue
		}
		window := owner[start:end]
		for i := range window {
			window[i] = -1
		}
		matched := 0
		for list := range lists {
			seen := make([]bool, len(window))
			var augment func(list int) bool
			augment = func(list int) bool {
				for s := range window {
					if merged[start+s].mask&(1<<list) == 0 || seen[s] {
						continue
					}
					seen[s] = true
					if window[s] < 0 || augment(window[s]) {
						window[s] = list
						return true
					}
				}
				return false
			}
			if !augment(list) {
				break
			}
			matched++
		}
		if matched == len(lists) {
			return true
		}
	}
	return false
}
