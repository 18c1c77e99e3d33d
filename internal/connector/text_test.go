package connector

import (
	"strings"
	"testing"
)

func TestPlainText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "hello world", "hello world"},
		{"paragraphs", "first<p>second<p>third", "first\nsecond\nthird"},
		{"entities", "It&#x27;s &lt;b&gt; &amp; &quot;q&quot;", `It's <b> & "q"`},
		{"links keep their text", `see <a href="https://x.example/a" rel="nofollow">https://x.example/a</a>`, "see https://x.example/a"},
		{"mastodon", `<p>Hello <span class="h-card"><a href="https://m.example/@bob" class="u-url mention">@<span>bob</span></a></span></p><p>Line<br />two</p>`, "Hello @bob\n\nLine\ntwo"},
		{"scripts dropped", "a<script>alert(1)</script>b<style>p{}</style>c", "abc"},
		{"stray closing script", "a</script>b</SCRIPT>c", "abc"},
		{"unclosed script", "a<script>alert(1)", "a"},
		{"lone angle bracket", "1 < 2", "1 < 2"},
		{"unclosed tag", "x <b", "x <b"},
		{"blank lines collapsed", "a<br><br><br><br>b", "a\n\nb"},
		{"spaces collapsed", "  a \t  b  ", "a b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PlainText(tt.in); got != tt.want {
				t.Fatalf("PlainText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func FuzzPlainText(f *testing.F) {
	f.Add("<p>a<br>b</p>&amp;<script>x</script>")
	f.Fuzz(func(t *testing.T, in string) {
		out := PlainText(in)
		if out != strings.TrimSpace(out) || strings.Contains(out, "\n\n\n") || strings.Contains(out, "  ") {
			t.Fatalf("PlainText(%q) = %q: untidy", in, out)
		}
	})
}
