package connector

import (
	"errors"
	"testing"
)

// Every address in a source's error keeps its scheme and host only: no path, query string or
// credentials, whichever way the error quotes it.
func TestRedactText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"GET https://feeds.example.org/private/tok3n.rss: 404 Not Found", "GET https://feeds.example.org: 404 Not Found"},
		{`Get "https://user:pa55@feeds.example.org:8443/rss?key=tok3n#x": dial tcp 1.2.3.4:8443: i/o timeout`,
			`Get "https://feeds.example.org:8443": dial tcp 1.2.3.4:8443: i/o timeout`},
		{"GET https://api.example.org/v1/items?token=tok3n&x=1: malformed reply", "GET https://api.example.org: malformed reply"},
		{"dial wss://relay.example.org/sub/tok3n (after 3 tries).", "dial wss://relay.example.org (after 3 tries)."},
		{"socks5://me:pa55@127.0.0.1:9050 refused", "socks5://127.0.0.1:9050 refused"},
		{"no address here: 500 Internal Server Error", "no address here: 500 Internal Server Error"},
		{"https://a.example/x then http://b.example/y?z", "https://a.example then http://b.example"},
	} {
		if got := RedactText(tt.in); got != tt.want {
			t.Errorf("RedactText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	s := NewStatus("rss:private")
	s.Failed(errors.New("GET https://feeds.example.org/private/tok3n.rss: 500 Internal Server Error"))
	s.Skipped(errors.New("item of https://feeds.example.org/private/tok3n.rss?page=2 has no date"))
	if st := s.Stats(); st.LastError != "GET https://feeds.example.org: 500 Internal Server Error" ||
		st.LastSkip != "item of https://feeds.example.org has no date" {
		t.Errorf("status keeps %q and %q", st.LastError, st.LastSkip)
	}
}
