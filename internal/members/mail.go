package members

import (
	"html"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/mail"
)

// invitationMail is the invitation: who invites, as what, the link and until when it works.
func invitationMail(organization, to string, role account.Role, link string, expires time.Time) mail.Message {
	until := expires.UTC().Format("January 2, 2006 15:04 MST")
	// The organization's name is its owners' text: quoted after the product's wording, never in
	// the subject, escaped in HTML.
	organization = mail.Quote(organization, 0)
	text := "You have been invited to join the organization " + organization + " on Sightline as " + article(role) + " " + string(role) + ".\n\n" +
		"Open this link to choose your name and password:\n" + link + "\n\n" +
		"The link works once, until " + until + ". If you did not expect this invitation, ignore this e-mail.\n"
	body := "<p>You have been invited to join the organization " + html.EscapeString(organization) + " on Sightline as " +
		article(role) + " " + string(role) + ".</p>" +
		`<p><a href="` + html.EscapeString(link) + `">Accept the invitation</a></p>` +
		"<p>The link works once, until " + html.EscapeString(until) + ". If you did not expect this invitation, ignore this e-mail.</p>"
	return mail.Message{To: []string{to}, Subject: "Your invitation to Sightline", Text: text, HTML: body}
}

func article(role account.Role) string {
	if role == account.RoleOwner || role == account.RoleAdmin {
		return "an"
	}
	return "a"
}
