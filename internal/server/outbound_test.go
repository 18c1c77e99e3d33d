package server_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sightline/sightline/internal/server"
)

// Each kind of caller reaches only the private addresses its own allowlist names: sources
// --allow-private-networks, webhooks --allow-private-webhooks, and the image proxy none at all.
func TestOutboundPolicyPerCaller(t *testing.T) {
	var picture bytes.Buffer
	png.Encode(&picture, image.NewRGBA(image.Rect(0, 0, 8, 8)))
	var feeds, pictures, hooks atomic.Int64
	onPremises := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/feed":
			feeds.Add(1)
			w.Header().Set("Content-Type", "application/rss+xml")
			fmt.Fprint(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>Desk</title>`+
				`<item><title>Flood at the plant</title><link>https://news.example.org/1</link><guid>1</guid></item></channel></rss>`)
		case "/picture.png":
			pictures.Add(1)
			w.Header().Set("Content-Type", "image/png")
			w.Write(picture.Bytes())
		case "/hook":
			hooks.Add(1)
		}
	}))
	t.Cleanup(onPremises.Close)
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	everywhere := []netip.Prefix{netip.MustParsePrefix("0.0.0.0/0"), netip.MustParsePrefix("::/0")}

	tests := []struct {
		name               string
		sources, webhooks  []netip.Prefix
		wantFeed, wantHook bool
	}{
		{"nothing allowlisted", nil, nil, false, false},
		{"sources allowlisted", loopback, nil, true, false},
		{"every address for sources", everywhere, nil, true, false},
		{"webhooks allowlisted", nil, loopback, false, true},
		{"sources allowlisted elsewhere", []netip.Prefix{netip.MustParsePrefix("10.1.2.0/24")}, nil, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node, srv := startNodeWith(t, func(c *server.Config) {
				c.AllowPrivateNetworks, c.AllowPrivateWebhooks = tt.sources, tt.webhooks
			})
			ctx := context.Background()
			token, _, err := node.Auth.CreateAPIToken(ctx, "admin@example.test", "t", nil)
			if err != nil {
				t.Fatal(err)
			}
			feedsBefore, picturesBefore, hooksBefore := feeds.Load(), pictures.Load(), hooks.Load()

			status, reply := call(t, "POST", srv.URL+"/api/v1/sources/test", token,
				fmt.Sprintf(`{"type":"rss","config":{"url":%q}}`, onPremises.URL+"/feed"))
			reached := status == http.StatusOK && reply["data"].(map[string]any)["ok"] == true
			if reached != tt.wantFeed || (feeds.Load() > feedsBefore) != tt.wantFeed {
				t.Errorf("source test fetch: %d %v, want the feed reached: %v", status, reply, tt.wantFeed)
			}

			// The image proxy reaches no private address, whatever the flags.
			status, _ = call(t, "GET", srv.URL+"/proxy/images/"+url.PathEscape(onPremises.URL+"/picture.png"), token, "")
			if status != http.StatusForbidden || pictures.Load() != picturesBefore {
				t.Errorf("image proxy: %d, want 403 and nothing fetched", status)
			}

			user, err := node.Store.UserByEmail(ctx, "admin@example.test")
			if err != nil {
				t.Fatal(err)
			}
			if status, reply := call(t, "PUT", fmt.Sprintf("%s/api/v1/settings/organizations/%d/webhook", srv.URL, user.OrganizationID), token, ""); status != http.StatusOK {
				t.Fatalf("webhook secret: %d %v", status, reply)
			}
			status, reply = call(t, "GET", srv.URL+"/api/v1/monitor/monitor-search-groups/mini", token, "")
			groupID := reply["data"].([]any)[0].(map[string]any)["id"].(float64)
			status, reply = call(t, "POST", srv.URL+"/api/v1/monitor/searches", token,
				fmt.Sprintf(`{"group_id":%v,"name":"Plant","keywords":"flood","providers":["reddit"]}`, groupID))
			if status != http.StatusCreated {
				t.Fatalf("create search = %d %v", status, reply)
			}
			searchID := reply["data"].(map[string]any)["id"].(float64)
			status, reply = call(t, "POST", fmt.Sprintf("%s/api/v1/monitor/searches/%v/notification-settings/test", srv.URL, searchID), token,
				fmt.Sprintf(`{"destination":{"type":"webhook","address":%q}}`, onPremises.URL+"/hook"))
			if (status == http.StatusOK) != tt.wantHook || (hooks.Load() > hooksBefore) != tt.wantHook {
				t.Errorf("webhook test: %d %v, want it delivered: %v", status, reply, tt.wantHook)
			}
		})
	}
}

