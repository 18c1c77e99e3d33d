package auth

import (
	"context"
	"strings"

	"github.com/sightline/sightline/internal/authz"
)

// Sessions are the user's open sessions, the most recently used first.
func (s *Service) Sessions(ctx context.Context, id Identity) ([]Session, error) {
	if err := authz.CanEndSession(id.Actor(), id.User.ID); err != nil {
		return nil, err
	}
	all, err := s.store.UserSessions(ctx, id.User.ID)
	if err != nil {
		return nil, err
	}
	now := s.now()
	open := all[:0]
	for _, sess := range all {
		if sess.open(now) {
			open = append(open, sess)
		}
	}
	return open, nil
}

// EndSession signs one of the user's sessions out at once: its next request is refused and its
// live sockets close.
func (s *Service) EndSession(ctx context.Context, id Identity, sessionID int64) error {
	sess, err := s.store.Session(ctx, sessionID)
	if err != nil {
		return err
	}
	if err := authz.CanEndSession(id.Actor(), sess.UserID); err != nil {
		return err
	}
	return s.end(ctx, sess)
}

// EndOtherSessions signs out every session of the user but the one making the request; it
// returns how many ended.
func (s *Service) EndOtherSessions(ctx context.Context, id Identity) (int, error) {
	all, err := s.Sessions(ctx, id)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, sess := range all {
		if sess.ID == id.SessionID {
			continue
		}
		if err := s.end(ctx, sess); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func (s *Service) end(ctx context.Context, sess Session) error {
	if err := s.store.DeleteSession(ctx, sess.ID); err != nil {
		return err
	}
	if s.sessionEnded != nil {
		s.sessionEnded(ctx, sess)
	}
	return nil
}

// Device names the browser and system of a User-Agent in a few words ("Firefox on Linux").
func Device(userAgent string) string {
	browser := "Unknown browser"
	for _, b := range []struct{ marker, name string }{
		{"Edg/", "Edge"}, {"OPR/", "Opera"}, {"Firefox/", "Firefox"}, {"Chrome/", "Chrome"},
		{"Chromium/", "Chromium"}, {"Safari/", "Safari"}, {"curl/", "curl"},
	} {
		if strings.Contains(userAgent, b.marker) {
			browser = b.name
			break
		}
	}
	for _, o := range []struct{ marker, name string }{
		{"Windows", "Windows"}, {"iPhone", "iPhone"}, {"iPad", "iPad"}, {"Android", "Android"},
		{"Mac OS X", "macOS"}, {"CrOS", "ChromeOS"}, {"Linux", "Linux"},
	} {
		if strings.Contains(userAgent, o.marker) {
			return browser + " on " + o.name
		}
	}
	return browser
}

// EndAccess stops everything the user signed in with, at once: every session ends (its live
// sockets close) and every API token is revoked. It is how a removed member is shut out.
func (s *Service) EndAccess(ctx context.Context, userID int64) error {
	sessions, err := s.store.UserSessions(ctx, userID)
	if err != nil {
		return err
	}
	for _, sess := range sessions {
		if err := s.end(ctx, sess); err != nil {
			return err
		}
	}
	tokens, err := s.store.APITokens(ctx, userID)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	for _, t := range tokens {
		if t.RevokedAt.IsZero() {
			if err := s.store.RevokeAPIToken(ctx, userID, t.ID, now); err != nil {
				return err
			}
		}
	}
	return nil
}
