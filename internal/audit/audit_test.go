package audit_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/announce"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

func TestSnapshot(t *testing.T) {
	got := audit.Snapshot(audit.Fields{"name": "River", "address": "", "providers": []string{}, "end_at": nil,
		"enabled": false, "keywords": "flood"})
	if want := `{"enabled":false,"keywords":"flood","name":"River"}`; got != want {
		t.Errorf("Snapshot = %s, want %s", got, want)
	}
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name          string
		before, after audit.Fields
		prev, next    string
		changed       bool
	}{
		{"nothing changed", audit.Fields{"a": 1, "b": []string{"x"}}, audit.Fields{"a": 1, "b": []string{"x"}}, "", "", false},
		{"one field", audit.Fields{"a": 1, "k": "flood"}, audit.Fields{"a": 1, "k": "flood OR fire"},
			`{"k":"flood"}`, `{"k":"flood OR fire"}`, true},
		{"list", audit.Fields{"p": []string{"x"}}, audit.Fields{"p": []string{"x", "y"}}, `{"p":["x"]}`, `{"p":["x","y"]}`, true},
		{"field added", audit.Fields{}, audit.Fields{"a": true}, "", `{"a":true}`, true},
		{"field removed", audit.Fields{"a": true}, audit.Fields{}, `{"a":true}`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prev, next, changed := audit.Diff(tt.before, tt.after)
			if prev != tt.prev || next != tt.next || changed != tt.changed {
				t.Errorf("Diff = %q %q %v, want %q %q %v", prev, next, changed, tt.prev, tt.next, tt.changed)
			}
		})
	}
}

