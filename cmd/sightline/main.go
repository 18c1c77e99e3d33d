// Command sightline is the whole Sightline application: the HTTP server with its embedded web
// app, the store, the stream and the command-line tools around them.
package main

import (
	"fmt"
	"os"
)

// command is one subcommand: its name, a one-line summary and what runs it.
type command struct {
	name    string
	summary string
	run     func(args []string) error
}

func commands() []command {
	return []command{
		{"serve", "run the server with the embedded web app", runServe},
		{"migrate", "apply the store's migrations", runMigrate},
		{"user", "user create|reset-mfa: add a user (and organization), reset two-step verification", runUser},
		{"token", "token create: make a long-lived API token", runToken},
		{"ingest", "send posts from a file to a running server", runIngest},
		{"query", "query check QUERY | query match: validate and match keyword queries", runQuery},
		{"evidence", "evidence verify FILE: check an evidence bundle or case export offline", runEvidence},
		{"bench", "bench percolate: measure the percolator", runBench},
		{"eval", "eval: score threat, language and places on the labelled sets", runEval},
		{"version", "print the version", runVersion},
	}
}

var version = "dev"

func runVersion(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("version: unexpected argument %q", args[0])
	}
	fmt.Println("sightline", version)
	return nil
}

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	for _, c := range commands() {
		if c.name == os.Args[1] {
			if err := c.run(os.Args[2:]); err != nil {
				fmt.Fprintln(os.Stderr, "sightline:", err)
				os.Exit(1)
			}
			return
		}
	}
	usage()
	os.Exit(2)
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: sightline <command> [flags]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(os.Stderr, "  %-10s %s\n", c.name, c.summary)
	}
}
