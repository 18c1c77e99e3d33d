package api_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/backtest"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// backtestEnv is an API with the Monitor, filter lists and the backtest over a real store.
func backtestEnv(t *testing.T, s *store.Store) (*env, *monitor.Service, *filters.Service) {
	t.Helper()
	e := newEnv(t, s)
	f := filters.NewService(s, nil)
	svc := monitor.NewService(monitor.Deps{Store: s, Inbox: s, FilterLists: f})
	h := api.New(api.Deps{Accounts: e.accounts, Auth: e.auth, Monitor: svc, Filters: f, Health: s.Ping,
		SearchLimiter: search.NewLimiter(), Backtest: backtest.NewService(svc, s),
		App: api.AppHandler(nil, false), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	e.srv.Close()
	e.srv = httptest.NewServer(h)
	t.Cleanup(e.srv.Close)
	return e, svc, f
}

func TestBacktestAPI(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e, svc, lists := backtestEnv(t, s)
		ctx := context.Background()
		owner, analyst, globex := e.actor("owner@acme.test"), e.actor("analyst@acme.test"), e.actor("owner@globex.test")
		home, _ := e.store.UncategorizedGroup(ctx, owner.OrganizationID, owner.UserID)
		token := e.bearerFor("owner@acme.test")
		c := e.client()
		const path = "/api/v1/monitor/searches/backtest"

		now := time.Now().UTC()
		var posts []post.Post
		for i, text := range []string{"flood on the river", "the river flood rises", "sunny day", "flood warning", "flood"} {
			p := post.Post{Provider: "twitter", NativeID: fmt.Sprint("bt", i), ContentText: text, AuthorName: fmt.Sprint("Author ", i),
				PublishedAt: now.Add(-time.Duration(i*49) * time.Hour)}
			if i == 4 {
				p.Provider = "reddit" // not among the draft's data sources
			}
			if err := p.Normalize(now); err != nil {
				t.Fatal(err)
			}
			posts = append(posts, p)
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}

		exclude := false
		mine, _, err := lists.Create(ctx, owner, filters.Draft{Name: "No warnings", Type: "keyword", Inclusion: &exclude, Entries: []string{"warning"}})
		if err != nil {
			t.Fatal(err)
		}
		analystList, _, err := lists.Create(ctx, analyst, filters.Draft{Name: "Analyst's", Type: "keyword", Inclusion: &exclude, Entries: []string{"river"}})
		if err != nil {
			t.Fatal(err)
		}
		theirs, _, err := lists.Create(ctx, globex, filters.Draft{Name: "Globex", Type: "keyword", Inclusion: &exclude, Entries: []string{"river"}})
		if err != nil {
			t.Fatal(err)
		}
		globexHome, _ := e.store.UncategorizedGroup(ctx, globex.OrganizationID, globex.UserID)
		theirSearch, err := svc.CreateSearch(ctx, globex, monitor.SearchInput{GroupID: globexHome.ID, Name: "Theirs",
			Keywords: "flood", Providers: []string{"twitter"}})
		if err != nil {
			t.Fatal(err)
		}

		valid := map[string]any{"group_id": home.ID, "name": "Floods", "keywords": "flood", "providers": []string{"twitter"}}
		with := func(k string, v any) map[string]any {
			m := map[string]any{}
			for key, val := range valid {
				m[key] = val
			}
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
			return m
		}

		if r := e.client().do("POST", path, valid); r.status != 401 {
			t.Errorf("signed out = %d, want 401", r.status)
		}
		for _, tt := range []struct {
			name   string
			body   map[string]any
			status int
			field  string
		}{
			{"no name", with("name", nil), 422, "name"},
			{"no providers", with("providers", []string{}), 422, "providers"},
			{"nothing to search", with("keywords", nil), 422, "query"},
			{"lower-case or", with("keywords", "flood or fire"), 422, "keywords"},
			{"another organization's group", with("group_id", globexHome.ID), 422, "group_id"},
			{"another organization's filter list", with("search_filters", []int64{theirs.ID}), 422, "search_filters"},
			{"someone else's filter list", with("search_filters", []int64{analystList.ID}), 422, "search_filters"},
			{"a window too long", with("days", 31), 422, "days"},
			{"another organization's search", with("monitorSearchId", theirSearch.ID), 404, ""},
		} {
			t.Run(tt.name, func(t *testing.T) {
				r := c.do("POST", path, tt.body, withBearer(token))
				errs, _ := r.body["errors"].(map[string]any)
				if r.status != tt.status || (tt.field != "" && errs[tt.field] == nil) {
					t.Errorf("= %d %v, want %d on %q", r.status, r.body, tt.status, tt.field)
				}
			})
		}

		r := c.do("POST", path, with("search_filters", []int64{mine.ID}), withBearer(token))
		data, _ := r.body["data"].(map[string]any)
		samples, _ := data["samples"].([]any)
		perDay, _ := data["perDay"].([]any)
		if r.status != 200 || data["count"] != 2.0 || data["truncated"] != false || len(samples) != 2 || len(perDay) != 31 {
			t.Fatalf("= %d %v, want the 2 river floods over 31 days", r.status, r.body)
		}
		if dig(samples[0], "id") != posts[0].ID || dig(samples[1], "id") != posts[1].ID {
			t.Errorf("samples = %v, want the newest first", samples)
		}
		if got := data["expectedPerDay"].(float64); got < 2.0/30*0.999 || got > 2.0/30*1.001 {
			t.Errorf("expectedPerDay = %v, want 2/30", got)
		}
		last := perDay[len(perDay)-1].(map[string]any)
		if last["date"] != now.Format(time.DateOnly) || last["count"] != 1.0 {
			t.Errorf("today = %v", last)
		}
		if r := c.do("POST", path, with("days", 1), withBearer(token)); dig(r.body, "data", "count") != 1.0 {
			t.Errorf("one day = %d %v, want today's flood only", r.status, r.body)
		}

		// Nothing was saved.
		if searches, _ := svc.Searches(ctx, owner, 0); len(searches) != 0 {
			t.Errorf("a backtest saved %d searches", len(searches))
		}

		// Previewing an edit validates as the update would: the lists already attached stay usable.
		mineSearch, err := svc.CreateSearch(ctx, owner, monitor.SearchInput{GroupID: home.ID, Name: "Saved floods",
			Keywords: "flood", Providers: []string{"twitter"}, SearchFilters: []int64{mine.ID}})
		if err != nil {
			t.Fatal(err)
		}
		edit := with("monitorSearchId", mineSearch.ID)
		edit["search_filters"] = []int64{mine.ID}
		if r := c.do("POST", path, edit, withBearer(token)); r.status != 200 || dig(r.body, "data", "count") != 2.0 {
			t.Errorf("previewing an edit = %d %v", r.status, r.body)
		}

		// Limited like a search: 60 a minute.
		limited := 0
		for range 60 {
			if r := c.do("POST", path, with("days", 99), withBearer(token)); r.status == 429 {
				limited++
			}
		}
		if limited == 0 {
			t.Error("no backtest was rate limited")
		}
	})
}

