package api

import (
	"io/fs"
	"net/http"
	"strings"
)

// AppHandler serves the built web app: its files as they are, and index.html for every other
// path so the app's history routing can take over. Without a build it says how to make one.
func AppHandler(app fs.FS, built bool) http.Handler {
	if !built {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`<!doctype html><title>Sightline</title><h1>The web app is not built</h1>
<p>This binary was built without the web app. Run <code>make build</code> and start it again.
The API is available under <code>/api/v1/</code>.</p>`))
		})
	}
	files := http.FileServerFS(app)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name != "" && name != "index.html" {
			if info, err := fs.Stat(app, name); err == nil && !info.IsDir() {
				if strings.HasPrefix(name, "assets/") {
					// Vite fingerprints asset names, so they never change.
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				}
				files.ServeHTTP(w, r)
				return
			}
		}
		index, err := fs.ReadFile(app, "index.html")
		if err != nil {
			http.Error(w, "index.html missing from the web build", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(index)
	})
}
