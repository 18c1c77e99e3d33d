package store_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/announce"
	"github.com/sightline/sightline/internal/asset"
	"github.com/sightline/sightline/internal/assistant"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/connector/sources"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/sourcing"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// domainTables hold what the audited changes of saved searches, groups, sharing, alerts, filter
// lists, location configurations, assets, announcements, sources and the assistant store.
var domainTables = []string{"monitor_groups", "monitor_group_shares", "monitor_searches", "monitor_search_shares",
	"monitor_search_filter_lists", "monitor_detachments", "monitor_favourites", "filter_lists", "filter_list_entries",
	"location_configurations", "organizations", "announcements", "announcement_reads", "sources", "assistant_conversations",
	"assistant_turns"}

// switchAudit makes the database refuse every new audit row (on) or accept them again (off).
func switchAudit(t *testing.T, s *store.Store, on bool) {
	t.Helper()
	ctx := context.Background()
	stmts := []string{`DROP TRIGGER audit_down`}
	if on {
		stmts = []string{`CREATE TRIGGER audit_down BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit down'); END`}
	}
	if s.Dialect() == store.Postgres {
		stmts = []string{`DROP TRIGGER audit_down ON audit_log`}
		if on {
			stmts = []string{
				`CREATE OR REPLACE FUNCTION audit_down() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit down'; END $$`,
				`CREATE TRIGGER audit_down BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_down()`,
			}
		}
	}
	for _, q := range stmts {
		if err := s.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
}

// Every audited change of saved searches, groups, sharing, alerts and the webhook secret, filter
// lists, location configurations, assets, announcements, sources and the assistant is stored with its
// audit row or not at all: while the row cannot be written, the change fails with the audit's
// error and leaves every table as it was; once it can, the row carries the actor's name as it
// was then, which renaming the actor afterwards does not rewrite.
func TestAuditedChangesNeedTheirRow(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		accounts := account.NewService(s)
		mk := func(email, name string, role account.Role) (account.User, authz.Actor) {
			u, err := accounts.CreateUser(ctx, account.NewUser{Tenant: "acme-tenant", Organization: "Acme", Email: email,
				Name: name, Password: "correct-horse-9", Role: role, TenantAdmin: role == account.RoleOwner})
			if err != nil {
				t.Fatal(err)
			}
			u.ACL = account.ACL{Pro: true}
			return u, auth.Identity{User: u, Role: role}.Actor()
		}
		owner, actor := mk("owner@acme.test", "Olive Owner", account.RoleOwner)
		analyst, analystActor := mk("analyst@acme.test", "Ana Analyst", account.RoleMember)
		gazetteer, err := geo.LoadGazetteer()
		if err != nil {
			t.Fatal(err)
		}
		lists := filters.NewService(s, nil)
		locations := filters.NewLocations(s, gazetteer)
		assets := asset.NewService(s)
		channels := alerts.Channels(alerts.ChannelDeps{Store: s})
		mon := monitor.NewService(monitor.Deps{Store: s, Inbox: s, FilterLists: lists, Channels: channels})
		al := alerts.NewService(alerts.Deps{Store: s, Matches: mon, Channels: channels})
		news := announce.NewService(s)
		builder := sources.Builder{Allow: outbound.Everywhere}
		sourceRows := sourcing.NewService(sourcing.Deps{Store: s, Interval: builder.Interval,
			Build: func(r sourcing.Source, cursors connector.CursorStore, prefix string) ([]connector.Source, error) {
				return builder.BuildRow(r.Type, r.Name, r.Config, cursors, prefix)
			}})
		answers := assistant.NewService(s, search.NewService(s, search.Options{}), nil, assistant.Limits{}, nil)
		str := func(v string) *string { return &v }
		feed := json.RawMessage(`{"url":"https://news.example.org/feed.xml"}`)
		yes := true

		// Reading the Monitor makes the reader's Uncategorized group once; done here, so that the
		// first read within a change adds no row the change did not.
		for _, a := range []authz.Actor{actor, analystActor} {
			if _, err := mon.Groups(ctx, a); err != nil {
				t.Fatal(err)
			}
		}

		var groupID, searchID, listID, sourceID, announcementID, assetID int64
		var fpid string
		steps := []struct {
			name          string
			by            authz.Actor
			do            func() error
			model, action string
		}{
			{"create a group", actor, func() error {
				g, err := mon.CreateGroup(ctx, actor, monitor.GroupInput{Name: str("Floods"),
					SharedUsers: &[]monitor.ShareInput{{Username: analyst.Email, Role: "read_only"}}})
				groupID = g.ID
				return err
			}, audit.ModelSharing, audit.ActionShared},
			{"rename a group", actor, func() error {
				_, err := mon.UpdateGroup(ctx, actor, groupID, monitor.GroupInput{Name: str("Floods EU")})
				return err
			}, audit.ModelGroup, audit.ActionUpdated},
			{"unshare a group", actor, func() error {
				_, err := mon.UpdateGroup(ctx, actor, groupID, monitor.GroupInput{SharedUsers: &[]monitor.ShareInput{}})
				return err
			}, audit.ModelSharing, audit.ActionUnshared},
			{"create a search", actor, func() error {
				v, err := mon.CreateSearch(ctx, actor, monitor.SearchInput{GroupID: groupID, Name: "River", Keywords: "flood",
					Providers: []string{"twitter"}, SharedUsers: &[]monitor.ShareInput{{Username: analyst.Email, Role: "full_access"}}})
				searchID = v.ID
				return err
			}, audit.ModelSharing, audit.ActionShared},
			{"edit a search", actor, func() error {
				_, err := mon.UpdateSearch(ctx, actor, searchID, monitor.SearchInput{GroupID: groupID, Name: "River",
					Keywords: "flood OR inondation", Providers: []string{"twitter"}})
				return err
			}, audit.ModelSearch, audit.ActionUpdated},
			{"pause a search", actor, func() error {
				_, err := mon.SetEnabled(ctx, actor, searchID, false)
				return err
			}, audit.ModelSearch, audit.ActionUpdated},
			{"change a search's alerts", actor, func() error {
				_, err := mon.SetNotificationSettings(ctx, actor, searchID, []monitor.NotificationSetting{{Type: "batch", Interval: 300}})
				return err
			}, audit.ModelAlert, audit.ActionUpdated},
			{"leave a shared search", analystActor, func() error { return mon.DetachSearch(ctx, analystActor, searchID) },
				audit.ModelSearch, audit.ActionDetached},
			{"move a search", actor, func() error {
				groups, err := mon.Groups(ctx, actor)
				if err != nil {
					return err
				}
				for _, g := range groups {
					if g.IsSavedSearch && g.OwnerID == owner.ID {
						_, err = mon.MoveSearches(ctx, actor, []int64{searchID}, g.ID)
					}
				}
				return err
			}, audit.ModelSearch, audit.ActionMoved},
			{"delete a search", actor, func() error { return mon.DeleteSearch(ctx, actor, searchID) },
				audit.ModelSearch, audit.ActionDeleted},
			{"delete a group", actor, func() error { return mon.DeleteGroup(ctx, actor, groupID) },
				audit.ModelGroup, audit.ActionDeleted},
			{"create a filter list", actor, func() error {
				v, _, err := lists.Create(ctx, actor, filters.Draft{Name: "Noise", Type: "keyword", Inclusion: new(bool),
					Entries: []string{"spam", "promo"}})
				listID = v.ID
				return err
			}, audit.ModelFilterList, audit.ActionCreated},
			{"switch a filter list", actor, func() error {
				_, err := lists.Update(ctx, actor, listID, filters.Patch{Name: str("Noise words"), Inclusion: &yes})
				return err
			}, audit.ModelFilterList, audit.ActionUpdated},
			{"add filter list entries", actor, func() error {
				_, _, err := lists.AddEntries(ctx, actor, listID, filters.Keyword, []string{"giveaway"})
				return err
			}, audit.ModelFilterList, audit.ActionUpdated},
			{"remove filter list entries", actor, func() error {
				v, err := lists.One(ctx, actor, listID)
				if err != nil {
					return err
				}
				_, err = lists.RemoveEntries(ctx, actor, listID, filters.Keyword, []int64{v.Entries[0].ID})
				return err
			}, audit.ModelFilterList, audit.ActionUpdated},
			{"delete a filter list", actor, func() error { return lists.Delete(ctx, actor, listID) },
				audit.ModelFilterList, audit.ActionDeleted},
			{"create a location configuration", actor, func() error {
				lat, lon := 48.85, 2.35
				v, err := locations.Create(ctx, actor, filters.LocationInput{Name: "HQ", Lat: &lat, Lon: &lon})
				fpid = v.FPID
				return err
			}, audit.ModelConfiguration, audit.ActionCreated},
			{"move a location configuration", actor, func() error {
				lat, lon := 51.5, -0.12
				_, err := locations.Update(ctx, actor, fpid, filters.LocationInput{Name: "Head office", Lat: &lat, Lon: &lon})
				return err
			}, audit.ModelConfiguration, audit.ActionUpdated},
			{"delete a location configuration", actor, func() error { return locations.Delete(ctx, actor, fpid) },
				audit.ModelConfiguration, audit.ActionDeleted},
			{"create an asset", actor, func() error {
				v, err := assets.Create(ctx, actor, asset.Asset{Type: asset.IPAddress, Value: "10.0.0.1"})
				assetID = v.ID
				return err
			}, audit.ModelAsset, audit.ActionCreated},
			{"change an asset", actor, func() error {
				_, err := assets.Update(ctx, actor, assetID, asset.Asset{Type: asset.IPAddress, Value: "10.0.0.2"})
				return err
			}, audit.ModelAsset, audit.ActionUpdated},
			{"delete an asset", actor, func() error { return assets.Delete(ctx, actor, assetID) },
				audit.ModelAsset, audit.ActionDeleted},
			{"rotate the webhook secret", actor, func() error {
				_, err := al.RotateWebhookSecret(ctx, actor, owner.OrganizationID)
				return err
			}, audit.ModelAlert, audit.ActionRotated},
			{"publish an announcement", actor, func() error {
				n, err := news.Publish(ctx, actor, announce.Draft{Title: "Maintenance", Body: "Sunday 02:00 UTC"})
				announcementID = n.ID
				return err
			}, audit.ModelAnnouncement, audit.ActionCreated},
			{"withdraw an announcement", actor, func() error { return news.Delete(ctx, actor, announcementID) },
				audit.ModelAnnouncement, audit.ActionDeleted},
			{"add a source", actor, func() error {
				v, err := sourceRows.Create(ctx, actor, sourcing.Input{Type: str("rss"), Name: str("News"), Config: &feed})
				sourceID = v.ID
				return err
			}, "source", "created"},
			{"disable a source", actor, func() error {
				off := false
				_, err := sourceRows.Update(ctx, actor, sourceID, sourcing.Input{Enabled: &off})
				return err
			}, "source", "disabled"},
			{"remove a source", actor, func() error { return sourceRows.Delete(ctx, actor, sourceID) }, "source", "deleted"},
			{"ask the assistant", actor, func() error {
				_, err := answers.Ask(ctx, actor, "session-1", "harbour strike")
				return err
			}, "assistant", "answered"},
		}
		names := map[int64]string{owner.ID: owner.Name, analyst.ID: analyst.Name}
		for _, st := range steps {
			before, err := s.Rows(ctx, domainTables...)
			if err != nil {
				t.Fatal(err)
			}
			switchAudit(t, s, true)
			err = st.do()
			switchAudit(t, s, false)
			if err == nil || !strings.Contains(err.Error(), "audit down") {
				t.Errorf("%s without its audit row: err = %v, want the audit's error", st.name, err)
			}
			if after, err := s.Rows(ctx, domainTables...); err != nil || after != before {
				t.Errorf("%s without its audit row changed the tables (%v):\nbefore %s\nafter  %s", st.name, err, before, after)
			}

			if err := st.do(); err != nil {
				t.Errorf("%s: %v", st.name, err)
				continue
			}
			rows, _, err := s.AuditRows(ctx, audit.Query{TenantID: owner.TenantID, Limit: 1})
			if err != nil || len(rows) != 1 {
				t.Fatalf("%s: audit rows = %v, %v", st.name, rows, err)
			}
			if r := rows[0]; r.Model != st.model || r.Action != st.action || r.UserID != st.by.UserID || r.UserName != names[st.by.UserID] {
				t.Errorf("%s: newest row is %s %s by %d (%q), want %s %s by %d (%q)", st.name, r.Model, r.Action, r.UserID,
					r.UserName, st.model, st.action, st.by.UserID, names[st.by.UserID])
			}
		}

		for _, u := range []account.User{owner, analyst} {
			if _, err := accounts.UpdateContact(ctx, u.ID, "Renamed", strings.Split(u.Email, "@")[0]+"2"); err != nil {
				t.Fatal(err)
			}
		}
		rows, _, err := s.AuditRows(ctx, audit.Query{TenantID: owner.TenantID, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.UserName != names[r.UserID] {
				t.Errorf("after the rename, %s %s by %d shows %q, want %q", r.Model, r.Action, r.UserID, r.UserName, names[r.UserID])
			}
		}
	})
}
