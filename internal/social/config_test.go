package social

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadConfig(t *testing.T) {
	const good = `{"name":"mastodon","displayName":"Mastodon","clientId":"id","authUrl":"https://m.example/oauth/authorize",
		"tokenUrl":"https://m.example/oauth/token","userInfoUrl":"https://m.example/api/v1/accounts/verify_credentials"}`
	tests := []struct {
		name, file, err string
	}{
		{"one provider", `{"providers":[` + good + `]}`, ""},
		{"none", `{"providers":[]}`, ""},
		{"not JSON", `providers: []`, "invalid character"},
		{"bad name", `{"providers":[` + strings.Replace(good, `"mastodon"`, `"Mastodon!"`, 1) + `]}`, "lower-case"},
		{"twice", `{"providers":[` + good + `,` + good + `]}`, "listed twice"},
		{"no client id", `{"providers":[` + strings.Replace(good, `"clientId":"id"`, `"clientId":""`, 1) + `]}`, "clientId"},
		{"token URL not http", `{"providers":[` + strings.Replace(good, `https://m.example/oauth/token`, `file:///etc/passwd`, 1) + `]}`, "tokenUrl"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "oauth.json")
			os.WriteFile(path, []byte(tc.file), 0o600)
			_, err := LoadConfig(path)
			if (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("LoadConfig = %v, want error containing %q", err, tc.err)
			}
		})
	}
}

func TestFirstField(t *testing.T) {
	info := map[string]any{"data": map[string]any{"id": float64(42), "username": "ana"}, "sub": "s-1", "name": ""}
	tests := []struct {
		paths []string
		want  string
	}{
		{[]string{"data.id"}, "42"},
		{[]string{"data.username"}, "ana"},
		{[]string{"", "id", "sub"}, "s-1"},
		{[]string{"name", "login"}, ""},
		{[]string{"data.id.deeper"}, ""},
	}
	for _, tc := range tests {
		if got := firstField(info, tc.paths...); got != tc.want {
			t.Errorf("firstField(%v) = %q, want %q", tc.paths, got, tc.want)
		}
	}
}
