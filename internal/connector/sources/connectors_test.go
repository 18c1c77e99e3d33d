package sources

import (
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/connector/connectortest"
)

// TestMoreConnectors builds each of the connectors added with issue 16 from its JSON
// configuration, and refuses their broken configurations.
func TestMoreConnectors(t *testing.T) {
	for _, tc := range []struct {
		name, json, want, wantErr string
	}{
		{"reddit", `{"reddit": {"enabled": true, "subreddits": ["worldnews"], "searches": ["ransomware"]}}`, "reddit", ""},
		{"reddit without listings", `{"reddit": {"enabled": true}}`, "", "no subreddits"},
		{"lemmy", `{"lemmy": {"enabled": true, "baseURL": "https://lemmy.ml", "communities": ["worldnews"]}}`, "lemmy:lemmy.ml", ""},
		{"gdelt", `{"gdelt": {"enabled": true, "queries": ["ransomware"]}}`, "gdelt", ""},
		{"imageboard", `{"imageboard": {"enabled": true}}`, "imageboard:4chan", ""},
		{"html", `{"html": {"enabled": true, "pages": [{"name": "pastes", "url": "https://paste.example/archive",
			"provider": "pastebin", "selectors": {"item": "li", "title": "a"}}]}}`, "html:pastes", ""},
		{"html with a bad selector", `{"html": {"enabled": true, "pages": [{"name": "p", "url": "https://p.example/",
			"selectors": {"item": "li["}}]}}`, "", "selector"},
		{"telegram", `{"telegram": {"enabled": true, "channels": ["osintdesk"]}}`, "telegram", ""},
		{"nostr", `{"nostr": {"enabled": true}}`, "nostr", ""},
		{"onion", `{"onion": {"enabled": true, "socks": "127.0.0.1:9050", "sites": [
			{"name": "blog", "url": "http://leaksblogxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.onion/feed", "format": "rss"}]}}`, "rss:onion:blog", ""},
		{"onion without a proxy", `{"onion": {"enabled": true, "sites": []}}`, "", "--tor-socks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := Load(strings.NewReader(tc.json))
			if err != nil {
				t.Fatal(err)
			}
			cfg.Simulator.Enabled = false
			srcs, err := Builder{}.Build(cfg, &connectortest.Cursors{})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(names(srcs), ","); got != tc.want {
				t.Errorf("built %q, want %q", got, tc.want)
			}
		})
	}
}
