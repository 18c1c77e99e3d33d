package query

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Hello, World!", []string{"hello", "world"}},
		{"#osint @osint e-mail", []string{"osint", "osint", "e", "mail"}},
		{"Café STRASSE Straße", []string{"cafe", "strasse", "strasse"}},
		{"ﬁre ½ ℃ x_y", []string{"fire", "1", "2", "c", "x_y"}},
		{"25℃ naïve", []string{"25", "c", "naive"}},
		{"ΣΊΣΥΦΟΣ σίσυφος", []string{"σισυφοσ", "σισυφοσ"}},
		{"東京タワー", []string{"東", "京", "タ", "ワ", "ー"}},
		{"a\u00a0b\u3000c", []string{"a", "b", "c"}},
		{"\u0301\u0301 a", []string{"a"}},
		{strings.Repeat("x", 300), []string{strings.Repeat("x", 255), strings.Repeat("x", 45)}},
		{"", nil},
	}
	// EachToken gives the same tokens from a Text reused across texts, and leaves it empty.
	var reused Text
	reused.Reset("left over from before")
	for _, tt := range tests {
		if got := Tokens(tt.in); !reflect.DeepEqual(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
			t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
		var each []string
		reused.EachToken(tt.in, func(tok []byte) { each = append(each, string(tok)) })
		if !reflect.DeepEqual(each, tt.want) && !(len(each) == 0 && len(tt.want) == 0) {
			t.Errorf("EachToken(%q) gives %q, want %q", tt.in, each, tt.want)
		}
		if reused.Len() != 0 || reused.Has("over") {
			t.Errorf("after EachToken(%q) the text has %d tokens, want none", tt.in, reused.Len())
		}
	}
}

// definitionTokens is what Tokens must return: NFKD of the whole text, split, marks removed,
// cases.Fold.
func definitionTokens(text string) []string {
	var out []string
	splitTokens([]byte(norm.NFKD.String(text)), false, func(tok []byte) {
		var kept []rune
		for _, r := range string(tok) {
			if !unicode.Is(unicode.Mn, r) {
				kept = append(kept, r)
			}
		}
		if f := cases.Fold().String(string(kept)); f != "" {
			out = append(out, f)
		}
	})
	return out
}

// The fast paths (ASCII pieces skip NFKD, runes decomposed, split and folded from a table) must
// give exactly what the definition gives.
func TestAnalysisMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("aZ_9 ,.-*?éÉßẞİıςΣſKﬁ½℃²\u0301\u0308\u00a0\u3000東タДдΩωǅǄᾳ\U0001D400\U00010400")
	near := []rune("aéﬁẞ\u0301ǅ½東 ")
	for i := 0; i < 50000; i++ {
		n := r.IntN(12)
		rs := make([]rune, n)
		if i%10 == 0 {
			// A word reaching the length cap, maybe within a decomposition.
			rs = []rune(strings.Repeat("a", 245+r.IntN(10)))
			for range r.IntN(12) {
				rs = append(rs, near[r.IntN(len(near))])
			}
		}
		for j := range rs[:n] {
			switch r.IntN(6) {
			case 0:
				rs[j] = rune(0x80 + r.IntN(0x2F00)) // the busy part of the BMP
			case 1:
				rs[j] = rune(0x80 + r.IntN(0x10000-0x80)) // anywhere
			default:
				rs[j] = alphabet[r.IntN(len(alphabet))]
			}
		}
		text := string(rs)
		if !utf8.ValidString(text) {
			continue
		}
		got := Tokens(text)
		if want := definitionTokens(text); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("Tokens(%q) = %q, definition gives %q", text, got, want)
		}
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"  Jane   DOE ": "jane doe", "@Ünal": "@unal", "Straße": "strasse", "": "",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
	// The definition, which the ASCII shortcut must agree with.
	definition := func(s string) string {
		var words []string
		for _, w := range strings.FieldsFunc(norm.NFKD.String(s), isSpace) {
			var kept []rune
			for _, r := range w {
				if !unicode.Is(unicode.Mn, r) {
					kept = append(kept, r)
				}
			}
			words = append(words, cases.Fold().String(string(kept)))
		}
		return strings.Join(words, " ")
	}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []rune("aZz_9 @.-\t\né\u00a0")
	for range 20000 {
		rs := make([]rune, r.IntN(8))
		for i := range rs {
			rs[i] = alphabet[r.IntN(len(alphabet))]
		}
		if got, want := Fold(string(rs)), definition(string(rs)); got != want {
			t.Fatalf("Fold(%q) = %q, definition gives %q", string(rs), got, want)
		}
	}
}

// BenchmarkTextReset analyzes a post of mostly ASCII words with some accented, Greek and
// Japanese text, the mix the percolator sees.
func BenchmarkTextReset(b *testing.B) {
	words := strings.Fields("the police reported a Protest near the station, #breaking news: " +
		"naïve café owners said Straße closures were expected; σίσυφος 東京タワー update_2026 " +
		"Officials confirmed 42 arrests and https://example.com/report was shared widely")
	r := rand.New(rand.NewPCG(1, 2))
	var sb strings.Builder
	for range 160 {
		sb.WriteString(words[r.IntN(len(words))])
		sb.WriteByte(' ')
	}
	title, text := "Breaking: protest near the station", sb.String()
	var t Text
	b.SetBytes(int64(len(title) + len(text)))
	for b.Loop() {
		t.Reset(title, text)
	}
}

// TestASCIIRun checks the 8-bytes-at-once run against a byte-by-byte reading, over every byte
// value in every position.
func TestASCIIRun(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(s string) {
		n, lowered := asciiRun(s, 0)
		want := 0
		for want < 8 && isTokenByte(s[want]) {
			want++
		}
		if n != want {
			t.Fatalf("asciiRun(%q) = %d bytes, want %d", s, n, want)
		}
		for k := range n {
			if got, want := byte(lowered>>(8*k)), byte(unicode.ToLower(rune(s[k]))); got != want {
				t.Fatalf("asciiRun(%q): byte %d lowered to %q, want %q", s, k, got, want)
			}
		}
	}
	for pos := range 8 {
		for c := range 256 {
			b := []byte("abcdefgh")
			for k := range b {
				b[k] = "aZ9_"[r.IntN(4)]
			}
			b[pos] = byte(c)
			check(string(b))
		}
	}
	if n, _ := asciiRun("short", 0); n != 0 {
		t.Fatalf("a run read from fewer than 8 bytes: %d", n)
	}
}
