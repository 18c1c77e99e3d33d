package sourcing_test

import (
	"encoding/json"
	"testing"

	"github.com/sightline/sightline/internal/sourcing"
)

// Credentials are shown masked (an address keeps everything but its password and credential
// query values), and settings sent back with a credential as shown keep the stored one, while a
// new value replaces it and settings without credentials pass untouched.
func TestCredentialsMaskedAndKept(t *testing.T) {
	for _, tt := range []struct {
		name, stored, masked string
		sent, saved          string // an edit sent as shown (or changed) and what it saves
	}{
		{"token",
			`{"baseURL":"https://social.example.org","token":"tok-s3cr3t","timelines":["public"]}`,
			`{"baseURL":"https://social.example.org","timelines":["public"],"token":"********"}`,
			`{"baseURL":"https://social.example.org","timelines":["local"],"token":"********"}`,
			`{"baseURL":"https://social.example.org","timelines":["local"],"token":"tok-s3cr3t"}`},
		{"new token",
			`{"token":"tok-s3cr3t"}`, `{"token":"********"}`,
			`{"token":"tok-new"}`, `{"token":"tok-new"}`},
		{"cleared token",
			`{"token":"tok-s3cr3t"}`, `{"token":"********"}`,
			`{}`, `{}`},
		{"address with user information and a key",
			`{"url":"https://bob:pw-s3cr3t@feeds.example.org/rss?apikey=k-s3cr3t&page=2#top"}`,
			`{"url":"https://bob:********@feeds.example.org/rss?apikey=********&page=2#top"}`,
			`{"url":"https://bob:********@feeds.example.org/rss?apikey=********&page=2#top","interval":"5m"}`,
			`{"url":"https://bob:pw-s3cr3t@feeds.example.org/rss?apikey=k-s3cr3t&page=2#top","interval":"5m"}`},
		{"a token as user name, in a list",
			`{"relays":["wss://t0k3n@relay.example.org/","wss://relay.example.net"]}`,
			`{"relays":["wss://********@relay.example.org/","wss://relay.example.net"]}`,
			`{"relays":["wss://********@relay.example.org/"]}`,
			`{"relays":["wss://t0k3n@relay.example.org/"]}`},
		{"nested secrets",
			`{"clientID":"app","clientSecret":"cs","password":"pw","selectors":{"author":".by"}}`,
			`{"clientID":"app","clientSecret":"********","password":"********","selectors":{"author":".by"}}`,
			`{"clientID":"app2","clientSecret":"********","password":"pw2","selectors":{"author":".by"}}`,
			`{"clientID":"app2","clientSecret":"cs","password":"pw2","selectors":{"author":".by"}}`},
		{"no credentials",
			`{"url":"https://feeds.example.org/rss?page=2","interval":"5m"}`,
			`{"url":"https://feeds.example.org/rss?page=2","interval":"5m"}`,
			`{"url":"https://feeds.example.org/rss?page=3"}`,
			`{"url":"https://feeds.example.org/rss?page=3"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := sourcing.MaskCredentials(json.RawMessage(tt.stored)); !equalJSON(got, tt.masked) {
				t.Errorf("masked %s, want %s", got, tt.masked)
			}
			if got := sourcing.KeepCredentials(json.RawMessage(tt.sent), json.RawMessage(tt.stored)); !equalJSON(got, tt.saved) {
				t.Errorf("saved %s, want %s", got, tt.saved)
			}
		})
	}
}

func equalJSON(got json.RawMessage, want string) bool {
	var a, b any
	if json.Unmarshal(got, &a) != nil || json.Unmarshal([]byte(want), &b) != nil {
		return false
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}
