package alerts

import (
	"cmp"
	"fmt"
	htmltemplate "html/template"
	"math"
	"slices"
	"strings"
	texttemplate "text/template"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/query"
)

// excerptRunes bounds a match's text in an e-mail.
const excerptRunes = 280

// summarySentences is how many cited sentences a daily summary holds.
const summarySentences = 5

// mailMatch is one match as an e-mail shows it.
type mailMatch struct {
	Provider, Author, Time, Excerpt, Terms, PostLink string
}

// citation is one sentence of a summary with the match it is quoted from.
type citation struct {
	Sentence string
	Match    mailMatch
}

type mailData struct {
	Heading    string
	Search     string
	Count      int
	Matches    []mailMatch
	More       int
	Link       string
	Summary    []citation
	Extractive bool
}

var textMail = texttemplate.Must(texttemplate.New("text").Parse(`{{.Heading}}
{{if .Extractive}}
Summary (extractive: sentences quoted from the matches, most representative first):
{{range .Summary}}
- "{{.Sentence}}"
  {{.Match.Provider}}, {{.Match.Author}}, {{.Match.Time}}{{if .Match.PostLink}}: {{.Match.PostLink}}{{end}}
{{else}}
The matches' texts are too short to quote; they are listed below.
{{end}}{{end}}
{{range .Matches}}
{{.Provider}} · {{.Author}} · {{.Time}}
{{.Excerpt}}
{{if .Terms}}Matched: {{.Terms}}
{{end}}{{if .PostLink}}{{.PostLink}}
{{end}}{{end}}
{{if .More}}And {{.More}} more.
{{end}}Open the matches in Sightline: {{.Link}}
`))

var htmlMail = htmltemplate.Must(htmltemplate.New("html").Parse(`<!doctype html>
<html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;max-width:640px">
<h2 style="font-size:18px">{{.Heading}}</h2>
{{if .Extractive}}<h3 style="font-size:15px">Summary</h3>
<p style="color:#52606d;font-size:13px">Extractive: sentences quoted from the matches, most representative first.</p>
{{if .Summary}}<ol>{{range .Summary}}<li style="margin-bottom:8px">“{{.Sentence}}”<br>
<span style="color:#52606d;font-size:13px">{{.Match.Provider}} · {{.Match.Author}} · {{.Match.Time}}{{if .Match.PostLink}} · <a href="{{.Match.PostLink}}">post</a>{{end}}</span></li>{{end}}</ol>
{{else}}<p>The matches' texts are too short to quote; they are listed below.</p>{{end}}{{end}}
{{range .Matches}}<div style="border-top:1px solid #d9e2ec;padding:10px 0">
<div style="color:#52606d;font-size:13px">{{.Provider}} · {{.Author}} · {{.Time}}</div>
<div style="margin:4px 0">{{.Excerpt}}</div>
{{if .Terms}}<div style="font-size:13px">Matched: <b>{{.Terms}}</b></div>{{end}}
{{if .PostLink}}<div style="font-size:13px"><a href="{{.PostLink}}">Original post</a></div>{{end}}
</div>{{end}}
{{if .More}}<p>And {{.More}} more.</p>{{end}}
<p><a href="{{.Link}}">Open the matches in Sightline</a></p>
</body></html>
`))

// render is the e-mail of an alert of the given type over its matches (oldest first).
func render(alertType string, m monitor.Search, entries []monitor.InboxEntry, publicURL string, now time.Time) (mail.Message, error) {
	d := mailData{Search: m.Name, Count: len(entries), Link: inboxLink(publicURL, m.ID)}
	noun := "matches"
	if len(entries) == 1 {
		noun = "match"
	}
	var subject string
	switch alertType {
	case monitor.AlertDigest:
		subject = fmt.Sprintf("Digest: %d %s for “%s”", len(entries), noun, m.Name)
	case monitor.AlertProximity:
		subject = fmt.Sprintf("%d new %s near your locations for “%s”", len(entries), noun, m.Name)
	case monitor.AlertAISummary:
		subject = fmt.Sprintf("Summary of “%s” for %s: %d %s", m.Name, now.AddDate(0, 0, -1).Format("January 2"), len(entries), noun)
		d.Summary, d.Extractive = summarize(entries, summarySentences), true
	default:
		subject = fmt.Sprintf("%d new %s for “%s”", len(entries), noun, m.Name)
	}
	d.Heading = subject
	// Newest first, as the inbox lists them.
	for i := len(entries) - 1; i >= 0 && len(d.Matches) < MaxListed; i-- {
		d.Matches = append(d.Matches, mailMatchOf(entries[i]))
	}
	d.More = len(entries) - len(d.Matches)
	var text, html strings.Builder
	if err := textMail.Execute(&text, d); err != nil {
		return mail.Message{}, err
	}
	if err := htmlMail.Execute(&html, d); err != nil {
		return mail.Message{}, err
	}
	return mail.Message{Subject: subject, Text: text.String(), HTML: html.String()}, nil
}

