package alerts

import (
	"cmp"
	"context"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"slices"
	"strings"
	texttemplate "text/template"
	"time"

	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/story"
)

// storyNewest is how many of a story's newest matches its notice lists.
const storyNewest = 5

// storyFacts is a story as its notice tells it.
type storyFacts struct {
	ID          string
	Title       string
	PostCount   int64
	Providers   []story.Count
	Languages   []story.Count
	FirstSeenAt time.Time
	LastSeenAt  time.Time
	Level       int
	Escalation  string
}

// storyOf is the story of a story notice as the search's owner sees it; from the delivery's
// matches alone when the store cannot read it (posts stored before stories).
func (s *Service) storyOf(ctx context.Context, m monitor.Search, d Delivery, entries []monitor.InboxEntry) (storyFacts, error) {
	f := storyFacts{ID: d.StoryID, Level: d.StoryLevel, Escalation: d.Escalation}
	if s.Stories != nil {
		actor, err := s.owner(ctx, m)
		if err != nil {
			return f, err
		}
		if v, err := s.Stories.Get(ctx, actor, d.StoryID, 0, 1); err == nil {
			f.Title, f.PostCount, f.Providers, f.Languages = v.Title, v.PostCount, v.Providers, v.Languages
			f.FirstSeenAt, f.LastSeenAt = v.FirstSeenAt, v.LastSeenAt
			return f, nil
		}
	}
	providers, languages := map[string]int64{}, map[string]int64{}
	for _, e := range entries {
		providers[e.Post.Provider]++
		languages[e.Post.Language]++
		if f.FirstSeenAt.IsZero() || e.PublishedAt.Before(f.FirstSeenAt) {
			f.FirstSeenAt = e.PublishedAt
		}
		if e.PublishedAt.After(f.LastSeenAt) {
			f.LastSeenAt = e.PublishedAt
		}
	}
	f.Title, f.PostCount = story.Title(entries[0].Post), int64(len(entries))
	f.Providers, f.Languages = counts(providers), counts(languages)
	return f, nil
}

func counts(m map[string]int64) []story.Count {
	out := make([]story.Count, 0, len(m))
	for name, n := range m {
		out = append(out, story.Count{Name: name, Count: n})
	}
	slices.SortFunc(out, func(a, b story.Count) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name)) })
	return out
}

// newestOfEachStory keeps, of matches oldest first, the newest of each story, in the order of
// those, and how many more each story has.
func newestOfEachStory(entries []monitor.InboxEntry) ([]monitor.InboxEntry, map[int64]int) {
	newest := map[string]int{}
	for i, e := range entries {
		newest[cmp.Or(e.Post.StoryID, e.Post.ID)] = i
	}
	var out []monitor.InboxEntry
	more := map[int64]int{}
	for i, e := range entries {
		id := cmp.Or(e.Post.StoryID, e.Post.ID)
		if newest[id] == i {
			out = append(out, e)
		} else {
			more[entries[newest[id]].ID]++
		}
	}
	return out, more
}

// storyContent is a story notice, rendered for the channel that carries it.
type storyContent struct {
	s       *Service
	search  monitor.Search
	story   storyFacts
	entries []monitor.InboxEntry // the delivery's matches, oldest first
}

type storyMail struct {
	Heading, Title, Why, Sources, Languages, FirstSeen, LastSeen, Terms, Link, StoryLink string
	Count                                                                                int64
	Matches                                                                              []mailMatch
}

var storyText = texttemplate.Must(texttemplate.New("story").Parse(`{{.Heading}}

{{.Title}}
{{.Count}} posts · sources: {{.Sources}} · languages: {{.Languages}}
First seen {{.FirstSeen}}, last seen {{.LastSeen}}
Why: {{.Why}}{{if .Terms}}; matched {{.Terms}}{{end}}.
{{range .Matches}}
{{.Provider}} · {{.Author}} · {{.Time}}
{{.Excerpt}}
{{if .PostLink}}{{.PostLink}}
{{end}}{{end}}
Open the story in Sightline: {{.StoryLink}}
Open the search's matches: {{.Link}}
`))

var storyHTML = htmltemplate.Must(htmltemplate.New("story").Parse(`<!doctype html>
<html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;max-width:640px">
<h2 style="font-size:18px">{{.Heading}}</h2>
<h3 style="font-size:16px">{{.Title}}</h3>
<p style="font-size:14px">{{.Count}} posts · sources: {{.Sources}} · languages: {{.Languages}}<br>
First seen {{.FirstSeen}}, last seen {{.LastSeen}}<br>
Why: {{.Why}}{{if .Terms}}; matched <b>{{.Terms}}</b>{{end}}.</p>
{{range .Matches}}<div style="border-top:1px solid #d9e2ec;padding:10px 0">
<div style="color:#52606d;font-size:13px">{{.Provider}} · {{.Author}} · {{.Time}}</div>
<div style="margin:4px 0">{{.Excerpt}}</div>
{{if .PostLink}}<div style="font-size:13px"><a href="{{.PostLink}}">Original post</a></div>{{end}}
</div>{{end}}
<p><a href="{{.StoryLink}}">Open the story in Sightline</a> · <a href="{{.Link}}">Open the search's matches</a></p>
</body></html>
`))

