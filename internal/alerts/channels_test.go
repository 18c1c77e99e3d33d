package alerts_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/mail"
)

// fixture is what the web app's tests are given as GET /api/v1/monitor/alert-channels.
const fixture = "../../web/src/test/alertChannels.json"

// The web app's tests use the channels this server describes, on a server with SMTP and on one
// without: a change to a channel's rules or messages fails here until the fixture follows
// (UPDATE_FIXTURES=1 writes it).
func TestWebFixtureIsTheServersChannels(t *testing.T) {
	var sender mail.Sender = &mail.SMTP{}
	want := map[string][]channel.Description{
		"withMail":    alerts.Channels(alerts.ChannelDeps{Mail: sender}).Describe(),
		"withoutMail": alerts.Channels(alerts.ChannelDeps{}).Describe(),
	}
	body, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	body = append(body, '\n')
	if os.Getenv("UPDATE_FIXTURES") != "" {
		if err := os.WriteFile(fixture, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, body) {
		t.Errorf("%s is not what the server describes; run UPDATE_FIXTURES=1 go test ./internal/alerts -run TestWebFixture:\n%s", fixture, body)
	}
}
