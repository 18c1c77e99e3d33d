// Package web holds the built React app (web/dist/app, made by `npm run build`) for embedding
// into the binary. A Go build without the web build still compiles; App then reports false.
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// App returns the built app's files and whether a build is present.
func App() (fs.FS, bool) {
	app, err := fs.Sub(dist, "dist/app")
	if err != nil {
		return nil, false
	}
	if _, err := fs.Stat(app, "index.html"); err != nil {
		return nil, false
	}
	return app, true
}
