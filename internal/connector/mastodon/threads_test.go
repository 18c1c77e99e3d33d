package mastodon

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/connector/connectortest"
)

func TestRepliesGetTheirThread(t *testing.T) {
	var lookups []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v1/timelines/public":
			if r.URL.Query().Get("min_id") != "" {
				w.Write([]byte("[]"))
				return
			}
			body, _ := os.ReadFile("testdata/replies.json")
			w.Write(body)
		case "/api/v1/statuses/113912345678900011/context":
			lookups = append(lookups, r.URL.Path)
			w.Write([]byte(`{"ancestors": [{"id": "113912345678900001"}, {"id": "113912345678900002"}], "descendants": [{"id": "113912345678900012"}]}`))
		default:
			lookups = append(lookups, r.URL.Path)
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	src := newSource(t, srv, DefaultConfig(), "public", &connectortest.Cursors{}, &connectortest.Sleeper{})
	src.threadLookupEvery = 0 // every reply's thread is looked up
	var got connectortest.Collector
	stop := connectortest.Start(t, src, got.Emit)
	posts := got.WaitForPosts(t, 3)
	stop()
	host := strings.TrimPrefix(srv.URL, "http://")
	for i, want := range []struct{ thread, parent string }{
		{"113912345678900003", "113912345678900003"}, // the context lookup failed: the parent stands in
		{"113912345678900001", "113912345678900002"}, // the first ancestor
		{"113912345678900001", "113912345678900011"}, // the parent's thread, without a request
	} {
		if posts[i].ThreadID != host+"/"+want.thread || posts[i].ParentID != host+"/"+want.parent {
			t.Errorf("%d: thread %s parent %s", i, posts[i].ThreadID, posts[i].ParentID)
		}
	}
	if len(lookups) != 2 {
		t.Errorf("lookups %v: one per reply to a status not seen", lookups)
	}
}
