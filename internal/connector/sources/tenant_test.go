package sources_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/sightline/sightline/internal/connector/sources"
)

// A tenant's own feed, page, onion site or imageboard site may not give its posts a platform's
// provider key; generic keys and the defaults are fine, and so is an imageboard site that reads
// the platform itself.
func TestCheckTenantProviders(t *testing.T) {
	tests := []struct {
		typ, config string
		field       string // "" when allowed
	}{
		{"rss", `{"url":"https://example.org/feed"}`, ""},
		{"rss", `{"url":"https://example.org/feed","provider":"blogs"}`, ""},
		{"rss", `{"url":"https://example.org/feed","provider":"hackernews"}`, "config.provider"},
		{"rss", `{"url":"https://example.org/feed","provider":"twitter"}`, "config.provider"},
		{"rss", `{"url":"https://example.org/feed","provider":"youtube"}`, "config.provider"},
		{"html", `{"pages":[{"name":"a","url":"https://example.org/","selectors":{"item":"li","text":"p"}}]}`, ""},
		{"html", `{"pages":[{"name":"a","url":"https://example.org/","provider":"leaks","selectors":{"item":"li","text":"p"}},
			{"name":"b","url":"https://example.org/b","provider":"reddit","selectors":{"item":"li","text":"p"}}]}`, "config.pages.1.provider"},
		{"onion", `{"sites":[{"name":"m","url":"http://abc.onion/","format":"rss","provider":"marketplaces"}]}`, ""},
		{"onion", `{"sites":[{"name":"m","url":"http://abc.onion/","format":"rss","provider":"telegram"}]}`, "config.sites.0.provider"},
		{"imageboard", `{}`, ""}, // the default 4chan site reads 4chan
		{"imageboard", `{"sites":[{"name":"4chan","provider":"4chan","apiURL":"https://a.4cdn.org/","boards":["g"]}]}`, ""},
		{"imageboard", `{"sites":[{"name":"x","provider":"4chan","apiURL":"https://boards.example.org","boards":["g"]}]}`, "config.sites.0.provider"},
		{"imageboard", `{"sites":[{"name":"x","provider":"imageboard","apiURL":"https://boards.example.org","boards":["g"]}]}`, ""},
		// A site's settings fill the default site's, so one that names no provider keeps 4chan's.
		{"imageboard", `{"sites":[{"name":"x","apiURL":"https://boards.example.org","boards":["g"]}]}`, "config.sites.0.provider"},
		{"hackernews", `{}`, ""}, // a platform's own connector reads that platform
	}
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.config, func(t *testing.T) {
			err := sources.CheckTenantProviders(tt.typ, "x", json.RawMessage(tt.config))
			var se *sources.SettingsError
			switch {
			case tt.field == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.field != "" && (!errors.As(err, &se) || se.Field != tt.field):
				t.Fatalf("got %v, want a settings error on %s", err, tt.field)
			}
		})
	}
}
