package api

import (
	"net/http"
	"time"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/problem"
)

func (a *API) healthz(w http.ResponseWriter, r *http.Request) error {
	if err := a.Health(r.Context()); err != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "error": err.Error()})
		return nil
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

type tokenReply struct {
	Token     string        `json:"token"`
	ExpiresAt int64         `json:"expiresAt"`
	User      *profileReply `json:"user,omitempty"`
}

func (a *API) login(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Email    string `json:"email"`
		Password string `json:"password"`
		OTP      string `json:"otp"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	return a.signIn(w, r, auth.Credentials{Email: body.Email, Password: body.Password,
		OTP: body.OTP, IP: clientIP(r), UserAgent: r.UserAgent()})
}

// signIn starts a session for the credentials: the session cookie, a bearer token and the profile.
func (a *API) signIn(w http.ResponseWriter, r *http.Request, c auth.Credentials) error {
	login, err := a.Auth.Login(r.Context(), c)
	if err != nil {
		return err
	}
	// The cookie lasts as long as the session may; the server ends the session sooner when idle.
	http.SetCookie(w, &http.Cookie{Name: auth.SessionCookie, Value: login.SessionToken, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: isHTTPS(r), Expires: time.Now().Add(auth.SessionMaxAge)})
	profile, err := a.Accounts.Profile(r.Context(), login.Identity.User.ID)
	if err != nil {
		return err
	}
	reply := a.profileJSON(profile)
	w.Header().Set("Authorization", "Bearer "+login.Bearer.Token)
	return ok(w, tokenReply{Token: login.Bearer.Token, ExpiresAt: login.Bearer.ExpiresAt.Unix(), User: &reply})
}

// refreshToken gives the browser session behind the session cookie a fresh bearer token. Only
// the cookie with the anti-forgery echo buys one, never a bearer token alone: a stolen bearer
// cannot keep itself alive.
func (a *API) refreshToken(w http.ResponseWriter, r *http.Request) error {
	c, err := r.Cookie(auth.SessionCookie)
	if err != nil || c.Value == "" {
		return problem.Unauthenticated(auth.MsgUnauthenticated)
	}
	if err := antiForgeryEcho(r); err != nil {
		return err
	}
	bearer, err := a.Auth.RefreshBearer(r.Context(), c.Value)
	if err != nil {
		return err
	}
	w.Header().Set("Authorization", "Bearer "+bearer.Token)
	return ok(w, tokenReply{Token: bearer.Token, ExpiresAt: bearer.ExpiresAt.Unix()})
}

// logout ends the session (a full browser load) and sends the browser to sign-in. It is a GET
// (the spec links to it), so it acts only on the app's own link or a typed address: a
// navigation another site started leaves the session alone. A client that sends no
// Sec-Fetch-Site is no modern browser, so its request is taken as direct.
func (a *API) logout(w http.ResponseWriter, r *http.Request) error {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "none", "same-origin":
		if c, err := r.Cookie(auth.SessionCookie); err == nil {
			if err := a.Auth.Logout(r.Context(), c.Value); err != nil {
				return err
			}
		}
		http.SetCookie(w, &http.Cookie{Name: auth.SessionCookie, Value: "", Path: "/", HttpOnly: true,
			SameSite: http.SameSiteLaxMode, Secure: isHTTPS(r), MaxAge: -1})
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, "/login", http.StatusFound)
	return nil
}
