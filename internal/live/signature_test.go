package live

import (
	"context"
	"errors"
	"testing"
)

// The worked example of the Pusher documentation ("Generating authentication and authorization
// strings"): these credentials, socket 1234.1234 and channel private-foobar sign as below.
// Checked independently with:
//
//	printf '%s' '1234.1234:private-foobar' | openssl dgst -sha256 -hmac 7ad3773142a6692b25b8
var documented = Credentials{Key: "278d425bdf160c739803", Secret: "7ad3773142a6692b25b8"}

const documentedAuth = "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4"

func TestSignMatchesTheProtocolDocumentation(t *testing.T) {
	if got := documented.Sign("1234.1234", "private-foobar"); got != documentedAuth {
		t.Fatalf("Sign = %s\nwant   %s", got, documentedAuth)
	}
}

func TestVerify(t *testing.T) {
	tests := []struct {
		name     string
		creds    Credentials
		socketID string
		channel  string
		auth     string
		want     bool
	}{
		{"the documented example", documented, "1234.1234", "private-foobar", documentedAuth, true},
		{"another socket", documented, "1234.1235", "private-foobar", documentedAuth, false},
		{"another channel", documented, "1234.1234", "private-foobaz", documentedAuth, false},
		{"another secret", Credentials{Key: documented.Key, Secret: "x"}, "1234.1234", "private-foobar", documentedAuth, false},
		{"another key", Credentials{Key: "other", Secret: documented.Secret}, "1234.1234", "private-foobar", documentedAuth, false},
		{"the signature alone", documented, "1234.1234", "private-foobar", documentedAuth[len(documented.Key)+1:], false},
		{"upper-case hex", documented, "1234.1234", "private-foobar", "278d425bdf160c739803:58DF8B0C36D6982B82C3ECF6B4662E34FE8C25BBA48F5369F135BF843651C3A4", false},
		{"empty", documented, "1234.1234", "private-foobar", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.creds.Verify(tt.socketID, tt.channel, tt.auth); got != tt.want {
				t.Errorf("Verify = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseUserChannel(t *testing.T) {
	tests := []struct {
		name string
		want int64
		ok   bool
	}{
		{"private-user.7", 7, true},
		{"private-user.9223372036854775807", 9223372036854775807, true},
		{"private-user.0", 0, false},
		{"private-user.-7", 0, false},
		{"private-user.+7", 0, false},
		{"private-user.07", 0, false},
		{"private-user.7 ", 0, false},
		{"private-user.", 0, false},
		{"private-user.9223372036854775808", 0, false},
		{"user.7", 0, false},
		{"presence-user.7", 0, false},
		{"private-foobar", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseUserChannel(tt.name)
			if got != tt.want || ok != tt.ok {
				t.Errorf("ParseUserChannel = %d, %v; want %d, %v", got, ok, tt.want, tt.ok)
			}
			if ok && UserChannel(got) != tt.name {
				t.Errorf("UserChannel(%d) = %s", got, UserChannel(got))
			}
		})
	}
}

func FuzzParseUserChannel(f *testing.F) {
	for _, s := range []string{"private-user.1", "private-user.01", "private-user.", "private-foobar", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if id, ok := ParseUserChannel(name); ok && (id <= 0 || UserChannel(id) != name) {
			t.Errorf("ParseUserChannel(%q) = %d, a different channel", name, id)
		}
	})
}

func TestValidSocketID(t *testing.T) {
	for id, want := range map[string]bool{
		"1234.1234": true, "0.0": true, "4294967295.4294967295": true,
		"": false, "1234": false, ".1234": false, "1234.": false, "12.34.56": false, "1a.2": false,
		"-1.2": false, "1.2 ": false, "123456789012345678.1234567890123456": false,
	} {
		if got := ValidSocketID(id); got != want {
			t.Errorf("ValidSocketID(%q) = %v, want %v", id, got, want)
		}
	}
}

// secrets is a SecretStore in memory, as store.Store keeps them: the first value is kept.
type secrets map[string]string

func (s secrets) Secret(_ context.Context, name string, generate func() (string, error)) (string, error) {
	if v, ok := s[name]; ok {
		return v, nil
	}
	v, err := generate()
	if err != nil {
		return "", err
	}
	s[name] = v
	return v, nil
}

func TestLoadCredentials(t *testing.T) {
	ctx := context.Background()
	store := secrets{}
	first, err := LoadCredentials(ctx, store, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Key) != 20 || len(first.Secret) != 64 {
		t.Errorf("generated key %q and secret of %d characters", first.Key, len(first.Secret))
	}
	again, err := LoadCredentials(ctx, store, "")
	if err != nil || again != first {
		t.Errorf("a second node read %+v, %v; want the stored %+v", again, err, first)
	}
	chosen, err := LoadCredentials(ctx, store, "my-key")
	if err != nil || chosen.Key != "my-key" || chosen.Secret != first.Secret {
		t.Errorf("with a chosen key: %+v, %v", chosen, err)
	}
	failing := errors.New("store down")
	if _, err := LoadCredentials(ctx, failingSecrets{failing}, ""); !errors.Is(err, failing) {
		t.Errorf("a store error = %v", err)
	}
}

type failingSecrets struct{ err error }

func (f failingSecrets) Secret(context.Context, string, func() (string, error)) (string, error) {
	return "", f.err
}
