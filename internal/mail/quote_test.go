package mail

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		max        int
		want       string
	}{
		{"plain", "Harbour", SubjectRunes, "“Harbour”"},
		{"one line", "Your account\r\nBcc: x@evil.example\tnow", 0, "“Your account Bcc: x@evil.example now”"},
		{"format characters", "pay\u202eusd\u200b now", 0, "“payusd now”"},
		{"cut", strings.Repeat("a", 70), SubjectRunes, "“" + strings.Repeat("a", SubjectRunes-1) + "…”"},
		{"whole in bodies", strings.Repeat("a", 70), 0, "“" + strings.Repeat("a", 70) + "”"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Quote(tc.text, tc.max); got != tc.want {
				t.Errorf("Quote(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}
