package connector

import (
	"regexp"
	"strings"
)

// addressPattern finds the addresses in a text: a scheme, "://" and what follows up to a space,
// a quote or a bracket.
var addressPattern = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.\-]*://[^\s"'<>()\[\]{}]+`)

// RedactText keeps of every address in text (an error of a source, shown in its health and the
// ingest stats, or logged) its scheme and host only: a path or a query string may hold a
// token (a private feed's address), and user information is a password.
func RedactText(text string) string {
	return addressPattern.ReplaceAllStringFunc(text, func(address string) string {
		// Punctuation that ends a sentence or precedes a status ("GET https://x/feed: 404") is
		// the text's, not the address's.
		trimmed := strings.TrimRight(address, ".,;:!")
		trail := address[len(trimmed):]
		scheme, rest, _ := strings.Cut(trimmed, "://")
		host := rest
		if i := strings.IndexAny(host, "/?#"); i >= 0 {
			host = host[:i]
		}
		if i := strings.LastIndex(host, "@"); i >= 0 {
			host = host[i+1:]
		}
		return scheme + "://" + host + trail
	})
}
