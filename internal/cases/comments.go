package cases

import (
	"context"
	"fmt"
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/problem"
)

// Mentions are the members a comment names with @, by username or e-mail (case-insensitively),
// each once, in the order they first appear. Words after @ that name nobody are left as text.
func Mentions(body string, members []account.Member) []int64 {
	var out []int64
	for _, handle := range handles(body) {
		for _, m := range members {
			if (m.Username != "" && strings.EqualFold(handle, m.Username)) || strings.EqualFold(handle, m.Email) {
				if !containsID(out, m.UserID) {
					out = append(out, m.UserID)
				}
				break
			}
		}
	}
	return out
}

// handles are the words written after an @ that starts a word: "@ana.lyst," gives "ana.lyst",
// and "@bob@acme.test" the whole address. Punctuation ending a sentence is not part of one.
func handles(body string) []string {
	var out []string
	for i := 0; i < len(body); i++ {
		if body[i] != '@' || (i > 0 && (isHandleRune(rune(body[i-1])) || body[i-1] == '@')) {
			continue
		}
		j := i + 1
		for j < len(body) {
			r, size := utf8.DecodeRuneInString(body[j:])
			if !isHandleRune(r) && r != '@' {
				break
			}
			j += size
		}
		h := strings.TrimRight(body[i+1:j], ".-_@")
		if h != "" {
			out = append(out, h)
		}
		i = j - 1
	}
	return out
}

func isHandleRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._-+", r)
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// Notified is what a comment's mentions led to: who was mentioned, and who of them got an
// e-mail (none without a mail server, or past the e-mail limits).
type Notified struct {
	CommentID int64
	Mentioned []int64
}

// Comment adds a comment to a case the actor can see; viewers may comment, as they may on a
// shared document. Every member it mentions must be able to see the case, and gets a live
// notification and an e-mail.
func (s *Service) Comment(ctx context.Context, actor authz.Actor, caseID int64, body string) (Notified, error) {
	a, err := s.access(ctx, actor, caseID, authz.LevelView)
	if err != nil {
		return Notified{}, err
	}
	body = strings.TrimSpace(body)
	switch {
	case body == "":
		return Notified{}, problem.InvalidField("body", MsgCommentEmpty)
	case utf8.RuneCountInString(body) > MaxText:
		return Notified{}, problem.InvalidField("body", MsgTextTooLong)
	}
	list, err := s.Store.Members(ctx, actor.OrganizationID)
	if err != nil {
		return Notified{}, err
	}
	members := map[int64]account.Member{}
	for _, m := range list {
		members[m.UserID] = m
	}
	mentioned := Mentions(body, list)
	viewers, err := s.viewers(ctx, a.Case, members)
	if err != nil {
		return Notified{}, err
	}
	for _, id := range mentioned {
		if !viewers[id] {
			return Notified{}, problem.InvalidField("body", fmt.Sprintf(MsgMentionNoAccess, DisplayName(members[id])))
		}
	}
	c := Comment{CaseID: caseID, UserID: actor.UserID, Body: body, Mentions: nonNil(mentioned), CreatedAt: s.now().UTC()}
	e := s.touch(actor, caseID, ActionCommented, "commented")
	entry := audit.Created(actor, audit.ModelCaseComment, 0, audit.Fields{"case_id": caseID, "body": body, "mentions": c.Mentions})
	if err := s.Store.AddCaseComment(ctx, &c, e, entry); err != nil {
		return Notified{}, err
	}
	s.tell(ctx, actor, a.Case, members)
	by := DisplayName(members[actor.UserID])
	for _, id := range mentioned {
		if id == actor.UserID {
			continue
		}
		s.notify(ctx, actor, a.Case, c, by, members[id])
	}
	return Notified{CommentID: c.ID, Mentioned: c.Mentions}, nil
}

// notify tells a mentioned member live and by e-mail. The e-mail goes through the node's one
// e-mail limit, as the actor's: a script mentioning everyone in a loop meets it, and then the
// comment stands and the live notification still goes.
func (s *Service) notify(ctx context.Context, actor authz.Actor, c Case, comment Comment, by string, to account.Member) {
	if s.Live != nil {
		payload := CaseMention{CaseID: c.ID, CaseName: c.Name, CommentID: comment.ID, By: by}
		if err := s.Live.PublishToUser(ctx, to.UserID, EventCaseMention, payload); err != nil {
			s.Logger.Warn("cases: live mention", "case", c.ID, "err", err)
		}
	}
	if s.Mail == nil || to.Email == "" {
		return
	}
	if err := s.MailLimit.Take(actor.UserID, actor.OrganizationID); err != nil {
		s.Logger.Info("cases: mention e-mail not sent", "case", c.ID, "reason", err)
		return
	}
	m := mentionMail(by, c, comment, to.Email, strings.TrimRight(s.PublicURL, "/"))
	// The SMTP dialogue may take seconds; the comment is stored, so the reply does not wait.
	go func() {
		if err := s.Mail.Send(context.WithoutCancel(ctx), m); err != nil {
			s.Logger.Warn("cases: mention e-mail", "case", c.ID, "err", err)
		}
	}()
}

// mentionMail tells a member who mentioned them in which case, with the comment and a link.
func mentionMail(by string, c Case, comment Comment, to, publicURL string) mail.Message {
	link := fmt.Sprintf("%s/cases/%d", publicURL, c.ID)
	// Names and the comment are people's text: quoted after the product's wording, never in
	// the subject, escaped in HTML.
	name, who, text := mail.Quote(c.Name, 0), mail.Quote(by, 0), mail.Quote(comment.Body, 2000)
	plain := who + " mentioned you in a comment on the case " + name + ":\n\n" + text + "\n\nOpen the case:\n" + link + "\n"
	body := "<p>" + html.EscapeString(who) + " mentioned you in a comment on the case " + html.EscapeString(name) + ":</p>" +
		"<blockquote>" + html.EscapeString(text) + "</blockquote>" +
		`<p><a href="` + html.EscapeString(link) + `">Open the case</a></p>`
	return mail.Message{To: []string{to}, Subject: "You were mentioned in a case on Sightline", Text: plain, HTML: body}
}