// Every path that tells a caller an outbound call failed names the host the caller gave and
// nothing the network said: not the addresses a name resolved to, nor the resolver, nor how
// the connection failed (that goes to the log).
func TestOutboundErrorsNameNoInternalDetail(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	nobody := strings.Replace(closed.URL, "127.0.0.1", "localhost", 1) // resolved here, to loopback
	host := strings.TrimPrefix(nobody, "http://")
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	node, srv := startNodeWith(t, func(c *server.Config) {
		c.AllowPrivateNetworks, c.AllowPrivateWebhooks = loopback, loopback
	})
	ctx := context.Background()
	token, _, err := node.Auth.CreateAPIToken(ctx, "admin@example.test", "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	user, err := node.Store.UserByEmail(ctx, "admin@example.test")
	if err != nil {
		t.Fatal(err)
	}
	call(t, "PUT", fmt.Sprintf("%s/api/v1/settings/organizations/%d/webhook", srv.URL, user.OrganizationID), token, "")
	_, reply := call(t, "GET", srv.URL+"/api/v1/monitor/monitor-search-groups/mini", token, "")
	groupID := reply["data"].([]any)[0].(map[string]any)["id"].(float64)
	_, reply = call(t, "POST", srv.URL+"/api/v1/monitor/searches", token,
		fmt.Sprintf(`{"group_id":%v,"name":"Plant","keywords":"flood","providers":["reddit"]}`, groupID))
	searchID := reply["data"].(map[string]any)["id"].(float64)

	tests := []struct {
		name       string
		method     string
		path, body string
		wantStatus int
		message    func(reply map[string]any) string
		wantHost   bool
	}{
		{"a source's test fetch", "POST", "/api/v1/sources/test", fmt.Sprintf(`{"type":"rss","config":{"url":%q}}`, nobody+"/feed"),
			http.StatusOK, func(r map[string]any) string { return fmt.Sprint(r["data"].(map[string]any)["error"]) }, true},
		{"a webhook test", "POST", fmt.Sprintf("/api/v1/monitor/searches/%v/notification-settings/test", searchID),
			fmt.Sprintf(`{"destination":{"type":"webhook","address":%q}}`, nobody+"/hook"),
			http.StatusBadGateway, func(r map[string]any) string { return fmt.Sprint(r["message"]) }, true},
		// The image proxy reaches no loopback address: a name that leads to one answers like a
		// host that is down, not with a refusal that would tell where it leads.
		{"a picture", "GET", "/proxy/images/" + url.PathEscape(nobody+"/p.png"), "",
			http.StatusBadGateway, func(r map[string]any) string { return fmt.Sprint(r["message"]) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, reply := call(t, tt.method, srv.URL+tt.path, token, tt.body)
			if status != tt.wantStatus {
				t.Fatalf("status %d %v, want %d", status, reply, tt.wantStatus)
			}
			message := tt.message(reply)
			if tt.wantHost && !strings.Contains(message, host) {
				t.Errorf("%q does not name the host %s", message, host)
			}
			for _, detail := range []string{"127.0.0.1", "::1", "dial", "tcp", "refused", "lookup", "public"} {
				if strings.Contains(message, detail) {
					t.Errorf("%q says %q", message, detail)
				}
			}
		})
	}
}
