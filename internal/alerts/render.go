package alerts

import (
	"context"
	"fmt"
	htmltemplate "html/template"
	"slices"
	"strings"
	texttemplate "text/template"
	"time"

	"github.com/sightline/sightline/internal/assistant"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
)

// excerptRunes bounds a match's text in an e-mail.
const excerptRunes = 280

// summarySentences is how many cited sentences a daily summary holds.
const summarySentences = 5

// mailMatch is one match as an e-mail shows it.
type mailMatch struct {
	Provider, Author, Time, Excerpt, Terms, PostLink string
	// StoryMore is how many more of the message's matches are in this one's story, when the
	// alert groups by story (a digest lists the newest of each story).
	StoryMore int
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
	Summarized bool
	// Model is the language model that wrote the summary; "" when it is quoted (extractive).
	Model string
}

var textMail = texttemplate.Must(texttemplate.New("text").Parse(`{{.Heading}}
{{if .Summarized}}
{{if .Model}}Summary (written by the language model {{.Model}} from the matches; each sentence names its source):{{else}}Summary (extractive: sentences quoted from the matches, most representative first):{{end}}
{{range .Summary}}
- {{if $.Model}}{{.Sentence}}{{else}}"{{.Sentence}}"{{end}}
  {{.Match.Provider}}, {{.Match.Author}}, {{.Match.Time}}{{if .Match.PostLink}}: {{.Match.PostLink}}{{end}}
{{else}}
The matches' texts are too short to quote; they are listed below.
{{end}}{{end}}
{{range .Matches}}
{{.Provider}} · {{.Author}} · {{.Time}}
{{.Excerpt}}
{{if .StoryMore}}And {{.StoryMore}} more of this story.
{{end}}{{if .Terms}}Matched: {{.Terms}}
{{end}}{{if .PostLink}}{{.PostLink}}
{{end}}{{end}}
{{if .More}}And {{.More}} more.
{{end}}Open the matches in Sightline: {{.Link}}
`))

var htmlMail = htmltemplate.Must(htmltemplate.New("html").Parse(`<!doctype html>
<html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;max-width:640px">
<h2 style="font-size:18px">{{.Heading}}</h2>
{{if .Summarized}}<h3 style="font-size:15px">Summary</h3>
<p style="color:#52606d;font-size:13px">{{if .Model}}Written by the language model {{.Model}} from the matches; each sentence names its source.{{else}}Extractive: sentences quoted from the matches, most representative first.{{end}}</p>
{{if .Summary}}<ol>{{range .Summary}}<li style="margin-bottom:8px">{{if $.Model}}{{.Sentence}}{{else}}“{{.Sentence}}”{{end}}<br>
<span style="color:#52606d;font-size:13px">{{.Match.Provider}} · {{.Match.Author}} · {{.Match.Time}}{{if .Match.PostLink}} · <a href="{{.Match.PostLink}}">post</a>{{end}}</span></li>{{end}}</ol>
{{else}}<p>The matches' texts are too short to quote; they are listed below.</p>{{end}}{{end}}
{{range .Matches}}<div style="border-top:1px solid #d9e2ec;padding:10px 0">
<div style="color:#52606d;font-size:13px">{{.Provider}} · {{.Author}} · {{.Time}}</div>
<div style="margin:4px 0">{{.Excerpt}}</div>
{{if .StoryMore}}<div style="font-size:13px;color:#52606d">And {{.StoryMore}} more of this story.</div>{{end}}
{{if .Terms}}<div style="font-size:13px">Matched: <b>{{.Terms}}</b></div>{{end}}
{{if .PostLink}}<div style="font-size:13px"><a href="{{.PostLink}}">Original post</a></div>{{end}}
</div>{{end}}
{{if .More}}<p>And {{.More}} more.</p>{{end}}
<p><a href="{{.Link}}">Open the matches in Sightline</a></p>
</body></html>
`))

// Summarizer writes daily summaries (the assistant's engine).
type Summarizer interface {
	Model() string
	Summarize(ctx context.Context, posts []post.Post, n int) (assistant.Answer, error)
}

// render is the e-mail of an alert of the given type over its matches (oldest first), summaries
// by the extractive engine.
func render(alertType string, m monitor.Search, entries []monitor.InboxEntry, publicURL string, now time.Time) (mail.Message, error) {
	return renderWith(context.Background(), nil, alertType, monitor.GroupingPost, m, entries, publicURL, now)
}

