package api_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/mail/mailtest"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/support"
)

// POST /api/v1/support mails the signed-in user's text to the tenant's support address; an empty
// text is a 422 on its field, and a server without e-mail says so with 503.
func TestSupportRequests(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		smtp := mailtest.Start(t)
		sender, err := mail.NewSMTP(smtp.URL(), "Sightline <sightline@localhost>")
		if err != nil {
			t.Fatal(err)
		}
		e := newEnvWith(t, s, func(d *api.Deps) {
			d.Support = support.NewService(support.Deps{Profiles: d.Accounts, Mail: sender})
		})
		if err := s.SetTenantSupportEmail(context.Background(), account.DefaultTenant, "help@sightline.test"); err != nil {
			t.Fatal(err)
		}
		analyst := e.client()
		analyst.login("analyst@acme.test")

		r := analyst.do("POST", "/api/v1/support", map[string]string{"message": "The map is blank."}, withBearer(analyst.bearer))
		if r.status != http.StatusOK {
			t.Fatalf("send = %d %v", r.status, r.body)
		}
		if got := smtp.WaitFor(t, 1)[0]; len(got.To) != 1 || got.To[0] != "help@sightline.test" {
			t.Errorf("sent to %v", got.To)
		}
		r = analyst.do("POST", "/api/v1/support", map[string]string{"message": " "}, withBearer(analyst.bearer))
		if r.status != http.StatusUnprocessableEntity || dig(r.body, "errors", "message") == nil {
			t.Errorf("empty = %d %v", r.status, r.body)
		}

		// The same accounts behind a server assembled without e-mail (no Support).
		noMail := *e
		noMail.srv = httptest.NewServer(api.New(api.Deps{Accounts: e.accounts, Auth: e.auth, Health: s.Ping,
			App: api.AppHandler(nil, false), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
		t.Cleanup(noMail.srv.Close)
		c := noMail.client()
		c.login("analyst@acme.test")
		r = c.do("POST", "/api/v1/support", map[string]string{"message": "hello"}, withBearer(c.bearer))
		if r.status != http.StatusServiceUnavailable || r.body["message"] != support.MsgNoMail {
			t.Errorf("without e-mail = %d %v", r.status, r.body)
		}
		if n := len(smtp.Messages()); n != 1 {
			t.Errorf("%d messages, want 1", n)
		}
	})
}
