package outbound_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/outbound/sockstest"
)

const onion = "sightlinetestxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.onion"

func TestOnionOnlyThroughTheSOCKSProxy(t *testing.T) {
	hidden := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("hidden service at " + r.Host))
	}))
	defer hidden.Close()
	proxy := sockstest.Start(t, func(addr string) (string, bool) {
		if addr == onion+":80" {
			return strings.TrimPrefix(hidden.URL, "http://"), true
		}
		return "", false
	})

	for _, tc := range []struct {
		name string
		opts outbound.Options
		url  string
		want error // nil: reaches the service
	}{
		{"onion without a proxy", outbound.Options{}, "http://" + onion + "/", outbound.ErrOnionWithoutTor},
		{"onion without a proxy, even with private addresses allowed", outbound.Options{AllowPrivate: true}, "http://" + strings.ToUpper(onion) + "./", outbound.ErrOnionWithoutTor},
		{"onion through the proxy", outbound.Options{TorSOCKS: proxy.Addr}, "http://" + onion + "/", nil},
		// The proxy is trusted, the rest is not: a loopback address is still refused.
		{"loopback with a proxy", outbound.Options{TorSOCKS: proxy.Addr}, hidden.URL, outbound.ErrForbiddenAddress},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := outbound.New(tc.opts).HTTP().Get(tc.url)
			if tc.want != nil {
				if !errors.Is(err, tc.want) {
					t.Fatalf("err %v, want %v", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if string(body) != "hidden service at "+onion {
				t.Errorf("body %q", body)
			}
		})
	}
	// The proxy was handed the name, never an address resolved here.
	if asked := proxy.Asked(); len(asked) != 1 || asked[0] != onion+":80" {
		t.Errorf("the proxy was asked for %v", asked)
	}
}

func TestOnionThroughAnUnreachableProxyFails(t *testing.T) {
	_, err := outbound.New(outbound.Options{TorSOCKS: "127.0.0.1:1"}).HTTP().Get("http://" + onion + "/")
	if err == nil || !strings.Contains(err.Error(), "Tor SOCKS proxy") {
		t.Errorf("err %v", err)
	}
}

func TestIsOnion(t *testing.T) {
	for host, want := range map[string]bool{onion: true, "ABC.ONION.": true, "onion.example": false, "example.org": false, "onion": false} {
		if outbound.IsOnion(host) != want {
			t.Errorf("IsOnion(%q) = %v", host, !want)
		}
	}
}
