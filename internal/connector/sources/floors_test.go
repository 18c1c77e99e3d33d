package sources

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/connector/connectortest"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/wait"
)

// A wait below its type's floor is refused when a row is saved, naming the setting, and a row
// stored before the floors existed runs at the floor: RowConfig (which BuildRow runs) and the
// interval health is judged by both raise it.
func TestFloors(t *testing.T) {
	page := `{"name":"p","url":"https://forum.example.org/","selectors":{"item":"li","text":"p"}%s}`
	tests := []struct {
		typ, config string
		field       string        // "" when the settings keep to the floors
		interval    time.Duration // what the row runs at
	}{
		{"rss", `{"url":"https://news.example.org/rss","interval":"1ms"}`, "config.interval", time.Minute},
		{"rss", `{"url":"https://news.example.org/rss","interval":"59s"}`, "config.interval", time.Minute},
		{"rss", `{"url":"https://news.example.org/rss","interval":"1m"}`, "", time.Minute},
		{"rss", `{"url":"https://news.example.org/rss"}`, "", 5 * time.Minute},
		{"rss", `{"url":"https://news.example.org/rss","backoff":{"initial":"1ms","max":"1ms"}}`, "config.backoff.initial", 5 * time.Minute},
		{"html", `{"pages":[` + strings.Replace(page, "%s", `,"interval":"1ms"`, 1) + `]}`, "config.pages[0].interval", 10 * time.Minute},
		{"html", `{"pages":[` + strings.Replace(page, "%s", "", 1) + `],"interval":"1ms"}`, "config.interval", 5 * time.Minute},
		{"html", `{"pages":[` + strings.Replace(page, "%s", "", 1) + `],"interval":"5m"}`, "", 5 * time.Minute},
		{"hackernews", `{"interval":"0s"}`, "config.interval", 15 * time.Second},
		{"hackernews", `{}`, "", 30 * time.Second},
		{"mastodon", `{"baseURL":"https://social.example.org","interval":"1s"}`, "config.interval", 30 * time.Second},
		{"gdelt", `{"pause":"0s"}`, "config.pause", 15 * time.Minute},
		{"imageboard", `{"interval":"1ms"}`, "config.interval", 30 * time.Second},
		{"telegram", `{"channels":["news"],"pause":"10ms"}`, "config.pause", 2 * time.Minute},
		{"bluesky", `{"profileLookupEvery":"0s"}`, "config.profileLookupEvery", 0},
	}
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.config, func(t *testing.T) {
			err := CheckFloors(tt.typ, json.RawMessage(tt.config))
			var se *SettingsError
			switch {
			case tt.field == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.field != "" && (!errors.As(err, &se) || se.Field != tt.field || !strings.Contains(se.Message, "at least")):
				t.Errorf("CheckFloors = %v, want a refusal of %s", err, tt.field)
			}
			if d := (Builder{}).Interval(tt.typ, json.RawMessage(tt.config)); d != tt.interval {
				t.Errorf("runs every %v, want %v", d, tt.interval)
			}
			cfg, err := RowConfig(tt.typ, "row", json.RawMessage(tt.config))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range waits(tt.typ, &cfg) {
				if w.under() {
					t.Errorf("%s runs at %v, under its floor %v", w.field, time.Duration(*w.value), w.floor)
				}
			}
		})
	}
}

// Every source shares a request budget per host, whichever row and tenant it belongs to: with
// a budget of two requests, three feeds of one host make two requests, and the third reports
// the budget spent instead of asking.
func TestHostBudgetIsShared(t *testing.T) {
	builder := Builder{Allow: outbound.Everywhere, Budget: connector.NewHostBudget(1.0/3600, 2)}
	var hits atomic.Int64
	feed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/rss+xml")
		w.Write([]byte(`<?xml version="1.0"?><rss version="2.0"><channel><title>t</title></channel></rss>`))
	}))
	defer feed.Close()
	var all []connector.Source
	for _, path := range []string{"/a", "/b", "/c"} {
		srcs, err := builder.BuildRow("rss", "feed"+path, json.RawMessage(`{"url":"`+feed.URL+path+`"}`), MemoryCursors{}, "row"+path+":")
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, srcs...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	collector := &connectortest.Collector{}
	for _, src := range all {
		go src.Run(ctx, collector.Emit)
	}
	wait.For(t, "two fetches and a refusal", func() bool {
		done, refused := 0, 0
		for _, st := range Stats(all) {
			switch {
			case !st.LastSuccess.IsZero():
				done++
			case strings.Contains(st.LastError, "request budget"):
				refused++
			}
		}
		return done == 2 && refused == 1
	})
	if n := hits.Load(); n != 2 {
		t.Fatalf("the host was asked %d times, want 2", n)
	}
}
