package query

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// widenedMatch evaluates a widened query on a text the way the backends do: tokens present,
// prefixes of a present token, phrases consecutive within one field.
func widenedMatch(a *approx, t *Text) bool {
	if a == nil {
		return true
	}
	switch a.op {
	case 't':
		return t.Has(a.text)
	case 'p':
		for i := 0; i < t.Len(); i++ {
			if strings.HasPrefix(t.Token(i), a.text) {
				return true
			}
		}
		return false
	case 'f':
		return t.hasTerm(&Term{Patterns: exactPatterns(a.tokens), Slop: -1})
	case '&':
		for _, c := range a.children {
			if !widenedMatch(c, t) {
				return false
			}
		}
		return true
	}
	for _, c := range a.children {
		if widenedMatch(c, t) {
			return true
		}
	}
	return false
}

func exactPatterns(toks []string) []*Pattern {
	out := make([]*Pattern, len(toks))
	for i, tok := range toks {
		out[i] = newPattern(Exact, tok, 0)
	}
	return out
}

func TestBackendExpressions(t *testing.T) {
	tests := []struct {
		query, fts5, tsquery string
		narrows              bool
	}{
		{"a b OR c", `(("a" AND "b") OR "c")`, `(('a' & 'b') | 'c')`, true},
		{`"New York" city`, `("new york" AND "city")`, `(('new' & 'york') & 'city')`, true},
		{`"a b"~3`, `("a" AND "b")`, `('a' & 'b')`, true},
		{"netw* -spam", `"netw"*`, `'netw':*`, true},
		{"*work", "", "", false},
		{"colour~ OR red", "", "", false},
		{"colour~ red", `"red"`, `'red'`, true},
		{"e-mail", `"e mail"`, `('e' & 'mail')`, true},
		{"Café", `"cafe"`, `'cafe'`, true},
		{"O'Brien", `"o brien"`, `('o' & 'brien')`, true},
	}
	for _, tt := range tests {
		q, issues := Parse(tt.query, ModeSavedSearch)
		if q == nil {
			t.Fatalf("%q: %v", tt.query, issues)
		}
		fts, ok := q.FTS5()
		if ok != tt.narrows || fts != tt.fts5 {
			t.Errorf("FTS5(%q) = %q, %v; want %q, %v", tt.query, fts, ok, tt.fts5, tt.narrows)
		}
		ts, ok := q.TSQuery()
		if ok != tt.narrows || ts != tt.tsquery {
			t.Errorf("TSQuery(%q) = %q, %v; want %q, %v", tt.query, ts, ok, tt.tsquery, tt.narrows)
		}
	}
	if got := TSVector("It's Café", "a a b"); got != `'it' 's' 'cafe' 'a' 'b'` {
		t.Errorf("TSVector = %q", got)
	}
}

// fts5Table opens an in-memory SQLite database, closed when t ends, with the virtual table
// described by table ("name USING fts5(...)").
func fts5Table(t *testing.T, table string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE VIRTUAL TABLE " + table); err != nil {
		t.Fatal(err)
	}
	return db
}

// textPost is a post's title and body, as a test's FTS5 table holds them.
type textPost struct{ title, body string }

// fillFTS5 stores 300 posts of words drawn by r in the FTS5 table posts, under row ids 0 to
// 299, and returns them in that order.
func fillFTS5(t *testing.T, db *sql.DB, words []string, r *rand.Rand) []textPost {
	t.Helper()
	pick := func(n int) string {
		var b []string
		for range n {
			b = append(b, words[r.IntN(len(words))])
		}
		return strings.Join(b, " ")
	}
	var posts []textPost
	for i := range 300 {
		p := textPost{pick(r.IntN(4)), pick(2 + r.IntN(12))}
		posts = append(posts, p)
		if _, err := db.Exec(`INSERT INTO posts(rowid, title, body) VALUES (?, ?, ?)`, i, IndexText(p.title), IndexText(p.body)); err != nil {
			t.Fatal(err)
		}
	}
	return posts
}

