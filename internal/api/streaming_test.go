package api_test

import (
	"net/http"
	"testing"

	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// The profile's switches flip and stay flipped; media sensitivity takes blur or show.
func TestProfileSwitches(t *testing.T) {
	e := newEnv(t, storetest.Open(t, store.SQLite))
	c := e.client()
	if r := c.login("analyst@acme.test"); r.status != http.StatusOK {
		t.Fatalf("sign-in: %d", r.status)
	}
	if r := c.do("PATCH", "/api/v1/settings/profile/update/is-inbox-streaming-enabled", nil); r.status != 419 {
		t.Fatalf("a cookie write without the anti-forgery header: %d, want 419", r.status)
	}
	switches := []struct {
		path, field string
		starts      bool
	}{
		{"is-inbox-streaming-enabled", "is_inbox_streaming_enabled", false},
		{"is-translation-enrichment-enabled", "is_translation_enrichment_enabled", true},
		{"is-mentioned-locations-enrichment-enabled", "is_mentioned_locations_enrichment_enabled", true},
	}
	for _, sw := range switches {
		t.Run(sw.path, func(t *testing.T) {
			for _, want := range []bool{!sw.starts, sw.starts} {
				r := c.do("PATCH", "/api/v1/settings/profile/update/"+sw.path, nil, withXSRF(c))
				if r.status != http.StatusOK || dig(r.body, "data", sw.field) != want {
					t.Fatalf("toggle = %d, %s = %v, want %v", r.status, sw.field, dig(r.body, "data", sw.field), want)
				}
				if got := dig(c.do("GET", "/api/v1/settings/profile/current", nil).body, "data", sw.field); got != want {
					t.Errorf("the profile then says %v, want %v", got, want)
				}
			}
		})
	}
	if r := c.do("PATCH", "/api/v1/settings/profile/update/no-such-switch", nil, withXSRF(c)); r.status != 404 {
		t.Errorf("unknown switch = %d, want 404", r.status)
	}
	path := "/api/v1/settings/profile/update/media-sensitivity"
	if r := c.do("PATCH", path, map[string]string{"media_sensitivity": "show"}, withXSRF(c)); r.status != 200 || dig(r.body, "data", "media_sensitivity") != "show" {
		t.Errorf("media sensitivity = %d %v", r.status, r.body)
	}
	if r := c.do("PATCH", path, map[string]string{"media_sensitivity": "loud"}, withXSRF(c)); r.status != 422 {
		t.Errorf("invalid media sensitivity = %d, want 422", r.status)
	}
}
