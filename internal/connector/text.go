package connector

import (
	"html"
	"strings"
)

// PlainText turns the HTML fragments that APIs and feeds put in their text fields (Hacker News
// comments, Mastodon statuses, RSS descriptions) into plain text: paragraphs and line breaks
// become new lines, tags go, entities are decoded, script and style bodies are dropped.
func PlainText(fragment string) string {
	var b strings.Builder
	rest := fragment
	for {
		lt := strings.IndexByte(rest, '<')
		if lt < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:lt])
		gt := strings.IndexByte(rest[lt:], '>')
		if gt < 0 { // a lone "<" is text
			b.WriteString(rest[lt:])
			break
		}
		raw := strings.TrimSpace(rest[lt+1 : lt+gt])
		closing := strings.HasPrefix(raw, "/")
		name, _, _ := strings.Cut(strings.ToLower(strings.Trim(raw, "/ ")), " ")
		rest = rest[lt+gt+1:]
		switch name {
		case "br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre":
			b.WriteString("\n")
		case "script", "style":
			if closing {
				break
			}
			if end := strings.Index(strings.ToLower(rest), "</"+name); end >= 0 {
				rest = rest[end:]
			} else {
				rest = "" // an unclosed script runs to the end
			}
		}
	}
	return tidyLines(html.UnescapeString(b.String()))
}

// tidyLines trims each line, collapses runs of spaces and keeps at most one blank line in a row.
func tidyLines(s string) string {
	var out []string
	blank := true // no blank lines at the start
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			if !blank {
				out = append(out, "")
			}
			blank = true
			continue
		}
		out = append(out, line)
		blank = false
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}
