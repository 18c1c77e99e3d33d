package contracts

import (
	"encoding/json"
	"io/fs"

	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/mail"
)

// AlertChannelsPath is the web tests' answer to GET /api/v1/monitor/alert-channels, from the
// repository's root.
const AlertChannelsPath = "web/src/test/alertChannels.json"

// Files is every file the generator writes, by its path from the repository's root: the
// contracts (OutputPath) and the alert channels as a server with SMTP and one without describe
// them (AlertChannelsPath), which the web app's tests use, so their destination rules and
// messages are the Go channels' own.
func Files(src fs.FS) (map[string][]byte, error) {
	ts, err := Generate(Sightline(), src)
	if err != nil {
		return nil, err
	}
	channels, err := AlertChannels()
	if err != nil {
		return nil, err
	}
	return map[string][]byte{OutputPath: ts, AlertChannelsPath: channels}, nil
}

// AlertChannels is the alert channels' descriptions (alerts.Channels), on a server with SMTP
// ("withMail") and on one without ("withoutMail"), as JSON.
func AlertChannels() ([]byte, error) {
	var sender mail.Sender = &mail.SMTP{}
	described := map[string][]channel.Description{
		"withMail":    alerts.Channels(alerts.ChannelDeps{Mail: sender}).Describe(),
		"withoutMail": alerts.Channels(alerts.ChannelDeps{}).Describe(),
	}
	body, err := json.MarshalIndent(described, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(body, '\n'), nil
}
