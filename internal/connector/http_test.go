package connector

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/outbound"
)

func TestRetryAfterHeader(t *testing.T) {
	now := time.Date(2025, 3, 14, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"seconds", map[string]string{"Retry-After": "120"}, 2 * time.Minute},
		{"HTTP date", map[string]string{"Retry-After": "Fri, 14 Mar 2025 12:00:30 GMT"}, 30 * time.Second},
		{"date in the past", map[string]string{"Retry-After": "Fri, 14 Mar 2025 11:00:00 GMT"}, 0},
		{"garbage", map[string]string{"Retry-After": "later"}, 0},
		{"mastodon reset", map[string]string{"X-RateLimit-Reset": "2025-03-14T12:05:00.000Z"}, 5 * time.Minute},
		{"retry-after wins", map[string]string{"Retry-After": "1", "X-RateLimit-Reset": "2025-03-14T12:05:00Z"}, time.Second},
		{"none", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			if got := retryAfter(h, now); got != tt.want {
				t.Fatalf("retryAfter = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestGet(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			if r.Header.Get("User-Agent") != UserAgent || r.Header.Get("Authorization") != "Bearer t" {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			w.Write([]byte(`{"a":1}`))
		case "/limited":
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
		case "/notmodified":
			w.WriteHeader(http.StatusNotModified)
		case "/broken":
			w.Write([]byte(`{"a":`))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	auth := http.Header{"Authorization": {"Bearer t"}}
	local := outbound.New(outbound.Options{AllowPrivate: true})

	var v struct{ A int }
	if err := GetJSON(ctx, local, srv.URL+"/ok", auth, &v); err != nil || v.A != 1 {
		t.Fatalf("GetJSON /ok = %v, %+v", err, v)
	}

	err := GetJSON(ctx, local, srv.URL+"/limited", nil, &v)
	var h *HTTPError
	if !errors.As(err, &h) || h.StatusCode != 429 {
		t.Fatalf("GetJSON /limited = %v, want a 429 HTTPError", err)
	}
	if d, ok := RetryAfter(err); !ok || d != 7*time.Second {
		t.Fatalf("RetryAfter = %v, %v; want 7s", d, ok)
	}

	resp, err := Get(ctx, local, srv.URL+"/notmodified", nil)
	if err != nil || resp.StatusCode != http.StatusNotModified {
		t.Fatalf("Get /notmodified = %v, %v", resp, err)
	}
	resp.Body.Close()

	if err := GetJSON(ctx, local, srv.URL+"/broken", nil, &v); err == nil {
		t.Fatal("GetJSON of a cut reply succeeded")
	}
	if _, ok := RetryAfter(GetJSON(ctx, local, srv.URL+"/missing", nil, &v)); ok {
		t.Fatal("a 404 carries no Retry-After")
	}
}

func TestErrorsNameNoSecrets(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/broken":
			w.Write([]byte(`{"a":`))
		case "/malformed":
			w.Write([]byte(`[`))
		default:
			w.WriteHeader(http.StatusForbidden)
		}
	}))
	defer srv.Close()
	withSecrets := strings.Replace(srv.URL, "://", "://user:pass@", 1)
	var v struct{ A int }
	for _, tt := range []struct {
		name   string
		client *outbound.Client
		url    string
	}{
		{"a status", outbound.New(outbound.Options{AllowPrivate: true}), withSecrets + "/denied?token=x"},
		{"a cut reply", outbound.New(outbound.Options{AllowPrivate: true}), withSecrets + "/broken?token=x"},
		{"a malformed reply", outbound.New(outbound.Options{AllowPrivate: true}), withSecrets + "/malformed?token=x"},
		{"a refused address", outbound.New(outbound.Options{}), withSecrets + "/?token=x"},
		{"a malformed address", outbound.New(outbound.Options{}), "http://user:pass@exa mple.com/?token=x"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := GetJSON(context.Background(), tt.client, tt.url, nil, &v)
			if err == nil {
				t.Fatal("no error")
			}
			for _, secret := range []string{"user", "pass", "token"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error %q names %q", err, secret)
				}
			}
		})
	}
}