// Over HTTP: a search previewed and then saved with a backfill of the preview's days has, once
// the backfill is done, the inbox the preview counted; out of range, saving is refused.
func TestBackfillAPI(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnv(t, s)
		ctx := context.Background()
		f := filters.NewService(s, nil)
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		backfills := backtest.NewBackfills(backtest.BackfillDeps{Store: s, Lists: f,
			Writer: monitor.NewPercolator(monitor.PercolatorDeps{Store: s, Lists: f, Logger: log}), Logger: log})
		svc := monitor.NewService(monitor.Deps{Store: s, Inbox: s, FilterLists: f, Backfill: backfills})
		h := api.New(api.Deps{Accounts: e.accounts, Auth: e.auth, Monitor: svc, Filters: f, Health: s.Ping,
			SearchLimiter: search.NewLimiter(), Backtest: backtest.NewService(svc, s), App: api.AppHandler(nil, false), Logger: log})
		e.srv.Close()
		e.srv = httptest.NewServer(h)
		t.Cleanup(e.srv.Close)

		owner := e.actor("owner@acme.test")
		home, _ := s.UncategorizedGroup(ctx, owner.OrganizationID, owner.UserID)
		token := e.bearerFor("owner@acme.test")
		c := e.client()
		now := time.Now().UTC()
		var posts []post.Post
		for i := range 12 {
			p := post.Post{Provider: "twitter", NativeID: fmt.Sprint("bf", i), ContentText: "flood at the river",
				PublishedAt: now.Add(-time.Duration(i*20) * time.Hour)} // 9 of them in the last 7 days
			if err := p.Normalize(now); err != nil {
				t.Fatal(err)
			}
			posts = append(posts, p)
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		body := map[string]any{"group_id": home.ID, "name": "Floods", "keywords": "flood", "providers": []string{"twitter"}}

		preview := c.do("POST", "/api/v1/monitor/searches/backtest", map[string]any{"group_id": home.ID, "name": "Floods",
			"keywords": "flood", "providers": []string{"twitter"}, "days": 7}, withBearer(token))
		counts, _ := dig(preview.body, "data", "backfill").([]any)
		if preview.status != 200 || len(counts) != 7 || counts[6] != 9.0 || dig(preview.body, "data", "count") != 9.0 {
			t.Fatalf("preview = %d %v, want 9 matches in 7 days", preview.status, preview.body)
		}

		for _, days := range []int{-1, 31} {
			body["backfillDays"] = days
			r := c.do("POST", "/api/v1/monitor/searches", body, withBearer(token))
			if msgs, _ := dig(r.body, "errors", "backfillDays").([]any); r.status != 422 || len(msgs) != 1 || msgs[0] != monitor.MsgBackfillDays {
				t.Errorf("backfillDays %d = %d %v, want 422 on backfillDays", days, r.status, r.body)
			}
		}

		body["backfillDays"] = 7
		r := c.do("POST", "/api/v1/monitor/searches", body, withBearer(token))
		if r.status != 201 || dig(r.body, "data", "backfill", "days") != 7.0 {
			t.Fatalf("create = %d %v, want 201 with its backfill", r.status, r.body)
		}
		backfills.Wait()
		id := dig(r.body, "data", "id").(float64)
		got := c.do("GET", fmt.Sprintf("/api/v1/monitor/searches/%d", int64(id)), nil, withBearer(token))
		if dig(got.body, "data", "backfill", "status") != monitor.BackfillDone || dig(got.body, "data", "backfill", "added") != 9.0 {
			t.Errorf("after the backfill = %v, want done with the 9 previewed", got.body)
		}
		inbox := c.do("GET", fmt.Sprintf("/api/v1/monitor/matches?monitorSearchIds=%d", int64(id)), nil, withBearer(token))
		if dig(inbox.body, "meta", "total") != 9.0 {
			t.Errorf("inbox = %v, want the 9 previewed", inbox.body)
		}
	})
}
