package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/backtest"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/query"
)

// The Monitor's reply shapes are documented in docs/monitor-api.md; the web app's copies are
// generated from these (internal/contracts).

// PersonReply is a saved search's or group's owner (Role authz.RoleOwner), or a person it is
// shared with (the share's role).
type PersonReply struct {
	ID       int64  `json:"id"`
	Email    string `json:"email"`
	Username string `json:"username"`
	Name     string `json:"name,omitempty"`
	Role     string `json:"role"`
}

// SharingReply is a person a search or group is shared with; FromGroup says the access comes
// from the group, and cannot be changed on the search.
type SharingReply struct {
	PersonReply
	FromGroup bool `json:"fromGroup"`
}

func sharesJSON(shares []monitor.Share) []SharingReply {
	out := make([]SharingReply, 0, len(shares))
	for _, sh := range shares {
		out = append(out, SharingReply{PersonReply: personJSON(sh), FromGroup: sh.FromGroup})
	}
	return out
}

func personJSON(sh monitor.Share) PersonReply {
	return PersonReply{ID: sh.UserID, Email: sh.Email, Username: sh.Username, Name: sh.Name, Role: sh.Role}
}

// GroupReply is a group of saved searches as its viewer sees it; Searches only in the reply
// of one group.
type GroupReply struct {
	ID               int64             `json:"id"`
	Name             string            `json:"name"`
	Privacy          string            `json:"privacy"`
	IsFavourite      bool              `json:"isFavourite"`
	IsSavedSearch    bool              `json:"isSavedSearch"`
	CanEdit          bool              `json:"canEdit"`
	CanManageSharing bool              `json:"canManageSharing"`
	Owner            PersonReply       `json:"owner"`
	SharedUsers      []SharingReply    `json:"sharedUsers"`
	SearchCount      int               `json:"searchCount"`
	CreatedAt        int64             `json:"createdAt"`
	UpdatedAt        int64             `json:"updatedAt"`
	Searches         []SearchMiniReply `json:"searches,omitempty"`
}

func groupJSON(g monitor.GroupView) GroupReply {
	return GroupReply{ID: g.ID, Name: g.Name, Privacy: g.Privacy, IsFavourite: g.Personal.Favourite,
		IsSavedSearch: g.IsSavedSearch, CanEdit: g.Level >= authz.LevelEdit, CanManageSharing: g.CanManageSharing,
		Owner: personJSON(g.Owner), SharedUsers: sharesJSON(g.Shares), SearchCount: g.SearchCount,
		CreatedAt: g.CreatedAt.Unix(), UpdatedAt: g.UpdatedAt.Unix()}
}

// GroupMiniReply is the short form of a group that lists carry.
type GroupMiniReply struct {
	ID            int64  `json:"id"`
	Name          string `json:"name"`
	Privacy       string `json:"privacy"`
	IsSavedSearch bool   `json:"isSavedSearch"`
	CanEdit       bool   `json:"canEdit"`
	IsFavourite   bool   `json:"isFavourite"`
}

// ProviderName names a data source of a saved search.
type ProviderName struct {
	Name string `json:"name"`
}

// SearchPart is what a saved search looks for.
type SearchPart struct {
	Address       string         `json:"address"`
	AddressBounds string         `json:"address_bounds"`
	AuthorID      string         `json:"author_id"`
	AuthorQuery   string         `json:"author_query"`
	Query         string         `json:"query"`
	Keywords      []string       `json:"keywords"`
	Summary       string         `json:"summary"`
	Providers     []ProviderName `json:"providers"`
	ImagesOnly    bool           `json:"images_only"`
	VideoOnly     bool           `json:"video_only"`
	BoardNames    []string       `json:"board_names"`
}

// SearchMiniReply is the short form of a saved search that lists carry.
type SearchMiniReply struct {
	ID            int64  `json:"id"`
	SavedSearchID int64  `json:"savedSearchId"`
	Value         string `json:"value"`
	GroupID       int64  `json:"groupId"`
	Enabled       bool   `json:"enabled"`
	Favourite     bool   `json:"favourite"`
	// Hidden says the caller hid the search from Locate's saved-search list (a hidden stream).
	Hidden  bool        `json:"hidden"`
	Status  string      `json:"status"`
	CanEdit bool        `json:"canEdit"`
	Owner   PersonReply `json:"owner"`
	Search  struct {
		Keywords  []string       `json:"keywords"`
		Providers []ProviderName `json:"providers"`
	} `json:"search"`
}

