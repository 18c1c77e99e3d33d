package mail_test

import (
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	netmail "net/mail"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/mail/mailtest"
)

func TestSendReachesTheServer(t *testing.T) {
	for _, tt := range []struct {
		name    string
		options []mailtest.Option
	}{
		{"plain", nil},
		{"STARTTLS offered", []mailtest.Option{mailtest.WithSTARTTLS()}},
		{"STARTTLS and authentication", []mailtest.Option{mailtest.WithSTARTTLS(), mailtest.WithAuth("relay", "s3cret pass")}},
		{"implicit TLS and authentication", []mailtest.Option{mailtest.WithImplicitTLS(), mailtest.WithAuth("relay", "s3cret")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := mailtest.Start(t, tt.options...)
			sender, err := mail.NewSMTP(srv.URL(), "Sightline <alerts@sightline.test>", mail.WithRootCAs(srv.RootCAs()))
			if err != nil {
				t.Fatal(err)
			}
			err = sender.Send(context.Background(), mail.Message{To: []string{"ana@acme.test", "bo@acme.test"},
				Subject: "3 new matches for “Harbour”", Text: "Crane down at the docks", HTML: "<p>Crane <b>down</b></p>"})
			if err != nil {
				t.Fatal(err)
			}
			got := srv.WaitFor(t, 1)[0]
			if got.From != "alerts@sightline.test" || strings.Join(got.To, ",") != "ana@acme.test,bo@acme.test" {
				t.Errorf("envelope from %q to %v", got.From, got.To)
			}
			text, html, subject := parts(t, got.Data)
			if subject != "3 new matches for “Harbour”" || text != "Crane down at the docks" || html != "<p>Crane <b>down</b></p>" {
				t.Errorf("subject %q, text %q, html %q", subject, text, html)
			}
		})
	}
}

func TestSendFailures(t *testing.T) {
	srv := mailtest.Start(t, mailtest.WithSTARTTLS(), mailtest.WithAuth("relay", "right-password"))
	wrong := strings.Replace(srv.URL(), "right-password", "wrong-password", 1)
	sender, err := mail.NewSMTP(wrong, "alerts@sightline.test", mail.WithRootCAs(srv.RootCAs()))
	if err != nil {
		t.Fatal(err)
	}
	err = sender.Send(context.Background(), mail.Message{To: []string{"ana@acme.test"}, Subject: "s", Text: "t"})
	if err == nil || strings.Contains(err.Error(), "wrong-password") {
		t.Errorf("wrong credentials: %v (want an error without the password)", err)
	}

	refusing := mailtest.Start(t)
	refusing.Refuse(errors.New("mailbox full"))
	sender, _ = mail.NewSMTP(refusing.URL(), "alerts@sightline.test")
	if err := sender.Send(context.Background(), mail.Message{To: []string{"ana@acme.test"}, Subject: "s", Text: "t"}); err == nil ||
		!strings.Contains(err.Error(), "mailbox full") {
		t.Errorf("refused message: %v", err)
	}
	if len(refusing.Messages()) != 0 {
		t.Error("a refused message was kept")
	}
}

func TestNewSMTPRefusesBadSettings(t *testing.T) {
	for _, tt := range []struct{ url, from string }{
		{"http://mail.example:25", "a@b.test"},
		{"smtp://", "a@b.test"},
		{"smtp://mail.example:port", "a@b.test"},
		{"smtp://mail.example:25", "not an address"},
	} {
		if _, err := mail.NewSMTP(tt.url, tt.from); err == nil {
			t.Errorf("NewSMTP(%q, %q) accepted", tt.url, tt.from)
		}
	}
}

// parts reads a multipart/alternative message's text and HTML and its decoded subject.
func parts(t *testing.T, raw []byte) (text, html, subject string) {
	t.Helper()
	msg, err := netmail.ReadMessage(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	subject, _ = new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/alternative" {
		t.Fatalf("content type %q: %v", msg.Header.Get("Content-Type"), err)
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return text, html, subject
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(p) // multipart decodes quoted-printable itself
		switch ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); ct {
		case "text/plain":
			text = strings.TrimSpace(string(body))
		case "text/html":
			html = strings.TrimSpace(string(body))
		}
	}
}
