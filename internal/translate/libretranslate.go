package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// backendTimeout bounds one call to the translation server; a long post on a small CPU-only
// LibreTranslate takes seconds.
const backendTimeout = 45 * time.Second

// maxReplyBytes bounds the server's reply: a translation is a few times its text at most.
const maxReplyBytes = 1 << 20

// LibreTranslate is a client of a LibreTranslate-compatible server (POST /translate with q,
// source, target, format and api_key; the reply's translatedText or error). The server is the
// operator's, trusted like the database: it is not called through internal/outbound.
type LibreTranslate struct {
	endpoint string
	key      string
	http     *http.Client
}

// NewLibreTranslate returns a client of the server at base (http or https, with or without a
// path prefix); key is its API key, empty when it needs none.
func NewLibreTranslate(base, key string) (*LibreTranslate, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("translate url %q: not an absolute http or https address", base)
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/translate"
	return &LibreTranslate{endpoint: u.String(), key: key, http: &http.Client{Timeout: backendTimeout}}, nil
}

type libreRequest struct {
	Q      string `json:"q"`
	Source string `json:"source"`
	Target string `json:"target"`
	Format string `json:"format"`
	APIKey string `json:"api_key,omitempty"`
}

type libreReply struct {
	TranslatedText *string `json:"translatedText"`
	Error          string  `json:"error"`
}

// Translate sends one text.
func (l *LibreTranslate) Translate(ctx context.Context, text, source, target, format string) (string, error) {
	body, err := json.Marshal(libreRequest{Q: text, Source: source, Target: target, Format: format, APIKey: l.key})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.endpoint, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := l.http.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // the address may carry a key in its query: say what failed, not where
		}
		return "", fmt.Errorf("could not reach it (%v)", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes+1))
	if err != nil {
		return "", fmt.Errorf("its reply broke off (%v)", err)
	}
	if len(raw) > maxReplyBytes {
		return "", errors.New("its reply is too large")
	}
	var reply libreReply
	jsonErr := json.Unmarshal(raw, &reply)
	if resp.StatusCode != http.StatusOK {
		if jsonErr == nil && reply.Error != "" {
			return "", fmt.Errorf("%s (HTTP %d)", reply.Error, resp.StatusCode)
		}
		return "", fmt.Errorf("it answered HTTP %d", resp.StatusCode)
	}
	if jsonErr != nil || reply.TranslatedText == nil {
		return "", errors.New("its reply has no translatedText")
	}
	return *reply.TranslatedText, nil
}