func (c storyContent) Mail(context.Context) (mail.Message, error) {
	f := c.story
	name := mail.Quote(c.search.Name, mail.SubjectRunes)
	title := mail.Quote(f.Title, mail.SubjectRunes)
	subject := fmt.Sprintf("New story for %s: %s (%d posts)", name, title, f.PostCount)
	if f.Escalation != EscalationFirst {
		subject = fmt.Sprintf("Story escalated for %s: %s (%d posts, %s)", name, title, f.PostCount, EscalationText(f.Escalation))
	}
	d := storyMail{Heading: subject, Title: f.Title, Count: f.PostCount, Sources: names(f.Providers), Languages: names(f.Languages),
		FirstSeen: f.FirstSeenAt.UTC().Format("Jan 2, 2006 15:04 UTC"), LastSeen: f.LastSeenAt.UTC().Format("Jan 2, 2006 15:04 UTC"),
		Why: "the story " + EscalationText(f.Escalation), Terms: c.terms(), Link: inboxLink(c.s.PublicURL, c.search.ID),
		StoryLink: storyLink(c.s.PublicURL, f.ID)}
	for i := len(c.entries) - 1; i >= 0 && len(d.Matches) < storyNewest; i-- {
		d.Matches = append(d.Matches, mailMatchOf(c.entries[i]))
	}
	var text, html strings.Builder
	if err := storyText.Execute(&text, d); err != nil {
		return mail.Message{}, err
	}
	if err := storyHTML.Execute(&html, d); err != nil {
		return mail.Message{}, err
	}
	return mail.Message{Subject: subject, Text: text.String(), HTML: html.String()}, nil
}

// terms are the search's terms the story's new matches hit.
func (c storyContent) terms() string {
	var all []string
	for _, e := range c.entries {
		for _, t := range strings.Split(terms(e.Payload().MatchMeta.MatchedTerms), ", ") {
			if t != "" && !slices.Contains(all, t) {
				all = append(all, t)
			}
		}
	}
	return strings.Join(all, ", ")
}

func names(cs []story.Count) string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s (%d)", cmp.Or(c.Name, "unknown"), c.Count))
	}
	return strings.Join(out, ", ")
}

// WebhookStory is the story of a story notice in a webhook's body.
type WebhookStory struct {
	ID          string        `json:"id"`
	Title       string        `json:"title"`
	PostCount   int64         `json:"postCount"`
	Providers   []story.Count `json:"providers"`
	Languages   []story.Count `json:"languages"`
	FirstSeenAt string        `json:"firstSeenAt"`
	LastSeenAt  string        `json:"lastSeenAt"`
	Level       int           `json:"level"`
	Link        string        `json:"link"`
}

func (c storyContent) Event() any {
	f := c.story
	b := webhookBody(c.search, c.entries, c.s.PublicURL)
	b.Type, b.StoryID, b.Escalations = "monitor.story", f.ID, Reasons(f.Escalation)
	if len(b.Escalations) > 0 {
		b.Escalation = b.Escalations[0]
	}
	// The newest matches, newest first, as the e-mail lists them.
	slices.Reverse(b.Matches)
	b.Matches = b.Matches[:min(len(b.Matches), storyNewest)]
	b.Story = &WebhookStory{ID: f.ID, Title: f.Title, PostCount: f.PostCount, Providers: f.Providers, Languages: f.Languages,
		FirstSeenAt: f.FirstSeenAt.UTC().Format(time.RFC3339), LastSeenAt: f.LastSeenAt.UTC().Format(time.RFC3339),
		Level: f.Level, Link: storyLink(c.s.PublicURL, f.ID)}
	b.MatchCount = len(c.entries)
	return b
}

// storyLink opens a story in the app.
func storyLink(publicURL, id string) string {
	return strings.TrimRight(publicURL, "/") + "/assets/stories/" + url.PathEscape(id)
}

// floodContent is the flood guard's notice.
type floodContent struct {
	search    monitor.Search
	note      string
	until     time.Time
	publicURL string
}

func (c floodContent) text() string {
	return fmt.Sprintf("%s Its alerts are held back until %s; what they hold goes in its next digest, and its matches are in Sightline.",
		c.note, c.until.UTC().Format("Jan 2, 2006 15:04 UTC"))
}

func (c floodContent) Mail(context.Context) (mail.Message, error) {
	name := mail.Quote(c.search.Name, mail.SubjectRunes)
	link := inboxLink(c.publicURL, c.search.ID)
	subject := "Alerts held back for " + name
	return mail.Message{Subject: subject, Text: fmt.Sprintf("%s\n\n%s\n\n%s\n", subject, c.text(), link),
		HTML: fmt.Sprintf(`<p>%s</p><p>%s</p><p><a href="%s">Open the matches</a></p>`, htmlEscape(subject), htmlEscape(c.text()),
			htmlEscape(link))}, nil
}

func (c floodContent) Event() any {
	return map[string]any{"type": "monitor.flood", "search": map[string]any{"id": c.search.ID, "name": c.search.Name},
		"heldUntil": c.until.UTC().Format(time.RFC3339), "message": c.text(), "matches": []any{}}
}
