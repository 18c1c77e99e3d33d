package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/wait"
)

func (c *client) reportDeletions(token, body string) reply {
	c.e.t.Helper()
	req, _ := http.NewRequest("POST", c.e.srv.URL+"/api/v1/ingest/deletions", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-ndjson")
	return c.send(req, withBearer(token))
}

// An ingest token reports the posts it pushed that the provider deleted: each keeps what was
// stored and carries deletedAt; a token reaches only its own posts (not another token's of its
// tenant, nor another tenant's), and a bad line is rejected without stopping the others.
func TestIngestDeletionsTwoTenants(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newIngestEnv(t, s, 0)
		ctx := context.Background()
		for _, u := range []account.NewUser{
			{Organization: "Acme", Email: "ops@acme.test", Password: testPassword, Role: account.RoleMember},
			{Tenant: "initech", Organization: "Initech", Email: "ops@initech.test", Password: testPassword, Role: account.RoleMember},
		} {
			if _, err := e.accounts.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		feedA, otherA := e.token("ops@acme.test", "acme-feed", "ingest"), e.token("ops@acme.test", "acme-other", "ingest")
		feedB, readerA := e.token("ops@initech.test", "initech-feed", "ingest"), e.token("ops@acme.test", "reader")
		tenantA, tenantB := e.actor("ops@acme.test").TenantID, e.actor("ops@initech.test").TenantID
		at := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
		line := func(native, text string) string {
			return fmt.Sprintf(`{"provider":"news","native_id":%q,"content_text":%q,"published_at":%q}`, native, text, at)
		}
		c := e.client()
		for _, push := range []struct{ token, body string }{
			{feedA, line("a-1", "Acme's first report") + "\n" + line("a-2", "Acme's second report")},
			{feedB, line("b-1", "Initech's report")},
		} {
			if r := c.ingest(push.token, push.body); r.status != 200 {
				t.Fatalf("ingest = %d %v", r.status, r.body)
			}
		}
		nsA, nsB := fmt.Sprintf("ingest:%d", tokenID(t, e, feedA)), fmt.Sprintf("ingest:%d", tokenID(t, e, feedB))
		a1, a2, b1 := post.NewIngestID(nsA, "news", "a-1"), post.NewIngestID(nsA, "news", "a-2"), post.NewIngestID(nsB, "news", "b-1")
		wait.For(t, "the posts stored", func() bool {
			_, errA := s.Post(ctx, a2, tenantA)
			_, errB := s.Post(ctx, b1, tenantB)
			return errA == nil && errB == nil
		})

		deletedAt := time.Now().Add(-10 * time.Minute).UTC().Truncate(time.Second)
		future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		for _, tc := range []struct {
			name     string
			token    string
			body     string
			status   int
			deleted  float64
			rejected map[float64]string // line: part of the message
		}{
			{"a token without the ingest scope", readerA, `{"provider":"news","native_id":"a-1"}`, http.StatusForbidden, 0, nil},
			{"another tenant's post", feedB, `{"provider":"news","native_id":"a-1"}`, 200, 0,
				map[float64]string{1: "no post with this provider and native_id was pushed with this token"}},
			{"another token's post of the same tenant", otherA, `{"provider":"news","native_id":"a-1"}`, 200, 0,
				map[float64]string{1: "no post"}},
			{"good and bad lines", feedA, strings.Join([]string{
				fmt.Sprintf(`{"provider":"news","native_id":"a-1","deleted_at":%q}`, deletedAt.Format(time.RFC3339)),
				`{"native_id":"a-2"}`,
				`not json`,
				fmt.Sprintf(`{"provider":"news","id":"a-2","deleted_at":%q}`, future),
				`{"provider":"NEWS","id":"a-1"}`,
			}, "\n"), 200, 2, map[float64]string{2: "provider is required", 3: "not a deletion", 4: "deleted_at is in the future"}},
			{"tenant B its own post, as an array", feedB, `[{"provider":"news","native_id":"b-1"}]`, 200, 1, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := c.reportDeletions(tc.token, tc.body)
				if r.status != tc.status {
					t.Fatalf("status %d %v, want %d", r.status, r.body, tc.status)
				}
				if tc.status != 200 {
					return
				}
				if got := dig(r.body, "data", "deleted"); got != tc.deleted {
					t.Errorf("deleted %v, want %v: %v", got, tc.deleted, r.body)
				}
				rejected, _ := dig(r.body, "data", "rejected").([]any)
				if len(rejected) != len(tc.rejected) || dig(r.body, "data", "rejectedCount") != float64(len(tc.rejected)) {
					t.Fatalf("rejected %v, want lines %v", rejected, tc.rejected)
				}
				for _, rej := range rejected {
					want, ok := tc.rejected[dig(rej, "line").(float64)]
					if !ok || !strings.Contains(dig(rej, "message").(string), want) {
						t.Errorf("rejection %v, want %q", rej, want)
					}
				}
			})
		}

		for _, tc := range []struct {
			name   string
			id     string
			tenant int64
			want   *time.Time
			text   string
		}{
			{"reported with its time, first report kept", a1, tenantA, &deletedAt, "Acme's first report"},
			{"never reported", a2, tenantA, nil, "Acme's second report"},
			{"tenant B's, reported by its token", b1, tenantB, nil, "Initech's report"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				p, err := s.Post(ctx, tc.id, tc.tenant)
				if err != nil {
					t.Fatal(err)
				}
				if p.ContentText != tc.text {
					t.Errorf("text %q, want it kept: %q", p.ContentText, tc.text)
				}
				switch {
				case tc.want != nil && (p.DeletedAt == nil || !p.DeletedAt.Equal(*tc.want)):
					t.Errorf("deletedAt %v, want %v", p.DeletedAt, *tc.want)
				case tc.want == nil && tc.id != b1 && p.DeletedAt != nil:
					t.Errorf("deletedAt %v, want none", p.DeletedAt)
				case tc.id == b1 && p.DeletedAt == nil:
					t.Error("tenant B's report was not recorded")
				}
			})
		}
		// What readers get carries the mark.
		r := c.do("GET", "/api/v1/stories/"+a1, nil, withBearer(readerA))
		posts, _ := dig(r.body, "data", "posts").([]any)
		var got any
		for _, p := range posts {
			if dig(p, "id") == a1 {
				got = p
			}
		}
		if r.status != 200 || got == nil || dig(got, "deletedAt") != deletedAt.Format(time.RFC3339) ||
			dig(got, "content_text") != "Acme's first report" {
			t.Errorf("story = %d %v, want the post with its deletedAt", r.status, r.body)
		}
	})
}