func mailMatchOf(e monitor.InboxEntry) mailMatch {
	return mailMatch{Provider: e.Post.Provider, Author: author(e), Time: e.PublishedAt.UTC().Format("Jan 2, 2006 15:04 UTC"),
		Excerpt: excerpt(postText(e), excerptRunes), Terms: terms(e.Payload().MatchMeta.MatchedTerms), PostLink: e.Post.PostLink}
}

func author(e monitor.InboxEntry) string {
	switch {
	case e.Post.AuthorName != "":
		return e.Post.AuthorName
	case e.Post.AuthorScreenName != "":
		return e.Post.AuthorScreenName
	}
	return "unknown author"
}

func postText(e monitor.InboxEntry) string {
	return strings.TrimSpace(strings.Join(slices.DeleteFunc([]string{e.Post.TitleText, e.Post.ContentText},
		func(s string) bool { return s == "" }), " — "))
}

func excerpt(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	return strings.TrimSpace(string(r)) + "…"
}

func terms(hits []query.Hit) string {
	var out []string
	for _, h := range hits {
		if !slices.Contains(out, h.Term) {
			out = append(out, h.Term)
		}
	}
	return strings.Join(out, ", ")
}

func htmlEscape(s string) string { return htmltemplate.HTMLEscapeString(s) }

// summarize picks the sentences that best represent the matches: each sentence scores by how
// common its words are across all the matches' texts (a centroid), normalised by length, at
// most one sentence a post, so the summary spans posts. Every sentence is quoted verbatim and
// cited; nothing is written that a post did not say.
func summarize(entries []monitor.InboxEntry, n int) []citation {
	type candidate struct {
		sentence string
		entry    int
		score    float64
	}
	freq := map[string]int{}
	var candidates []candidate
	for i, e := range entries {
		seen := map[string]bool{}
		for _, sentence := range sentences(postText(e)) {
			for _, w := range words(sentence) {
				if !seen[w] {
					seen[w] = true
					freq[w]++
				}
			}
			candidates = append(candidates, candidate{sentence: sentence, entry: i})
		}
	}
	for i, c := range candidates {
		ws := words(c.sentence)
		if len(ws) < 3 {
			continue // too short to say anything
		}
		var sum float64
		for _, w := range ws {
			sum += float64(freq[w])
		}
		candidates[i].score = sum / math.Sqrt(float64(len(ws)))
	}
	slices.SortStableFunc(candidates, func(a, b candidate) int { return cmp.Compare(b.score, a.score) })
	var out []citation
	used := map[int]bool{}
	for _, c := range candidates {
		if len(out) == n || c.score == 0 {
			break
		}
		if used[c.entry] {
			continue
		}
		used[c.entry] = true
		out = append(out, citation{Sentence: excerpt(c.sentence, excerptRunes), Match: mailMatchOf(entries[c.entry])})
	}
	return out
}

// sentences splits text after ., ! or ? followed by a space, and at line breaks.
func sentences(text string) []string {
	var out []string
	start := 0
	runes := []rune(text)
	for i, r := range runes {
		end := r == '\n' || ((r == '.' || r == '!' || r == '?') && (i+1 == len(runes) || unicode.IsSpace(runes[i+1])))
		if end || i+1 == len(runes) {
			if s := strings.TrimSpace(string(runes[start : i+1])); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	return out
}

// words are a sentence's lowercased words of four letters or more (short words are mostly
// grammar).
func words(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if utf8.RuneCountInString(w) >= 4 {
			out = append(out, w)
		}
	}
	return out
}
