package support_test

import (
	"bytes"
	"context"
	"errors"
	netmail "net/mail"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/mail/mailtest"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/support"
)

func user(t *testing.T, accounts *account.Service, n account.NewUser) account.User {
	t.Helper()
	n.Password, n.Role = "correct horse battery", account.RoleMember
	u, err := accounts.CreateUser(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// A user's message reaches their tenant's support address, with their address as Reply-To and
// their text quoted; a tenant without an address, a contact writing to themselves, a server
// without e-mail, empty text and a user past the e-mail limit are refused and nothing is sent.
func TestWriteReachesTheTenantsSupportAddress(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		accounts := account.NewService(s)
		contact := user(t, accounts, account.NewUser{Tenant: "acme", Organization: "Acme", Email: "help@acme.test",
			Name: "Helen", SupportEmail: "help@acme.test"})
		analyst := user(t, accounts, account.NewUser{Tenant: "acme", Organization: "Acme Research", Email: "ann@acme.test",
			Name: "Ann\u202eeliF"})
		stranger := user(t, accounts, account.NewUser{Tenant: "globex", Organization: "Globex", Email: "gus@globex.test", Name: "Gus"})

		smtp := mailtest.Start(t)
		sender, err := mail.NewSMTP(smtp.URL(), "Sightline <sightline@localhost>")
		if err != nil {
			t.Fatal(err)
		}
		svc := support.NewService(support.Deps{Profiles: accounts, Mail: sender,
			MailLimit: mail.NewLimiter(mail.Limits{UserPerHour: 1, UserBurst: 1})})

		if err := svc.Write(ctx, analyst.ID, "  The map is blank.\r\nSince Monday.\x07  "); err != nil {
			t.Fatal(err)
		}
		got := smtp.WaitFor(t, 1)[0]
		if strings.Join(got.To, ",") != "help@acme.test" {
			t.Errorf("sent to %v", got.To)
		}
		msg, err := netmail.ReadMessage(bytes.NewReader(got.Data))
		if err != nil {
			t.Fatal(err)
		}
		if rt := msg.Header.Get("Reply-To"); !strings.Contains(rt, "ann@acme.test") {
			t.Errorf("Reply-To = %q", rt)
		}
		text, err := got.Text()
		if err != nil {
			t.Fatal(err)
		}
		text = strings.ReplaceAll(text, "\r\n", "\n") // SMTP's line ends
		for _, want := range []string{"Support request from “AnneliF”", "“Acme Research”", "> The map is blank.\n> Since Monday.",
			"<blockquote>The map is blank.<br>Since Monday.</blockquote>"} {
			if !strings.Contains(text, want) {
				t.Errorf("the e-mail lacks %q:\n%s", want, text)
			}
		}

		for _, tc := range []struct {
			name    string
			svc     *support.Service
			userID  int64
			text    string
			kind    problem.Kind
			message string
		}{
			{"past the user's limit", svc, analyst.ID, "again", problem.KindRateLimited, mail.MsgUserRateLimited},
			{"no support address", svc, stranger.ID, "hello", problem.KindUnavailable, support.MsgNoAddress},
			{"writing to themselves", svc, contact.ID, "hello", problem.KindUnavailable, support.MsgNoAddress},
			{"empty", svc, contact.ID, " \n\t ", problem.KindInvalid, support.MsgEmpty},
			{"too long", svc, contact.ID, strings.Repeat("é", support.MaxRunes+1), problem.KindInvalid, support.MsgTooLong},
			{"no e-mail", support.NewService(support.Deps{Profiles: accounts}), analyst.ID, "hello", problem.KindUnavailable, support.MsgNoMail},
		} {
			err := tc.svc.Write(ctx, tc.userID, tc.text)
			var p *problem.Problem
			if !errors.As(err, &p) || p.Kind != tc.kind {
				t.Errorf("%s: %v, want a %v problem", tc.name, err, tc.kind)
				continue
			}
			msg := p.Message
			if tc.kind == problem.KindInvalid {
				msg = strings.Join(p.Fields["message"], "")
			}
			if msg != tc.message {
				t.Errorf("%s: %q, want %q", tc.name, msg, tc.message)
			}
		}
		if n := len(smtp.Messages()); n != 1 {
			t.Errorf("%d messages sent, want 1", n)
		}
	})
}
