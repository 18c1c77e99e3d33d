package server_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/sightline/sightline/internal/mail/mailtest"
	"github.com/sightline/sightline/internal/server"
)

// --smtp-url turns e-mail on, and the app is told whether it is.
func TestEmailDeliveryFollowsSMTPURL(t *testing.T) {
	smtp := mailtest.Start(t)
	for _, tt := range []struct {
		name    string
		smtpURL string
		want    bool
	}{{"without --smtp-url", "", false}, {"with --smtp-url", smtp.URL(), true}} {
		t.Run(tt.name, func(t *testing.T) {
			node, srv := startNodeWith(t, func(c *server.Config) { c.SMTPURL = tt.smtpURL })
			if (node.Mail != nil) != tt.want {
				t.Errorf("mail sender = %v, want on %v", node.Mail, tt.want)
			}
			token, _, err := node.Auth.CreateAPIToken(context.Background(), "admin@example.test", "t", nil)
			if err != nil {
				t.Fatal(err)
			}
			status, reply := call(t, "GET", srv.URL+"/api/v1/settings/profile/current", token, "")
			if status != 200 || reply["data"].(map[string]any)["emailDelivery"] != tt.want {
				t.Errorf("profile = %d %v, want emailDelivery %v", status, reply, tt.want)
			}
		})
	}
	if _, err := server.New(context.Background(), server.Config{DataDir: t.TempDir(), SMTPURL: "http://mail.example"},
		slog.New(slog.NewTextHandler(io.Discard, nil))); err == nil {
		t.Error("a node started with an SMTP URL that is not one")
	}
}