// TestFTS5Superset runs generated queries through a real FTS5 table built as the contract says
// and checks that every post the matcher accepts is among the rows FTS5 returns.
func TestFTS5Superset(t *testing.T) {
	db := fts5Table(t, fmt.Sprintf("posts USING fts5(title, body, tokenize = %q)", FTS5Tokenizer))
	words := strings.Fields("alpha beta gamma Café cafe naïve Straße strasse e-mail network teamwork über 東京 x_y 2024 colour color")
	r := rand.New(rand.NewPCG(11, 12))
	posts := fillFTS5(t, db, words, r)
	queryWords := append(words, "netw*", "*work", "caf?", "colour~1", `"alpha beta"`, `"beta alpha"~1`, `"new york"`)
	checked := 0
	for i := 0; i < 400; i++ {
		var parts []string
		for n := 1 + r.IntN(3); n > 0; n-- {
			w := queryWords[r.IntN(len(queryWords))]
			switch r.IntN(5) {
			case 0:
				w = "-" + w
			case 1:
				w += " OR " + queryWords[r.IntN(len(queryWords))]
			}
			parts = append(parts, w)
		}
		q, _ := Parse(strings.Join(parts, " "), ModeSavedSearch)
		if q == nil {
			continue
		}
		expr, ok := q.FTS5()
		candidates := map[int]bool{}
		if ok {
			for _, id := range fts5RowIDs(t, db, expr, q.Source) {
				candidates[id] = true
			}
		}
		var text Text
		for id, p := range posts {
			text.Reset(p.title, p.body)
			if q.Match(&text) {
				checked++
				if ok && !candidates[id] {
					t.Fatalf("%q matches post %d (%q / %q) but FTS5 %q does not return it", q.Source, id, p.title, p.body, expr)
				}
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d matches checked", checked)
	}
}

// TestQuotingKeepsQuotesAndBackslashes: a token is one literal whatever it holds. FTS5 strings
// double only the quote; tsquery lexemes double the quote and the backslash. The FTS5 side is
// checked on SQLite's trigram tokenizer, which keeps every character.
func TestQuotingKeepsQuotesAndBackslashes(t *testing.T) {
	db := fts5Table(t, "t USING fts5(body, tokenize = 'trigram')")
	const text = `she said "hi" it's C:\dir\ a\\b end`
	if _, err := db.Exec(`INSERT INTO t(body) VALUES (?)`, text); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tokens        []string
		fts5, tsquery string
		inText        bool
	}{
		{[]string{"plain"}, `"plain"`, `'plain'`, false},
		{[]string{`"hi"`}, `"""hi"""`, `'"hi"'`, true},
		{[]string{"it's"}, `"it's"`, `'it''s'`, true},
		{[]string{`C:\dir\`}, `"C:\dir\"`, `'C:\\dir\\'`, true},
		{[]string{`a\\b`}, `"a\\b"`, `'a\\\\b'`, true},
		{[]string{`\"`}, `"\"""`, `'\\"'`, false},
		{[]string{`said "hi`, `C:\`}, `("said ""hi" AND "C:\")`, `('said "hi' & 'C:\\')`, true},
	}
	for _, tt := range tests {
		fts, ts := FTS5AllOf(tt.tokens), TSQueryAllOf(tt.tokens)
		if fts != tt.fts5 || ts != tt.tsquery {
			t.Errorf("%q: FTS5 %s, tsquery %s; want %s, %s", tt.tokens, fts, ts, tt.fts5, tt.tsquery)
		}
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM t WHERE t MATCH ?`, fts).Scan(&n); err != nil || (n == 1) != tt.inText {
			t.Errorf("%q: FTS5 %s found %d rows (%v), want the text: %v", tt.tokens, fts, n, err, tt.inText)
		}
	}
}

// fts5RowIDs returns the rowids of the posts FTS5 finds for expr, in order; source is the query
// expr was written from, for the failure's message.
func fts5RowIDs(t *testing.T, db *sql.DB, expr, source string) []int {
	t.Helper()
	rows, err := db.Query(`SELECT rowid FROM posts WHERE posts MATCH ? ORDER BY rowid`, expr)
	if err != nil {
		t.Fatalf("FTS5 rejects %q (from %q): %v", expr, source, err)
	}
	defer rows.Close()
	var ids []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}
