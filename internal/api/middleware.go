package api

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/basemap"
	"github.com/sightline/sightline/internal/problem"
)

// Anti-forgery: every response that lacks it sets a readable XSRF-TOKEN cookie; a
// state-changing request authenticated by the session cookie must echo it in X-XSRF-TOKEN.
// Bearer-authenticated requests need no echo, since a forged cross-site request cannot set the
// Authorization header.
const (
	xsrfCookie = "XSRF-TOKEN"
	xsrfHeader = "X-XSRF-TOKEN"
)

var errAntiForgery = errors.New("anti-forgery token missing or wrong")

type identityKey struct{}

// identified is what identify found: an identity, or the reason presented credentials failed.
type identified struct {
	id  auth.Identity
	err error
}

// identify recognises the caller from the bearer header or, failing that, the session cookie.
func (a *API) identify(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var found *identified
		if value, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && value != "" {
			id, err := a.Auth.BearerIdentity(r.Context(), strings.TrimSpace(value))
			found = &identified{id: id, err: err}
		}
		// A browser whose bearer token expired (a laptop that slept) still has its session: fall
		// back to the cookie, which then needs the anti-forgery echo like any cookie request.
		if found == nil || found.err != nil {
			if c, err := r.Cookie(auth.SessionCookie); err == nil && c.Value != "" {
				if id, err := a.Auth.SessionIdentity(r.Context(), c.Value); err == nil || found == nil {
					found = &identified{id: id, err: err}
				}
			}
		}
		if found != nil {
			r = r.WithContext(context.WithValue(r.Context(), identityKey{}, found))
		}
		next.ServeHTTP(w, r)
	})
}

// caller returns the authenticated identity, or a 401 problem.
func caller(r *http.Request) (auth.Identity, error) {
	found, _ := r.Context().Value(identityKey{}).(*identified)
	if found == nil {
		return auth.Identity{}, problem.Unauthenticated(auth.MsgUnauthenticated)
	}
	return found.id, found.err
}

func (a *API) antiForgeryCookie(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie(xsrfCookie); err != nil || len(c.Value) < 32 {
			b := make([]byte, 32)
			rand.Read(b)
			http.SetCookie(w, &http.Cookie{Name: xsrfCookie, Value: base64.RawURLEncoding.EncodeToString(b),
				Path: "/", SameSite: http.SameSiteLaxMode, Secure: isHTTPS(r)})
		}
		next.ServeHTTP(w, r)
	})
}

// checkAntiForgery enforces the echo for state-changing, cookie-authenticated requests.
func checkAntiForgery(r *http.Request, id auth.Identity) error {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	if id.Via != authz.ViaSession {
		return nil
	}
	return antiForgeryEcho(r)
}

// antiForgeryEcho requires the X-XSRF-TOKEN header to echo the XSRF-TOKEN cookie.
func antiForgeryEcho(r *http.Request) error {
	c, err := r.Cookie(xsrfCookie)
	header := r.Header.Get(xsrfHeader)
	if err != nil || header == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(header)) != 1 {
		return errAntiForgery
	}
	return nil
}

// handle adapts a handler that returns an error, bounding it by the request timeout.
func (a *API) handle(fn func(http.ResponseWriter, *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), RequestTimeout)
		defer cancel()
		r = r.WithContext(ctx)
		if err := fn(w, r); err != nil {
			a.writeError(w, r, err)
		}
	}
}

// authenticated requires a caller and the anti-forgery echo; the handler decides access.
func (a *API) authenticated(fn func(http.ResponseWriter, *http.Request, auth.Identity) error) http.HandlerFunc {
	return a.handle(func(w http.ResponseWriter, r *http.Request) error {
		id, err := caller(r)
		if err != nil {
			return err
		}
		if err := checkAntiForgery(r, id); err != nil {
			return err
		}
		return fn(w, r, id)
	})
}

// user requires a caller acting as a user (not a token limited to other scopes).
func (a *API) user(fn func(http.ResponseWriter, *http.Request, auth.Identity) error) http.HandlerFunc {
	return a.authenticated(func(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
		if err := authz.CanUseAPI(id.Actor()); err != nil {
			return err
		}
		return fn(w, r, id)
	})
}

// beaconUser is user for the Beacon API: the subscription must include Beacon.
func (a *API) beaconUser(fn func(http.ResponseWriter, *http.Request, auth.Identity) error) http.HandlerFunc {
	return a.user(func(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
		if err := authz.CanSearchBeacon(id.Actor()); err != nil {
			return err
		}
		return fn(w, r, id)
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection (websockets, flushing).
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (a *API) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		// API calls log at info; a map reads its archive by the dozen ranges, like pictures at debug.
		level := a.Logger.Debug
		if rec.status >= 500 {
			level = a.Logger.Error
		} else if (strings.HasPrefix(r.URL.Path, "/api/") || strings.HasPrefix(r.URL.Path, "/beacon/")) &&
			r.URL.Path != basemap.ArchivePath {
			level = a.Logger.Info
		}
		level("http", "method", r.Method, "path", loggedPath(r.URL.Path), "status", rec.status,
			"duration_ms", time.Since(start).Milliseconds(), "remote", clientIP(r))
	})
}

// loggedPath is the path as logs may keep it: an invitation link's token is a credential until
// used, so it is left out.
func loggedPath(path string) string {
	for _, prefix := range []string{"/api/v1/invitations/", "/invite/"} {
		if rest, found := strings.CutPrefix(path, prefix); found {
			_, tail, _ := strings.Cut(rest, "/")
			if tail != "" {
				tail = "/" + tail
			}
			return prefix + "{token}" + tail
		}
	}
	return path
}

func (a *API) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				a.Logger.Error("panic", "path", r.URL.Path, "panic", v)
				writeJSON(w, http.StatusInternalServerError, map[string]any{"message": "Something went wrong. Please try again."})
			}
		}()
		next.ServeHTTP(w, r)
	})
}