// renderWith is render with summaries by engine (nil: the extractive engine). With story
// grouping, the message lists the newest match of each story, saying how many more it has.
func renderWith(ctx context.Context, engine Summarizer, alertType, grouping string, m monitor.Search, entries []monitor.InboxEntry, publicURL string, now time.Time) (mail.Message, error) {
	d := mailData{Search: m.Name, Count: len(entries), Link: inboxLink(publicURL, m.ID)}
	noun := "matches"
	if len(entries) == 1 {
		noun = "match"
	}
	listed, more := entries, map[int64]int{}
	if grouping == monitor.GroupingStory {
		listed, more = newestOfEachStory(entries)
		if len(listed) > 1 {
			noun += fmt.Sprintf(" in %d stories", len(listed))
		}
	}
	// The search's name is the user's text: it follows the product's wording, quoted and bounded.
	name := mail.Quote(m.Name, mail.SubjectRunes)
	var subject string
	switch alertType {
	case monitor.AlertDigest:
		subject = fmt.Sprintf("Digest: %d %s for %s", len(entries), noun, name)
	case monitor.AlertProximity:
		subject = fmt.Sprintf("%d new %s near your locations for %s", len(entries), noun, name)
	case monitor.AlertAISummary:
		subject = fmt.Sprintf("Summary for %s: %d %s for %s", now.AddDate(0, 0, -1).Format("January 2"), len(entries), noun, name)
		d.Summary, d.Model = summarize(ctx, engine, entries, summarySentences)
		d.Summarized = true
	default:
		subject = fmt.Sprintf("%d new %s for %s", len(entries), noun, name)
	}
	d.Heading = subject
	// Newest first, as the inbox lists them.
	for i := len(listed) - 1; i >= 0 && len(d.Matches) < MaxListed; i-- {
		mm := mailMatchOf(listed[i])
		mm.StoryMore = more[listed[i].ID]
		d.Matches = append(d.Matches, mm)
	}
	d.More = len(listed) - len(d.Matches)
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

func postText(e monitor.InboxEntry) string { return assistant.Text(e.Post) }

func excerpt(s string, n int) string { return assistant.Excerpt(s, n) }

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

// summaryPosts bounds the matches a language model is given to summarize: the most
// representative ones, as the extractive engine ranks them.
const summaryPosts = 30

// summarize is the daily summary of the matches by the engine: cited sentences, each with the
// match it comes from. The extractive engine quotes, one sentence a match, the most
// representative first; a language model is given the most representative matches and its
// uncited sentences are dropped. A model that fails leaves the summary to the extractive engine
// (model "" in the reply), so the day's e-mail still goes out.
func summarize(ctx context.Context, engine Summarizer, entries []monitor.InboxEntry, n int) ([]citation, string) {
	posts := make([]post.Post, len(entries))
	for i, e := range entries {
		posts[i] = e.Post
	}
	extractive, _ := assistant.Extractive{}.Summarize(ctx, posts, n)
	if engine == nil || engine.Model() == assistant.ExtractiveModel {
		return citations(extractive.Sentences, entries, posts), ""
	}
	ranked, _ := assistant.Extractive{}.Summarize(ctx, posts, summaryPosts)
	chosen := make([]monitor.InboxEntry, 0, len(ranked.Sentences))
	given := make([]post.Post, 0, len(ranked.Sentences))
	for _, c := range ranked.Sentences {
		chosen, given = append(chosen, entries[c.Cites[0]-1]), append(given, posts[c.Cites[0]-1])
	}
	if len(given) == 0 {
		return citations(extractive.Sentences, entries, posts), "" // nothing long enough to summarize
	}
	written, err := engine.Summarize(ctx, given, n)
	if out := citations(written.Sentences, chosen, given); err == nil && len(out) > 0 {
		return out, engine.Model()
	}
	return citations(extractive.Sentences, entries, posts), ""
}

// citations pairs each cited sentence with the first match it cites; uncited sentences go.
func citations(sentences []assistant.Cited, entries []monitor.InboxEntry, posts []post.Post) []citation {
	var out []citation
	for _, c := range sentences {
		i := slices.IndexFunc(c.Cites, func(n int) bool { return n >= 1 && n <= len(posts) })
		if i < 0 || strings.TrimSpace(c.Text) == "" {
			continue
		}
		out = append(out, citation{Sentence: excerpt(c.Text, excerptRunes), Match: mailMatchOf(entries[c.Cites[i]-1])})
	}
	return out
}
