package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// seedMember adds a member to the organization of a seeded user.
func seedMember(t *testing.T, s *store.Store, of account.User, email string) account.User {
	t.Helper()
	u := account.User{TenantID: of.TenantID, OrganizationID: of.OrganizationID, Email: email, Username: email,
		PasswordHash: "h"}
	if err := s.CreateUser(context.Background(), &u, account.RoleMember); err != nil {
		t.Fatal(err)
	}
	return u
}

func entries(values ...string) []filters.Entry {
	out := make([]filters.Entry, len(values))
	for i, v := range values {
		out[i] = filters.Entry{Value: v, Key: filters.NameKey(v)}
	}
	return out
}

func TestFilterListsRoundTrip(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "owner@acme.test")
		other := seedUser(t, s, "owner@globex.test")

		spam := filters.List{OrganizationID: owner.OrganizationID, OwnerID: owner.ID, Name: "Café spam",
			Type: filters.Keyword, Inclusion: false, Entries: entries("promo code", "Link in bio")}
		if err := s.CreateFilterList(ctx, &spam); err != nil {
			t.Fatal(err)
		}
		got, err := s.FilterList(ctx, spam.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Name != "Café spam" || got.Type != filters.Keyword || got.Inclusion || got.Owner.Email != owner.Email ||
			!slices.Equal(got.Values(), []string{"promo code", "Link in bio"}) || got.Entries[0].ID == 0 {
			t.Errorf("FilterList = %+v", got)
		}

		// Names are unique per organization, compared folded.
		dup := filters.List{OrganizationID: owner.OrganizationID, OwnerID: owner.ID, Name: "CAFE SPAM", Type: filters.Author}
		if err := s.CreateFilterList(ctx, &dup); !problem.Is(err, problem.KindInvalid) {
			t.Errorf("same name folded: %v, want an invalid-field problem", err)
		}
		elsewhere := filters.List{OrganizationID: other.OrganizationID, OwnerID: other.ID, Name: "Café spam",
			Type: filters.Author, Entries: entries("bot_one")}
		if err := s.CreateFilterList(ctx, &elsewhere); err != nil {
			t.Errorf("same name in another organization: %v", err)
		}
		objects := filters.List{OrganizationID: owner.OrganizationID, OwnerID: owner.ID, Name: "arms",
			Type: filters.ObjectDetection, Inclusion: true, Entries: entries("rifle")}
		if err := s.CreateFilterList(ctx, &objects); err != nil {
			t.Fatal(err)
		}
		renamed := objects
		renamed.Name = "café Spam"
		if err := s.UpdateFilterList(ctx, renamed); !problem.Is(err, problem.KindInvalid) {
			t.Errorf("rename onto a used name: %v, want an invalid-field problem", err)
		}

		// Entries are added once per key; removal ignores other lists' entries.
		added, err := s.AddFilterListEntries(ctx, spam.ID, entries("PROMO CODE", "free shipping"))
		if err != nil || added != 1 {
			t.Errorf("AddFilterListEntries = %d, %v; want 1", added, err)
		}
		got, _ = s.FilterList(ctx, spam.ID)
		if !slices.Equal(got.Values(), []string{"promo code", "Link in bio", "free shipping"}) {
			t.Errorf("entries after adding: %q", got.Values())
		}
		foreign, _ := s.FilterList(ctx, elsewhere.ID)
		removed, err := s.RemoveFilterListEntries(ctx, spam.ID, []int64{got.Entries[0].ID, foreign.Entries[0].ID})
		if err != nil || removed != 1 {
			t.Errorf("RemoveFilterListEntries = %d, %v; want 1", removed, err)
		}
		if foreign, _ = s.FilterList(ctx, elsewhere.ID); len(foreign.Entries) != 1 {
			t.Errorf("another list lost an entry: %+v", foreign)
		}

		lists, err := s.FilterLists(ctx, owner.OrganizationID)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, l := range lists {
			names = append(names, l.Name)
		}
		if !slices.Equal(names, []string{"arms", "Café spam"}) || len(lists[1].Entries) != 2 {
			t.Errorf("FilterLists = %q (%+v)", names, lists)
		}

		if _, err := s.DeleteFilterList(ctx, spam.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.FilterList(ctx, spam.ID); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("deleted list: %v, want not found", err)
		}
	})
}

