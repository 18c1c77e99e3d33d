package connector

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/outbound"
)

// UserAgent identifies Sightline to the APIs it reads.
const UserAgent = "Sightline/1 (+https://github.com/sightline/sightline)"

// HTTPError is a reply with a status other than 2xx or 304.
type HTTPError struct {
	// URL is the address asked for; Error names it without credentials or query string.
	URL        string
	StatusCode int
	// RetryAfter is the wait the server asked for (Retry-After, or Mastodon's X-RateLimit-Reset),
	// zero when it asked for none.
	RetryAfter time.Duration
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("GET %s: %d %s", outbound.RedactURL(e.URL), e.StatusCode, http.StatusText(e.StatusCode))
}

// RetryAfter returns the wait a rate-limited server asked for, if err carries one.
func RetryAfter(err error) (time.Duration, bool) {
	var h *HTTPError
	if errors.As(err, &h) && h.RetryAfter > 0 {
		return h.RetryAfter, true
	}
	return 0, false
}

// Get fetches url. The caller closes the body of the reply it returns; replies other than 2xx
// and 304 Not Modified become an *HTTPError. No error names the address's credentials or query.
func Get(ctx context.Context, client *outbound.Client, url string, header http.Header) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, outbound.RedactError(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("User-Agent", UserAgent)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 == 2 || resp.StatusCode == http.StatusNotModified {
		return resp, nil
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
	resp.Body.Close()
	return nil, NewHTTPError(url, resp)
}

// NewHTTPError describes a failed reply to a request for url, with the wait it asked for.
func NewHTTPError(url string, resp *http.Response) *HTTPError {
	return &HTTPError{URL: url, StatusCode: resp.StatusCode, RetryAfter: retryAfter(resp.Header, time.Now())}
}

// GetJSON fetches url and decodes its JSON reply into v.
func GetJSON(ctx context.Context, client *outbound.Client, url string, header http.Header, v any) error {
	resp, err := Get(ctx, client, url, header)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		var syntax *json.SyntaxError
		var mistyped *json.UnmarshalTypeError
		if errors.As(err, &syntax) || errors.As(err, &mistyped) {
			return fmt.Errorf("GET %s: %w: %v", outbound.RedactURL(url), ErrMalformed, err)
		}
		// A reply cut short by the network, or too large, is a failure to retry, not a
		// malformed item.
		return fmt.Errorf("GET %s: reading the reply: %w", outbound.RedactURL(url), err)
	}
	return nil
}

// ErrMalformed marks a reply that arrived whole but is not the JSON the source expects: the
// item is skipped, not retried.
var ErrMalformed = errors.New("malformed reply")

// retryAfter reads the wait a server asked for: Retry-After in seconds or as an HTTP date, or
// failing that X-RateLimit-Reset as an ISO 8601 time (Mastodon).
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if secs, err := strconv.Atoi(v); err == nil {
			return max(0, time.Duration(secs)*time.Second)
		}
		if at, err := http.ParseTime(v); err == nil {
			return max(0, at.Sub(now))
		}
	}
	if v := strings.TrimSpace(h.Get("X-RateLimit-Reset")); v != "" {
		if at, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return max(0, at.Sub(now))
		}
	}
	return 0
}
