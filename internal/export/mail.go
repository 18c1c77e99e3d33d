package export

import (
	"fmt"
	"html"
	"strings"

	"github.com/sightline/sightline/internal/mail"
)

// readyMessage is the e-mail that carries an export's link.
func readyMessage(e Export, link string) mail.Message {
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
	return mail.Message{To: []string{e.Email}, Subject: "Your Sightline export is ready", Text: text, HTML: body}
}
