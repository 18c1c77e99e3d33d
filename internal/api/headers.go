package api

import (
	"net/http"
	"strings"

	"github.com/sightline/sightline/internal/basemap"
)

// contentSecurityPolicy lets the page run only the app's own scripts, load pictures only from
// itself (the image proxy included), data: and blob: URLs and the operator's tile server, fetch
// only from itself and the operator's vector tile server, and never be framed. MUI's emotion
// injects <style> elements at run time, hence 'unsafe-inline' for styles only. The live socket
// is added per request: it connects to the host the page came from.
func contentSecurityPolicy(m *basemap.Map) string {
	source := func(origin string) string {
		if origin == "" {
			return ""
		}
		return " " + origin
	}
	return "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob:" + source(m.ImageOrigin()) + "; font-src 'self'; object-src 'none'; base-uri 'self'; " +
		"form-action 'self'; frame-ancestors 'none'; connect-src 'self'" + source(m.ConnectOrigin())
}

// securityHeaders sets the headers every response carries. A handler may set a stricter policy
// of its own (the image proxy does). Referrer-Policy no-referrer: an analyst who follows a link
// out of Sightline must not tell the monitored site where they came from, and nothing here reads
// the Referer.
func securityHeaders(policy string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		p := policy
		if validHost(r.Host) {
			p += " ws://" + r.Host + " wss://" + r.Host
		}
		h.Set("Content-Security-Policy", p)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
}

// validHost reports whether a Host header is a plain host[:port] that can go into the policy
// as it is (nothing that could end a directive or add a source).
func validHost(host string) bool {
	return host != "" && !strings.ContainsFunc(host, func(c rune) bool {
		return !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.ContainsRune(".-:[]", c))
	})
}
