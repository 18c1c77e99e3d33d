package export

import (
	"context"
	"fmt"
	"html"
	"strings"
)

// Sender sends one e-mail, multipart plain text and HTML. The server adapts internal/mail's
// SMTP sender to it, so that exports need not know how mail travels.
type Sender func(ctx context.Context, m Message) error

// Message is an e-mail to send.
type Message struct {
	To                  []string
	Subject, Text, HTML string
}

// readyMessage is the e-mail that carries an export's link.
func readyMessage(e Export, link string) Message {
	what := fmt.Sprintf("%s posts as %s", thousands(e.PostCount), strings.ToUpper(e.Format))
	if e.PostCount == 1 {
		what = "1 post as " + strings.ToUpper(e.Format)
	}
	expires := e.ExpiresAt.UTC().Format("January 2, 2006 15:04 UTC")
	text := fmt.Sprintf("Your Sightline export of %s is ready.\n\nDownload it: %s\n\n"+
		"The link works while you are signed in to Sightline, until %s.\n", what, link, expires)
	body := fmt.Sprintf(`<p>Your Sightline export of %s is ready.</p>
<p><a href="%s">Download the export</a></p>
<p>The link works while you are signed in to Sightline, until %s.</p>
`, html.EscapeString(what), html.EscapeString(link), html.EscapeString(expires))
	return Message{To: []string{e.Email}, Subject: "Your Sightline export is ready", Text: text, HTML: body}
}
