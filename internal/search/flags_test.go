package search_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// Flags on both databases: the user's own, most recently flagged first, only of posts the
// subscriptions reach, gone with their posts' retention.
func TestFlags(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		var posts []post.Post
		for i, prov := range []string{"reddit", "telegram", "tor"} {
			p := post.Post{Provider: prov, NativeID: fmt.Sprint("f", i), ContentText: "flag me",
				PublishedAt: now.Add(-time.Duration(i*24) * time.Hour)}
			p.ID, p.DiscoveredAt = post.NewID(p.Provider, p.NativeID), p.PublishedAt
			posts = append(posts, p)
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		flags := search.NewFlags(s)
		ana, bo := newUser(t, s, "ana@acme.test"), newUser(t, s, "bo@globex.test")
		ids := func(user int64, e provider.Entitlements) string {
			t.Helper()
			list, err := flags.List(ctx, user, e)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, p := range list {
				out = append(out, p.Provider)
			}
			return fmt.Sprint(out)
		}
		for _, p := range posts {
			if err := flags.Flag(ctx, ana, everything, []string{p.ID}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(2 * time.Millisecond) // distinct flag times
		}
		if got := ids(ana, everything); got != "[tor telegram reddit]" {
			t.Errorf("flags = %s, want the most recently flagged first", got)
		}
		if got := ids(ana, provider.Entitlements{Pro: true}); got != "[telegram reddit]" {
			t.Errorf("without Beacon = %s", got)
		}
		if got := ids(bo, everything); got != "[]" {
			t.Errorf("another user's flags = %s", got)
		}
		err := flags.Flag(ctx, bo, provider.Entitlements{Pro: true}, []string{posts[2].ID})
		if !problem.Is(err, problem.KindNotFound) {
			t.Errorf("flagging a dark-web post without Beacon = %v, want not found", err)
		}
		if err := flags.Flag(ctx, ana, everything, nil); !problem.Is(err, problem.KindInvalid) {
			t.Errorf("flagging nothing = %v", err)
		}
		// Flagging again changes nothing; retention takes the flags of expired posts.
		if err := flags.Flag(ctx, ana, everything, []string{posts[0].ID}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DeleteFlagsBefore(ctx, now.Add(-36*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got := ids(ana, everything); got != "[telegram reddit]" {
			t.Errorf("after retention = %s", got)
		}
		if err := flags.Unflag(ctx, ana, posts[0].ID); err != nil {
			t.Fatal(err)
		}
		if err := flags.Clear(ctx, ana); err != nil {
			t.Fatal(err)
		}
		if got := ids(ana, everything); got != "[]" {
			t.Errorf("after clear = %s", got)
		}
	})
}

// newUser stores a user of an organization of their own and returns the id.
func newUser(t *testing.T, s *store.Store, email string) int64 {
	t.Helper()
	ctx := context.Background()
	tenant := account.Tenant{Name: "t-" + email}
	if err := s.CreateTenant(ctx, &tenant); err != nil {
		t.Fatal(err)
	}
	org := account.Organization{TenantID: tenant.ID, Name: "Org of " + email}
	if err := s.CreateOrganization(ctx, &org); err != nil {
		t.Fatal(err)
	}
	u := account.User{TenantID: tenant.ID, OrganizationID: org.ID, Email: email, Username: email, PasswordHash: "h"}
	if err := s.CreateUser(ctx, &u, account.RoleOwner); err != nil {
		t.Fatal(err)
	}
	return u.ID
}