// SearchReply is a saved search as its viewer sees it; times are Unix seconds, null when unset.
type SearchReply struct {
	ID                          int64           `json:"id"`
	SavedSearchID               int64           `json:"savedSearchId"`
	Value                       string          `json:"value"`
	GroupID                     int64           `json:"groupId"`
	Enabled                     bool            `json:"enabled"`
	Favourite                   bool            `json:"favourite"`
	Hidden                      bool            `json:"hidden"`
	Status                      string          `json:"status"`
	CanEdit                     bool            `json:"canEdit"`
	CanManageSharing            bool            `json:"canManageSharing"`
	GnipLowerLimitExceeded      bool            `json:"gnipLowerLimitExceeded"`
	GnipUpperLimitExceeded      bool            `json:"gnipUpperLimitExceeded"`
	StreamingLowerLimitExceeded bool            `json:"streamingLowerLimitExceeded"`
	StreamingUpperLimitExceeded bool            `json:"streamingUpperLimitExceeded"`
	GnipOverrideUntil           *int64          `json:"gnipOverrideUntil"`
	StreamingOverrideUntil      *int64          `json:"streamingOverrideUntil"`
	StartAt                     *int64          `json:"start_at"`
	EndAt                       *int64          `json:"end_at"`
	Polygons                    []string        `json:"polygons"`
	SharedUsers                 []SharingReply  `json:"sharedUsers"`
	Owner                       PersonReply     `json:"owner"`
	FilterLists                 []IDReply       `json:"filterLists"`
	NotificationSettings        json.RawMessage `json:"notificationSettings"`
	Search                      SearchPart      `json:"search"`
	CreatedAt                   int64           `json:"createdAt"`
	UpdatedAt                   int64           `json:"updatedAt"`
	// Backfill is the search's latest backfill on the reply of one search (its create, update
	// and read); null when it had none, and in lists.
	Backfill *monitor.BackfillReply `json:"backfill"`
}

// IDReply names a row by its id.
type IDReply struct {
	ID int64 `json:"id"`
}

func unixOrNil(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	u := t.Unix()
	return &u
}

func providerNames(names []string) []ProviderName {
	out := make([]ProviderName, 0, len(names))
	for _, n := range names {
		out = append(out, ProviderName{Name: n})
	}
	return out
}

func keywordList(q string) []string {
	if q == "" {
		return []string{}
	}
	return query.Keywords(q)
}

func searchMiniJSON(sv monitor.SearchView, now time.Time) SearchMiniReply {
	m := SearchMiniReply{ID: sv.ID, SavedSearchID: sv.ID, Value: sv.Name, GroupID: sv.GroupID, Enabled: sv.Enabled,
		Favourite: sv.Personal.Favourite, Hidden: sv.Personal.Hidden, Status: sv.Status(now), CanEdit: sv.Level >= authz.LevelEdit,
		Owner: personJSON(sv.Owner)}
	m.Search.Keywords = keywordList(sv.Keywords)
	m.Search.Providers = providerNames(sv.Providers)
	return m
}

func searchJSON(sv monitor.SearchView, now time.Time) SearchReply {
	r := SearchReply{ID: sv.ID, SavedSearchID: sv.ID, Value: sv.Name, GroupID: sv.GroupID, Enabled: sv.Enabled,
		Favourite: sv.Personal.Favourite, Hidden: sv.Personal.Hidden, Status: sv.Status(now), CanEdit: sv.Level >= authz.LevelEdit,
		CanManageSharing:            sv.CanManageSharing,
		GnipLowerLimitExceeded:      sv.GnipLowerLimitExceeded,
		GnipUpperLimitExceeded:      sv.GnipUpperLimitExceeded,
		StreamingLowerLimitExceeded: sv.StreamingLowerLimitExceeded,
		StreamingUpperLimitExceeded: sv.StreamingUpperLimitExceeded,
		GnipOverrideUntil:           unixOrNil(sv.GnipOverrideUntil),
		StreamingOverrideUntil:      unixOrNil(sv.StreamingOverrideUntil),
		StartAt:                     unixOrNil(sv.StartAt), EndAt: unixOrNil(sv.EndAt),
		Polygons: []string{}, SharedUsers: sharesJSON(sv.Shares), Owner: personJSON(sv.Owner),
		FilterLists: []IDReply{}, NotificationSettings: sv.NotificationSettings,
		CreatedAt: sv.CreatedAt.Unix(), UpdatedAt: sv.UpdatedAt.Unix(),
		Search: SearchPart{Address: sv.Address, AddressBounds: sv.AddressBounds, AuthorID: sv.AuthorID,
			AuthorQuery: sv.AuthorQuery, Query: sv.Keywords, Keywords: keywordList(sv.Keywords),
			Providers: providerNames(sv.Providers), ImagesOnly: sv.ImagesOnly, VideoOnly: sv.VideoOnly,
			BoardNames: sv.BoardNames},
	}
	if sv.Keywords != "" {
		r.Search.Summary = query.Summary(sv.Keywords)
	}
	if sv.AddressBounds != "" {
		r.Polygons = []string{sv.AddressBounds}
	}
	if r.Search.BoardNames == nil {
		r.Search.BoardNames = []string{}
	}
	if len(r.NotificationSettings) == 0 {
		r.NotificationSettings = json.RawMessage("[]")
	}
	for _, id := range sv.FilterLists {
		r.FilterLists = append(r.FilterLists, IDReply{ID: id})
	}
	if sv.Backfill != nil {
		b := sv.Backfill.Reply()
		r.Backfill = &b
	}
	return r
}

