package connector

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
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

	var v struct{ A int }
	if err := GetJSON(ctx, srv.Client(), srv.URL+"/ok", auth, &v); err != nil || v.A != 1 {
		t.Fatalf("GetJSON /ok = %v, %+v", err, v)
	}

	err := GetJSON(ctx, srv.Client(), srv.URL+"/limited", nil, &v)
	var h *HTTPError
	if !errors.As(err, &h) || h.StatusCode != 429 {
		t.Fatalf("GetJSON /limited = %v, want a 429 HTTPError", err)
	}
	if d, ok := RetryAfter(err); !ok || d != 7*time.Second {
		t.Fatalf("RetryAfter = %v, %v; want 7s", d, ok)
	}

	resp, err := Get(ctx, srv.Client(), srv.URL+"/notmodified", nil)
	if err != nil || resp.StatusCode != http.StatusNotModified {
		t.Fatalf("Get /notmodified = %v, %v", resp, err)
	}
	resp.Body.Close()

	if err := GetJSON(ctx, srv.Client(), srv.URL+"/broken", nil, &v); err == nil {
		t.Fatal("GetJSON of a cut reply succeeded")
	}
	if _, ok := RetryAfter(GetJSON(ctx, srv.Client(), srv.URL+"/missing", nil, &v)); ok {
		t.Fatal("a 404 carries no Retry-After")
	}
}
