// Command contracts writes the web app's generated contracts (web/src/api/contracts.gen.ts) from
// the Go definitions listed in internal/contracts. Run it from the repository's root with
// `make contracts` (or `go run ./cmd/contracts`); the file is committed, and a test in
// internal/contracts fails when it is out of date.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/sightline/sightline/internal/contracts"
)

func main() {
	out := flag.String("o", contracts.OutputPath, "the file to write")
	flag.Parse()
	ts, err := contracts.Generate(contracts.Sightline(), os.DirFS("."))
	if err == nil {
		err = os.WriteFile(*out, ts, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