func pathID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, problem.NotFound("The requested resource was not found.")
	}
	return id, nil
}

// Groups.

func (a *API) groupsMini(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	groups, err := a.Monitor.Groups(r.Context(), id.Actor())
	if err != nil {
		return err
	}
	out := make([]GroupMiniReply, 0, len(groups))
	for _, g := range groups {
		out = append(out, GroupMiniReply{ID: g.ID, Name: g.Name, Privacy: g.Privacy, IsSavedSearch: g.IsSavedSearch,
			CanEdit: g.Level >= authz.LevelEdit, IsFavourite: g.Personal.Favourite})
	}
	return ok(w, out)
}

func (a *API) groups(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	groups, err := a.Monitor.Groups(r.Context(), id.Actor())
	if err != nil {
		return err
	}
	out := make([]GroupReply, 0, len(groups))
	for _, g := range groups {
		out = append(out, groupJSON(g))
	}
	return ok(w, out)
}

func (a *API) group(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	gid, err := pathID(r)
	if err != nil {
		return err
	}
	g, err := a.Monitor.Group(r.Context(), id.Actor(), gid)
	if err != nil {
		return err
	}
	searches, err := a.Monitor.SearchesWithOwners(r.Context(), id.Actor(), gid)
	if err != nil {
		return err
	}
	reply := groupJSON(g)
	reply.Searches = []SearchMiniReply{}
	now := time.Now()
	for _, sv := range searches {
		reply.Searches = append(reply.Searches, searchMiniJSON(sv, now))
	}
	return ok(w, reply)
}

type groupBody struct {
	Name        *string               `json:"name"`
	Privacy     *string               `json:"privacy"`
	IsFavourite *bool                 `json:"isFavourite"`
	SharedUsers *[]monitor.ShareInput `json:"sharedUsers"`
}

func (b groupBody) input() monitor.GroupInput {
	return monitor.GroupInput{Name: b.Name, Privacy: b.Privacy, IsFavourite: b.IsFavourite, SharedUsers: b.SharedUsers}
}

func (a *API) createGroup(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body groupBody
	if err := decode(r, &body); err != nil {
		return err
	}
	g, err := a.Monitor.CreateGroup(r.Context(), id.Actor(), body.input())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, envelope{Data: groupJSON(g)})
	return nil
}

func (a *API) updateGroup(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	gid, err := pathID(r)
	if err != nil {
		return err
	}
	var body groupBody
	if err := decode(r, &body); err != nil {
		return err
	}
	g, err := a.Monitor.UpdateGroup(r.Context(), id.Actor(), gid, body.input())
	if err != nil {
		return err
	}
	return ok(w, groupJSON(g))
}

// itemAction adapts a Monitor action on the item named in the path to a handler that replies
// {"<done>": true}: detaching and deleting groups and searches.
func (a *API) itemAction(action func(ctx context.Context, actor authz.Actor, id int64) error, done string) func(http.ResponseWriter, *http.Request, auth.Identity) error {
	return func(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
		itemID, err := pathID(r)
		if err != nil {
			return err
		}
		if err := action(r.Context(), id.Actor(), itemID); err != nil {
			return err
		}
		return ok(w, map[string]bool{done: true})
	}
}

// Searches.