func TestFilterListAttachments(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "owner@acme.test")
		member := seedMember(t, s, owner, "member@acme.test")
		actor := authz.Actor{UserID: member.ID, OrganizationID: owner.OrganizationID, Role: account.RoleMember}

		list := filters.List{OrganizationID: owner.OrganizationID, OwnerID: owner.ID, Name: "noise",
			Type: filters.Keyword, Entries: entries("giveaway")}
		if err := s.CreateFilterList(ctx, &list); err != nil {
			t.Fatal(err)
		}
		authors := filters.List{OrganizationID: owner.OrganizationID, OwnerID: owner.ID, Name: "bots",
			Type: filters.Author, Entries: entries("spam_bot")}
		if err := s.CreateFilterList(ctx, &authors); err != nil {
			t.Fatal(err)
		}
		private := monitor.Group{OrganizationID: owner.OrganizationID, OwnerID: owner.ID, Name: "Mine", Privacy: authz.PrivacyPrivate}
		readonly := monitor.Group{OrganizationID: owner.OrganizationID, OwnerID: owner.ID, Name: "Ours", Privacy: authz.PrivacyReadonly}
		for _, g := range []*monitor.Group{&private, &readonly} {
			if err := s.CreateGroup(ctx, g, nil); err != nil {
				t.Fatal(err)
			}
		}
		search := func(name string, g monitor.Group, shares []monitor.Share, lists ...int64) int64 {
			m := monitor.Search{OrganizationID: owner.OrganizationID, OwnerID: owner.ID, GroupID: g.ID, Name: name,
				Enabled: true, Keywords: "protest"}
			if err := s.CreateSearch(ctx, &m, shares, lists); err != nil {
				t.Fatal(err)
			}
			return m.ID
		}
		hidden := search("Hidden", private, nil, list.ID)
		shared := search("Shared with the member", private, []monitor.Share{{UserID: member.ID, Role: authz.RoleReadOnly}}, list.ID, authors.ID)
		open := search("Open to all", readonly, nil, list.ID)

		attached, err := s.FilterListAttachments(ctx, member.ID, owner.OrganizationID, 0)
		if err != nil {
			t.Fatal(err)
		}
		levels := map[[2]int64]authz.Level{}
		for _, a := range attached {
			levels[[2]int64{a.ListID, a.SearchID}] = authz.SearchLevel(actor, a.Search)
		}
		want := map[[2]int64]authz.Level{
			{list.ID, hidden}: authz.LevelNone, {list.ID, shared}: authz.LevelView, {list.ID, open}: authz.LevelView,
			{authors.ID, shared}: authz.LevelView,
		}
		if len(levels) != len(want) {
			t.Errorf("attachments %v, want %v", levels, want)
		}
		for k, w := range want {
			if levels[k] != w {
				t.Errorf("list %d search %d: member's level %d, want %d", k[0], k[1], levels[k], w)
			}
		}
		one, err := s.FilterListAttachments(ctx, member.ID, owner.OrganizationID, authors.ID)
		if err != nil || len(one) != 1 || one[0].SearchID != shared || one[0].SearchName != "Shared with the member" {
			t.Errorf("attachments of one list = %+v, %v", one, err)
		}

		// Detaching from the search hides it again.
		if err := s.Detach(ctx, "search", shared, member.ID); err != nil {
			t.Fatal(err)
		}
		one, _ = s.FilterListAttachments(ctx, member.ID, owner.OrganizationID, authors.ID)
		if len(one) != 1 || authz.SearchLevel(actor, one[0].Search) != authz.LevelNone {
			t.Errorf("after detaching: %+v", one)
		}

		ids, err := s.FilterListSearchIDs(ctx, list.ID)
		if err != nil || !slices.Equal(ids, []int64{hidden, shared, open}) {
			t.Errorf("FilterListSearchIDs = %v, %v", ids, err)
		}
		bySearch, err := s.FilterListsOfSearches(ctx, []int64{shared, open, 9999})
		if err != nil {
			t.Fatal(err)
		}
		if len(bySearch) != 2 || len(bySearch[shared]) != 2 || len(bySearch[open]) != 1 ||
			bySearch[shared][1].Type != filters.Author || !slices.Equal(bySearch[shared][1].Values(), []string{"spam_bot"}) {
			t.Errorf("FilterListsOfSearches = %+v", bySearch)
		}

		detached, err := s.DeleteFilterList(ctx, list.ID)
		if err != nil || !slices.Equal(detached, []int64{hidden, shared, open}) {
			t.Errorf("DeleteFilterList = %v, %v", detached, err)
		}
		if bySearch, _ = s.FilterListsOfSearches(ctx, []int64{hidden, shared}); len(bySearch[hidden]) != 0 || len(bySearch[shared]) != 1 {
			t.Errorf("after deleting, searches keep %+v", bySearch)
		}
	})
}

// The percolator loads every search's lists at start: more searches than one query may bind.
func TestFilterListsOfManySearches(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "owner@acme.test")
		list := filters.List{OrganizationID: owner.OrganizationID, OwnerID: owner.ID, Name: "noise",
			Type: filters.Keyword, Entries: entries("giveaway")}
		if err := s.CreateFilterList(ctx, &list); err != nil {
			t.Fatal(err)
		}
		group, err := s.UncategorizedGroup(ctx, owner.OrganizationID, owner.ID)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for i := range 1001 {
			m := monitor.Search{OrganizationID: owner.OrganizationID, OwnerID: owner.ID, GroupID: group.ID,
				Name: "s", Keywords: "protest"}
			var lists []int64
			if i%2 == 0 {
				lists = []int64{list.ID}
			}
			if err := s.CreateSearch(ctx, &m, nil, lists); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, m.ID)
		}
		bySearch, err := s.FilterListsOfSearches(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		if len(bySearch) != 501 || len(bySearch[ids[1000]]) != 1 || len(bySearch[ids[999]]) != 0 {
			t.Errorf("%d searches with lists, want 501", len(bySearch))
		}
	})
}

func TestObjectDetectionUsage(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		for i, want := range []int64{1, 2, 3} {
			if uses, err := s.TrackObjectDetection(ctx, 1, "rifle"); err != nil || uses != want {
				t.Fatalf("use %d: %d, %v", i, uses, err)
			}
		}
		if _, err := s.TrackObjectDetection(ctx, 2, "drone"); err != nil {
			t.Fatal(err)
		}
		usage, err := s.ObjectDetectionUsage(ctx, 1)
		if err != nil || len(usage) != 1 || usage["rifle"] != 3 {
			t.Errorf("ObjectDetectionUsage = %v, %v", usage, err)
		}
	})
}
