package api

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/imageproxy"
)

const imageProxyPrefix = "/proxy/images/"

// proxyImage serves a post's picture from its host: /proxy/images/{url} or
// /proxy/images/{width}x/{url}, the address URL-encoded as one path segment. Signed-in users
// only, so the server is no open proxy.
func (a *API) proxyImage(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	// The escaped path keeps the address's own slashes apart from the route's.
	target, width, err := imageproxy.ParsePath(strings.TrimPrefix(r.URL.EscapedPath(), imageProxyPrefix))
	if err != nil {
		return err
	}
	pic, err := a.ImageProxy.Open(r.Context(), id.User.ID, target, width)
	if err != nil {
		return err
	}
	defer pic.Close()
	h := w.Header()
	h.Set("Content-Type", pic.ContentType)
	if pic.Length >= 0 {
		h.Set("Content-Length", strconv.FormatInt(pic.Length, 10))
	}
	h.Set("Cache-Control", "private, max-age=86400")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	if r.Method == http.MethodHead {
		return nil
	}
	if err := pic.Send(w, http.NewResponseController(w).SetWriteDeadline); err != nil {
		// Part of the picture may be out: cut the connection, so that the browser does not
		// take what it got for the whole picture.
		panic(http.ErrAbortHandler)
	}
	return nil
}