func (a *API) searches(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var groupID int64
	if g := r.URL.Query().Get("groupId"); g != "" {
		var err error
		if groupID, err = strconv.ParseInt(g, 10, 64); err != nil {
			return problem.InvalidField("groupId", "groupId must be a number.")
		}
	}
	list, err := a.Monitor.SearchesWithOwners(r.Context(), id.Actor(), groupID)
	if err != nil {
		return err
	}
	out := make([]SearchMiniReply, 0, len(list))
	now := time.Now()
	for _, sv := range list {
		out = append(out, searchMiniJSON(sv, now))
	}
	return ok(w, out)
}

func (a *API) search(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	sv, err := a.Monitor.Search(r.Context(), id.Actor(), sid)
	if err != nil {
		return err
	}
	return ok(w, searchJSON(sv, time.Now()))
}

func (a *API) createSearch(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var in monitor.SearchInput
	if err := decode(r, &in); err != nil {
		return err
	}
	if err := boundQuery("keywords", in.Keywords); err != nil {
		return err
	}
	sv, err := a.Monitor.CreateSearch(r.Context(), id.Actor(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, envelope{Data: searchJSON(sv, time.Now())})
	return nil
}

// backtestSearch previews a draft search over the stored posts; it is limited like a search.
func (a *API) backtestSearch(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var in backtest.Request
	if err := decode(r, &in); err != nil {
		return err
	}
	if err := boundQuery("keywords", in.Keywords); err != nil {
		return err
	}
	done, err := a.SearchLimiter.Begin(id.User.ID)
	if err != nil {
		return err
	}
	defer done()
	res, err := a.Backtest.Run(r.Context(), id.Actor(), in)
	if err != nil {
		return err
	}
	return ok(w, res)
}

func (a *API) updateSearch(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	var in monitor.SearchInput
	if err := decode(r, &in); err != nil {
		return err
	}
	if err := boundQuery("keywords", in.Keywords); err != nil {
		return err
	}
	sv, err := a.Monitor.UpdateSearch(r.Context(), id.Actor(), sid, in)
	if err != nil {
		return err
	}
	return ok(w, searchJSON(sv, time.Now()))
}

func (a *API) moveSearches(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body struct {
		MonitorSearches []int64 `json:"monitorSearches"`
		GroupID         int64   `json:"groupId"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	n, err := a.Monitor.MoveSearches(r.Context(), id.Actor(), body.MonitorSearches, body.GroupID)
	if err != nil {
		return err
	}
	return ok(w, map[string]int{"moved": n})
}

// searchSetting handles PATCH searches/settings/{id}/{setting}: enable, favourite, gnipOverride
// and streamingOverride, each with its own boolean field.
func (a *API) searchSetting(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	var body map[string]json.RawMessage
	if err := decode(r, &body); err != nil {
		return err
	}
	flag := func(field string) (bool, error) {
		var v bool
		if err := json.Unmarshal(body[field], &v); err != nil {
			return false, problem.InvalidField(field, "The "+field+" field must be true or false.")
		}
		return v, nil
	}
	setters := map[string]struct {
		field string
		set   func(v bool) (monitor.SearchView, error)
	}{
		"enable": {"enabled", func(v bool) (monitor.SearchView, error) { return a.Monitor.SetEnabled(r.Context(), id.Actor(), sid, v) }},
		"favourite": {"favourite", func(v bool) (monitor.SearchView, error) {
			return a.Monitor.SetFavourite(r.Context(), id.Actor(), sid, v)
		}},
		"hidden": {"hidden", func(v bool) (monitor.SearchView, error) {
			return a.Monitor.SetHidden(r.Context(), id.Actor(), sid, v)
		}},
		"gnipOverride": {"gnip_limiter_override", func(v bool) (monitor.SearchView, error) {
			return a.Monitor.SetGnipOverride(r.Context(), id.Actor(), sid, v)
		}},
		"streamingOverride": {"percolate_limiter_override", func(v bool) (monitor.SearchView, error) {
			return a.Monitor.SetStreamingOverride(r.Context(), id.Actor(), sid, v)
		}},
	}
	setter, known := setters[r.PathValue("setting")]
	if !known {
		return problem.NotFound("There is no %s setting.", r.PathValue("setting"))
	}
	v, err := flag(setter.field)
	if err != nil {
		return err
	}
	sv, err := setter.set(v)
	if err != nil {
		return err
	}
	return ok(w, searchJSON(sv, time.Now()))
}