// TestChangesAreAudited makes each kind of change through its domain service, in order, and
// checks the row it appends: model, action, and the changed fields before and after.
func TestChangesAreAudited(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		accounts := account.NewService(s)
		mk := func(email string, role account.Role) account.User {
			u, err := accounts.CreateUser(ctx, account.NewUser{Tenant: "acme-tenant", Organization: "Acme", Email: email,
				Password: "correct-horse-9", Role: role, TenantAdmin: role == account.RoleOwner})
			if err != nil {
				t.Fatal(err)
			}
			return u
		}
		owner, analyst := mk("owner@acme.test", account.RoleOwner), mk("analyst@acme.test", account.RoleMember)
		actor := auth.Identity{User: owner, Role: account.RoleOwner}.Actor()
		gazetteer, err := geo.LoadGazetteer()
		if err != nil {
			t.Fatal(err)
		}
		lists := filters.NewService(s, nil)
		locations := filters.NewLocations(s, gazetteer)
		channels := alerts.Channels(alerts.ChannelDeps{Store: s})
		mon := monitor.NewService(monitor.Deps{Store: s, Inbox: s, FilterLists: lists, Channels: channels})
		al := alerts.NewService(alerts.Deps{Store: s, Matches: mon, Channels: channels})
		news := announce.NewService(s)
		str := func(v string) *string { return &v }
		yes := true

		var groupID, searchID, listID int64
		var fpid string
		steps := []struct {
			name           string
			do             func() error
			model, action  string
			prev, next     string // substrings of the previous and new values; "" wants none
			modelIDNotZero bool
		}{
			{"group created", func() error {
				g, err := mon.CreateGroup(ctx, actor, monitor.GroupInput{Name: str("Floods")})
				groupID = g.ID
				return err
			}, audit.ModelGroup, audit.ActionCreated, "", `"name":"Floods"`, true},
			{"group renamed", func() error {
				_, err := mon.UpdateGroup(ctx, actor, groupID, monitor.GroupInput{Name: str("Floods EU")})
				return err
			}, audit.ModelGroup, audit.ActionUpdated, `{"name":"Floods"}`, `{"name":"Floods EU"}`, true},
			{"group shared", func() error {
				_, err := mon.UpdateGroup(ctx, actor, groupID, monitor.GroupInput{Privacy: str("shared"),
					SharedUsers: &[]monitor.ShareInput{{Username: analyst.Email, Role: "read_only"}}})
				return err
			}, audit.ModelSharing, audit.ActionShared, "", `"user":"analyst@acme.test"`, false},
			{"search created", func() error {
				v, err := mon.CreateSearch(ctx, actor, monitor.SearchInput{GroupID: groupID, Name: "River", Keywords: "flood",
					Providers: []string{"twitter"}})
				searchID = v.ID
				return err
			}, audit.ModelSearch, audit.ActionCreated, "", `"keywords":"flood"`, true},
			{"search keywords edited", func() error {
				_, err := mon.UpdateSearch(ctx, actor, searchID, monitor.SearchInput{GroupID: groupID, Name: "River",
					Keywords: "flood OR inondation", Providers: []string{"twitter"}})
				return err
			}, audit.ModelSearch, audit.ActionUpdated, `{"keywords":"flood"}`, `{"keywords":"flood OR inondation"}`, true},
			{"search shared", func() error {
				_, err := mon.UpdateSearch(ctx, actor, searchID, monitor.SearchInput{GroupID: groupID, Name: "River",
					Keywords: "flood OR inondation", Providers: []string{"twitter"},
					SharedUsers: &[]monitor.ShareInput{{Username: analyst.Email, Role: "full_access"}}})
				return err
			}, audit.ModelSharing, audit.ActionShared, "", `"role":"full_access"`, false},
			{"search unshared", func() error {
				_, err := mon.UpdateSearch(ctx, actor, searchID, monitor.SearchInput{GroupID: groupID, Name: "River",
					Keywords: "flood OR inondation", Providers: []string{"twitter"}, SharedUsers: &[]monitor.ShareInput{}})
				return err
			}, audit.ModelSharing, audit.ActionUnshared, `"user":"analyst@acme.test"`, "", false},
			{"search paused", func() error {
				_, err := mon.SetEnabled(ctx, actor, searchID, false)
				return err
			}, audit.ModelSearch, audit.ActionUpdated, `{"enabled":true}`, `{"enabled":false}`, true},
			{"alert settings changed", func() error {
				_, err := mon.SetNotificationSettings(ctx, actor, searchID, []monitor.NotificationSetting{{Type: "batch", Interval: 300}})
				return err
			}, audit.ModelAlert, audit.ActionUpdated, "", `"interval":300`, true},
			{"search moved", func() error {
				_, err := mon.MoveSearches(ctx, actor, []int64{searchID}, uncategorized(t, mon, actor))
				return err
			}, audit.ModelSearch, audit.ActionMoved, `"group":"Floods EU"`, `"group":"Uncategorized"`, true},
			{"search deleted", func() error { return mon.DeleteSearch(ctx, actor, searchID) },
				audit.ModelSearch, audit.ActionDeleted, `"keywords":"flood OR inondation"`, "", true},
			{"group deleted", func() error { return mon.DeleteGroup(ctx, actor, groupID) },
				audit.ModelGroup, audit.ActionDeleted, `"name":"Floods EU"`, "", true},
			{"filter list created", func() error {
				v, _, err := lists.Create(ctx, actor, filters.Draft{Name: "Noise", Type: "keyword", Inclusion: new(bool),
					Entries: []string{"spam", "promo"}})
				listID = v.ID
				return err
			}, audit.ModelFilterList, audit.ActionCreated, "", `"keywords":["spam","promo"]`, true},
			{"filter list renamed", func() error {
				_, err := lists.Update(ctx, actor, listID, filters.Patch{Name: str("Noise words")})
				return err
			}, audit.ModelFilterList, audit.ActionUpdated, `{"name":"Noise"}`, `{"name":"Noise words"}`, true},
			{"filter list switched", func() error {
				_, err := lists.Update(ctx, actor, listID, filters.Patch{Inclusion: &yes})
				return err
			}, audit.ModelFilterList, audit.ActionUpdated, `{"inclusion":false}`, `{"inclusion":true}`, true},
			{"filter list keywords added", func() error {
				_, _, err := lists.AddEntries(ctx, actor, listID, filters.Keyword, []string{"giveaway"})
				return err
			}, audit.ModelFilterList, audit.ActionUpdated, "", `"keywords":["giveaway"]`, true},
			{"filter list keywords removed", func() error {
				v, err := lists.One(ctx, actor, listID)
				if err != nil {
					return err
				}
				_, err = lists.RemoveEntries(ctx, actor, listID, filters.Keyword, []int64{v.Entries[0].ID})
				return err
			}, audit.ModelFilterList, audit.ActionUpdated, `"keywords":["spam"]`, "", true},
			{"filter list deleted", func() error { return lists.Delete(ctx, actor, listID) },
				audit.ModelFilterList, audit.ActionDeleted, `"name":"Noise words"`, "", true},
			{"configuration created", func() error {
				lat, lon := 48.85, 2.35
				v, err := locations.Create(ctx, actor, filters.LocationInput{Name: "HQ", Lat: &lat, Lon: &lon})
				fpid = v.FPID
				return err
			}, audit.ModelConfiguration, audit.ActionCreated, "", `"name":"HQ"`, true},
			{"configuration renamed", func() error {
				lat, lon := 48.85, 2.35
				_, err := locations.Update(ctx, actor, fpid, filters.LocationInput{Name: "Head office", Lat: &lat, Lon: &lon})
				return err
			}, audit.ModelConfiguration, audit.ActionUpdated, `{"name":"HQ"}`, `{"name":"Head office"}`, true},
			{"configuration deleted", func() error { return locations.Delete(ctx, actor, fpid) },
				audit.ModelConfiguration, audit.ActionDeleted, `"name":"Head office"`, "", true},
			{"webhook secret rotated", func() error {
				_, err := al.RotateWebhookSecret(ctx, actor, owner.OrganizationID)
				return err
			}, audit.ModelAlert, audit.ActionRotated, "", `"organization_id"`, true},
			{"settings changed", func() error {
				_, err := accounts.SetDisplayTheme(ctx, owner.ID, account.ThemeDark)
				return err
			}, audit.ModelSettings, audit.ActionUpdated, `{"display_theme":"system"}`, `{"display_theme":"dark"}`, true},
			{"settings switch toggled", func() error {
				_, err := accounts.Toggle(ctx, owner.ID, "is-inbox-streaming-enabled")
				return err
			}, audit.ModelSettings, audit.ActionUpdated, `{"is_inbox_streaming_enabled":false}`, `{"is_inbox_streaming_enabled":true}`, true},
			{"password changed", func() error {
				a, err := auth.New(ctx, s, auth.Options{})
				if err != nil {
					return err
				}
				return a.ChangePassword(ctx, auth.Identity{User: owner, Role: account.RoleOwner}, "correct-horse-9",
					"tidal-harbour-77", "tidal-harbour-77", "127.0.0.1")
			}, audit.ModelSettings, audit.ActionUpdated, "", `{"password":"changed"}`, true},
			{"announcement published", func() error {
				_, err := news.Publish(ctx, actor, announce.Draft{Title: "Maintenance", Body: "Sunday 02:00 UTC"})
				return err
			}, audit.ModelAnnouncement, audit.ActionCreated, "", `"title":"Maintenance"`, true},
		}
		log := audit.NewLog(s)
		for _, st := range steps {
			if err := st.do(); err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
			p, err := log.Page(ctx, actor, audit.Filter{}, 1)
			if err != nil || len(p.Rows) == 0 {
				t.Fatalf("%s: audit log = %v, %v", st.name, p, err)
			}
			row := p.Rows[0]
			if row.Model != st.model || row.Action != st.action || row.UserID != owner.ID || row.UserEmail != owner.Email ||
				row.OrganizationName != "Acme" {
				t.Errorf("%s: newest row = %+v, want %s %s by %s", st.name, row, st.model, st.action, owner.Email)
				continue
			}
			check := func(what, got, want string) {
				if want == "" && got != "" || !strings.Contains(got, want) {
					t.Errorf("%s: %s value = %q, want %q", st.name, what, got, want)
				}
				if got != "" && !json.Valid([]byte(got)) {
					t.Errorf("%s: %s value %q is not JSON", st.name, what, got)
				}
			}
			check("previous", row.PreviousValue, st.prev)
			check("new", row.NewValue, st.next)
			if st.modelIDNotZero && (row.ModelID == "" || row.ModelID == "0") {
				t.Errorf("%s: model id = %q", st.name, row.ModelID)
			}
		}

		// Favourites are personal and leave no row.
		before, _ := log.Page(ctx, actor, audit.Filter{}, 1)
		if _, err := mon.CreateGroup(ctx, actor, monitor.GroupInput{Name: str("Fav")}); err != nil {
			t.Fatal(err)
		}
		gs, _ := mon.Groups(ctx, actor)
		for _, g := range gs {
			if g.Name == "Fav" {
				if _, err := mon.UpdateGroup(ctx, actor, g.ID, monitor.GroupInput{IsFavourite: &yes}); err != nil {
					t.Fatal(err)
				}
			}
		}
		after, _ := log.Page(ctx, actor, audit.Filter{}, 1)
		if after.Total != before.Total+1 {
			t.Errorf("a new group and a favourite wrote %d rows, want 1 (the group)", after.Total-before.Total)
		}
	})
}

// uncategorized is the actor's Uncategorized group.
func uncategorized(t *testing.T, mon *monitor.Service, actor authz.Actor) int64 {
	t.Helper()
	groups, err := mon.Groups(context.Background(), actor)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		if g.IsSavedSearch && g.OwnerID == actor.UserID {
			return g.ID
		}
	}
	t.Fatal("no Uncategorized group")
	return 0
}
