package live

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// Credentials are the live channel's app key (public: the page connects to /app/{key}) and the
// secret that signs private-channel subscriptions.
type Credentials struct {
	Key    string
	Secret string
}

// Sign returns the auth string a client presents to subscribe socketID to channel:
// "key:" + hex HMAC-SHA256(secret, "socketID:channel"), as the Pusher protocol defines it.
func (c Credentials) Sign(socketID, channel string) string {
	mac := hmac.New(sha256.New, []byte(c.Secret))
	mac.Write([]byte(socketID + ":" + channel))
	return c.Key + ":" + hex.EncodeToString(mac.Sum(nil))
}

// Verify reports whether auth is the signature of socketID's subscription to channel.
func (c Credentials) Verify(socketID, channel, auth string) bool {
	return hmac.Equal([]byte(auth), []byte(c.Sign(socketID, channel)))
}

// SecretStore keeps server secrets shared by every node (store.Store.Secret).
type SecretStore interface {
	Secret(ctx context.Context, name string, generate func() (string, error)) (string, error)
}

// LoadCredentials reads the cluster's live credentials, generating them on first use. A key
// given by the operator replaces the generated one; the secret is always the stored one.
func LoadCredentials(ctx context.Context, secrets SecretStore, key string) (Credentials, error) {
	var err error
	if key == "" {
		if key, err = secrets.Secret(ctx, "live_app_key", randomHex(10)); err != nil {
			return Credentials{}, err
		}
	}
	secret, err := secrets.Secret(ctx, "live_app_secret", randomHex(32))
	if err != nil {
		return Credentials{}, err
	}
	return Credentials{Key: key, Secret: secret}, nil
}

func randomHex(bytes int) func() (string, error) {
	return func() (string, error) {
		b := make([]byte, bytes)
		if _, err := rand.Read(b); err != nil {
			return "", err
		}
		return hex.EncodeToString(b), nil
	}
}

// userChannelPrefix names every user's private channel: private-user.{id}, which laravel-echo
// subscribes to as Echo.private("user.{id}").
const userChannelPrefix = "private-user."

// UserChannel is the private channel of a user.
func UserChannel(userID int64) string {
	return userChannelPrefix + strconv.FormatInt(userID, 10)
}

// ParseUserChannel returns the user whose private channel name is, if it is one. Only the
// canonical spelling counts ("private-user.07" is not user 7's channel), so a signature for one
// name can never be used for another.
func ParseUserChannel(name string) (userID int64, ok bool) {
	digits, found := strings.CutPrefix(name, userChannelPrefix)
	if !found {
		return 0, false
	}
	id, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || id <= 0 || UserChannel(id) != name {
		return 0, false
	}
	return id, true
}

// ValidSocketID reports whether s has the protocol's socket id form: digits, a dot, digits.
func ValidSocketID(s string) bool {
	left, right, found := strings.Cut(s, ".")
	return found && len(s) <= 32 && allDigits(left) && allDigits(right)
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
