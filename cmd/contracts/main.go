// Command contracts writes the web app's generated files from the Go definitions listed in
// internal/contracts: the contracts (web/src/api/contracts.gen.ts) and the alert channels the
// web tests are given (web/src/test/alertChannels.json). Run it from the repository's root with
// `make contracts` (or `go run ./cmd/contracts`); the files are committed, and a test in
// internal/contracts fails when one is out of date.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/sightline/sightline/internal/contracts"
)

func main() {
	files, err := contracts.Files(os.DirFS("."))
	for path, body := range files {
		if err != nil {
			break
		}
		// An unchanged file is left alone: make test runs Vitest, which reads it, while the build
		// runs this again.
		if old, readErr := os.ReadFile(path); readErr == nil && bytes.Equal(old, body) {
			continue
		}
		err = os.WriteFile(path, body, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
