package query

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The exact expressions: what each backend answers exactly, and how.
func TestExactExpressions(t *testing.T) {
	tests := []struct {
		query, fts5, tsquery string // "" where the backend cannot answer exactly
	}{
		{"attack", `"attack"`, `'attack'`},
		{"a b OR c", `(("a" AND "b") OR "c")`, `(('a' & 'b') | 'c')`},
		{"Café", `"cafe"`, `'cafe'`},
		{`"attack"`, `"attack"`, `'attack'`},
		{"netw*", `"netw"*`, `'netw':*`},
		{"netw* OR riot", `("netw"* OR "riot")`, `('netw':* | 'riot')`},
		{`"New York" city`, `("new york" AND "city")`, ""},
		{"e-mail", `"e mail"`, ""},
		{"東京", `"東 京"`, ""},
		{"москва OR київ", `("москва" OR "киів")`, `('москва' | 'киів')`}, // the diaeresis folded away
		{"attack -riot", `("attack" NOT "riot")`, `('attack' & !'riot')`},
		{"attack -(riot OR fire)", `("attack" NOT ("riot" OR "fire"))`, `('attack' & !('riot' | 'fire'))`},
		{"a b -c -d", `(("a" AND "b") NOT ("c" OR "d"))`, `(('a' & 'b') & !('c' | 'd'))`},
		{"(a -b) OR c", `(("a" NOT "b") OR "c")`, `(('a' & !'b') | 'c')`},
		{"netw* -spam*", `("netw"* NOT "spam"*)`, `('netw':* & !'spam':*)`},
		{`attack -"new york"`, `("attack" NOT "new york")`, ""},
		{"𞤀𞤣𞤤𞤢𞤥", `"𞤢𞤣𞤤𞤢𞤥"`, `'𞤢𞤣𞤤𞤢𞤥'`}, // Adlam (Unicode 9), folded
		// Neither: similarity, other wildcards, proximity, an exclusion of what is not exact.
		{"*work", "", ""},
		{"caf?", "", ""},
		{"ne*rk", "", ""},
		{"colour~", "", ""},
		{"colour~ red", "", ""},
		{`"night city"~3`, "", ""},
		{"attack -caf?", "", ""},
	}
	for _, tt := range tests {
		q, issues := Parse(tt.query, ModeBeacon)
		if q == nil {
			t.Fatalf("%q: %v", tt.query, issues)
		}
		fts, ok := q.FTS5Exact()
		if ok != (tt.fts5 != "") || fts != tt.fts5 {
			t.Errorf("FTS5Exact(%q) = %q, %v; want %q", tt.query, fts, ok, tt.fts5)
		}
		ts, ok := q.TSQueryExact()
		if ok != (tt.tsquery != "") || ts != tt.tsquery {
			t.Errorf("TSQueryExact(%q) = %q, %v; want %q", tt.query, ts, ok, tt.tsquery)
		}
	}
}

// TestFTS5ExactSelectsTheMatches runs generated queries through a real FTS5 table built as the
// contract says: wherever FTS5Exact has an expression, FTS5 returns exactly the posts the
// matcher accepts.
func TestFTS5ExactSelectsTheMatches(t *testing.T) {
	db := fts5Table(t, fmt.Sprintf("posts USING fts5(title, body, tokenize = %q)", FTS5Tokenizer))
	words := strings.Fields("alpha beta gamma Café cafe naïve Straße strasse e-mail network teamwork über 東京 x_y 2024 москва київ İstanbul ıspanak")
	r := rand.New(rand.NewPCG(21, 22))
	posts := fillFTS5(t, db, words, r)
	queryWords := append(words, "netw*", "caf*", "alp*", "мос*", `"alpha beta"`, `"beta alpha"`, `"東京 alpha"`, `"e-mail network"`,
		"-alpha", "-beta*", `-"alpha beta"`, "-(gamma OR cafe)")
	exact, matched := 0, 0
	for i := 0; i < 400; i++ {
		var parts []string
		for n := 1 + r.IntN(3); n > 0; n-- {
			w := queryWords[r.IntN(len(queryWords))]
			if r.IntN(3) == 0 && !strings.HasPrefix(w, "-") {
				w = "(" + w + " OR " + strings.TrimPrefix(queryWords[r.IntN(len(queryWords))], "-") + ")"
			}
			parts = append(parts, w)
		}
		q, _ := Parse(strings.Join(parts, " "), ModeBeacon)
		if q == nil || !slices.ContainsFunc(parts, func(p string) bool { return !strings.HasPrefix(p, "-") }) {
			continue
		}
		expr, ok := q.FTS5Exact()
		if !ok {
			t.Fatalf("%q: no exact expression", q.Source)
		}
		exact++
		var got, want []int
		got = fts5RowIDs(t, db, expr, q.Source)
		var text Text
		for id, p := range posts {
			text.Reset(p.title, p.body)
			if q.Match(&text) {
				want = append(want, id)
			}
		}
		matched += len(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%q: FTS5 %q finds %d posts, the matcher %d", q.Source, expr, len(got), len(want))
		}
	}
	if exact < 300 || matched < 1000 {
		t.Fatalf("only %d queries, %d matches checked", exact, matched)
	}
}

// TestFTS5ReadsTokensAsTheAnalyzer: FTS5 reads IndexText as the tokens the analyzer made, each
// as it is (no character a separator to FTS5, none folded again), for a word ending in any
// character up to U+3FFFF (the planes with characters assigned, private use aside; with -short
// the multilingual plane). This is
// what lets FTS5Exact be exact: a word with a letter FTS5's tables did not know would be two
// words to FTS5, and find what the matcher does not.
func TestFTS5ReadsTokensAsTheAnalyzer(t *testing.T) {
	db := fts5Table(t, fmt.Sprintf("t USING fts5(body, tokenize = %q)", FTS5Tokenizer))
	if _, err := db.Exec(`CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')`); err != nil {
		t.Fatal(err)
	}
	var want [][]string
	var tokens []string
	flush := func() {
		if _, err := db.Exec(`INSERT INTO t(rowid, body) VALUES (?, ?)`, len(want), strings.Join(tokens, " ")); err != nil {
			t.Fatal(err)
		}
		want, tokens = append(want, tokens), nil
	}
	last := rune(0x40000)
	if testing.Short() {
		last = 0x10000 // the multilingual plane
	}
	for r := rune(0); r < last; r++ {
		if r >= 0xD800 && r < 0xE000 || r >= 0xE000 && r < 0xF900 { // surrogates, private use
			continue
		}
		word := Tokens("x" + string(r))
		if len(word) == 1 && word[0] == "x" {
			continue // a separator, which IndexText leaves out
		}
		if tokens = append(tokens, word...); len(tokens) >= 4000 {
			flush()
		}
	}
	flush()
	got := make([][]string, len(want))
	rows, err := db.Query(`SELECT doc, term FROM v ORDER BY doc, "offset"`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var doc int
		var term string
		if err := rows.Scan(&doc, &term); err != nil {
			t.Fatal(err)
		}
		got[doc] = append(got[doc], term)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			for j := range min(len(got[i]), len(want[i])) {
				if got[i][j] != want[i][j] {
					t.Fatalf("FTS5 reads %q (%U) as %q", want[i][j], []rune(want[i][j]), got[i][j])
				}
			}
			t.Fatalf("FTS5 reads %d tokens, the analyzer %d", len(got[i]), len(want[i]))
		}
	}
}
