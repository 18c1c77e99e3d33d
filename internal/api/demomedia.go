package api

import (
	"fmt"
	"hash/fnv"
	"html"
	"net/http"
	"slices"
	"strings"

	"github.com/sightline/sightline/internal/connector/simulator"
)

// demoMedia serves the simulator's pictures as SVG placeholders that say plainly they are demo
// images: a coloured card with the scene's name, or an avatar with initials.
func (a *API) demoMedia(w http.ResponseWriter, r *http.Request) error {
	name, ok := strings.CutSuffix(r.PathValue("name"), ".svg")
	if !ok || !slices.Contains(simulator.MediaNames, name) {
		http.NotFound(w, r)
		return nil
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	hue := h.Sum32() % 360
	var svg string
	if strings.HasPrefix(name, "avatar-") {
		svg = fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">`+
			`<rect width="96" height="96" rx="48" fill="hsl(%d,45%%,45%%)"/>`+
			`<text x="48" y="58" font-family="sans-serif" font-size="30" fill="#fff" text-anchor="middle">%s</text></svg>`,
			hue, strings.TrimPrefix(name, "avatar-"))
	} else {
		label := html.EscapeString(strings.ReplaceAll(name, "-", " "))
		svg = fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400" viewBox="0 0 640 400">`+
			`<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(%d,50%%,40%%)"/>`+
			`<stop offset="1" stop-color="hsl(%d,50%%,22%%)"/></linearGradient></defs>`+
			`<rect width="640" height="400" fill="url(#g)"/>`+
			`<text x="320" y="200" font-family="sans-serif" font-size="40" fill="#fff" text-anchor="middle">%s</text>`+
			`<text x="320" y="250" font-family="sans-serif" font-size="20" fill="#fff" fill-opacity="0.75" text-anchor="middle">Demo image</text></svg>`,
			hue, (hue+40)%360, label)
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Write([]byte(svg))
	return nil
}
