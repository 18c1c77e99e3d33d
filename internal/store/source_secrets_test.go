package store_test

import (
	"context"
	"encoding/json"
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/sourcing"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// Settings holding credentials: every value with "s3cr3t" in it is one.
var credentialConfigs = map[string]string{
	"mastodon": `{"baseURL":"https://social.example.org","token":"tok-s3cr3t","timelines":["public"]}`,
	"rss":      `{"url":"https://bob:pw-s3cr3t@feeds.example.org/rss?apikey=key-s3cr3t&page=1","interval":"5m"}`,
	"reddit":   `{"clientID":"app","clientSecret":"cs-s3cr3t","username":"me","password":"pw2-s3cr3t","subreddits":["news"]}`,
	"nostr":    `{"relays":["wss://relay.example.org","wss://relay.example.net/?token=relay-s3cr3t"]}`,
}

func sameJSON(t *testing.T, got json.RawMessage, want string) bool {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	_ = json.Unmarshal([]byte(want), &b)
	return reflect.DeepEqual(a, b)
}

// The credentials of a source's settings are sealed in its row, whether it was created, edited
// or seeded; the store hands back the plaintext; sealed values moved to another tenant's row do
// not open.
func TestSourceCredentialsAreSealedAtRest(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		tenant, other := account.Tenant{Name: "acme"}, account.Tenant{Name: "initech"}
		for _, tn := range []*account.Tenant{&tenant, &other} {
			if err := s.CreateTenant(ctx, tn); err != nil {
				t.Fatal(err)
			}
		}
		now := time.Now().UTC()
		ids := map[string]int64{}
		for typ, config := range credentialConfigs {
			if typ == "reddit" {
				continue // seeded below
			}
			r := sourcing.Source{TenantID: tenant.ID, Type: typ, Name: typ, Config: json.RawMessage(config), Enabled: true, CreatedAt: now, UpdatedAt: now}
			if err := s.CreateSource(ctx, &r); err != nil {
				t.Fatal(err)
			}
			ids[typ] = r.ID
		}
		if _, err := s.SeedSources(ctx, tenant.ID, []sourcing.Seed{{Type: "reddit", Name: "reddit", Config: json.RawMessage(credentialConfigs["reddit"]), Enabled: true}}, now); err != nil {
			t.Fatal(err)
		}
		rows, err := s.Sources(ctx, tenant.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			ids[r.Type] = r.ID
		}
		// An edit seals the new credential too.
		edited, err := s.Source(ctx, ids["mastodon"])
		if err != nil {
			t.Fatal(err)
		}
		want := maps.Clone(credentialConfigs)
		want["mastodon"] = strings.Replace(want["mastodon"], "tok-s3cr3t", "tok2-s3cr3t", 1)
		edited.Config = json.RawMessage(want["mastodon"])
		if err := s.UpdateSource(ctx, edited); err != nil {
			t.Fatal(err)
		}

		for typ, config := range want {
			raw, err := s.RawString(ctx, `SELECT config FROM sources WHERE id = $1`, ids[typ])
			if err != nil || strings.Contains(raw, "s3cr3t") || !strings.Contains(raw, "sealed:v1:") {
				t.Errorf("%s is stored as %s (%v)", typ, raw, err)
			}
			got, err := s.Source(ctx, ids[typ])
			if err != nil || !sameJSON(t, got.Config, config) {
				t.Errorf("%s reads back as %s (%v), want %s", typ, got.Config, err, config)
			}
		}
		if raw, _ := s.RawString(ctx, `SELECT config FROM sources WHERE id = $1`, ids["mastodon"]); !strings.Contains(raw, "social.example.org") {
			t.Errorf("a setting that is no credential was sealed too: %s", raw)
		}

		if err := s.Exec(ctx, `UPDATE sources SET tenant_id = $1 WHERE id = $2`, other.ID, ids["mastodon"]); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Source(ctx, ids["mastodon"]); err == nil {
			t.Error("credentials sealed for one tenant opened in another's row")
		}
	})
}

// Sources stored in plaintext by the previous release have their credentials sealed in place
// when the node starts with its key, and read back the same.
func TestPlaintextSourceCredentialsAreSealed(t *testing.T) {
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			dsn := storetest.DSN(t, d)
			old, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer old.Close()
			if err := old.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			tenant := account.Tenant{Name: "acme"}
			if err := old.CreateTenant(ctx, &tenant); err != nil {
				t.Fatal(err)
			}
			for typ, config := range credentialConfigs {
				if err := old.Exec(ctx, `INSERT INTO sources (tenant_id, type, name, config, enabled, created_at, updated_at)
					VALUES ($1, $2, $3, $4, TRUE, 0, 0)`, tenant.ID, typ, typ, config); err != nil {
					t.Fatal(err)
				}
			}

			s, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.UseSecretKey(ctx, storetest.NewKey(t)); err != nil {
				t.Fatal(err)
			}
			rows, err := s.Sources(ctx, tenant.ID)
			if err != nil || len(rows) != len(credentialConfigs) {
				t.Fatalf("sources %v, %v", rows, err)
			}
			for _, r := range rows {
				if !sameJSON(t, r.Config, credentialConfigs[r.Type]) {
					t.Errorf("%s reads back as %s", r.Type, r.Config)
				}
				raw, err := s.RawString(ctx, `SELECT config FROM sources WHERE id = $1`, r.ID)
				if err != nil || strings.Contains(raw, "s3cr3t") {
					t.Errorf("%s is still stored as %s (%v)", r.Type, raw, err)
				}
			}
		})
	}
}
