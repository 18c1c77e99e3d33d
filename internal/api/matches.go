package api

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/story"
)

const (
	defaultPerPage = 50
	maxPerPage     = 200
)

// idList reads a comma-separated list of ids (also accepting repeated and name[] parameters).
func idList(values url.Values, name string) ([]int64, error) {
	var out []int64
	for _, raw := range append(values[name], values[name+"[]"]...) {
		for _, part := range strings.Split(raw, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			id, err := strconv.ParseInt(part, 10, 64)
			if err != nil {
				return nil, problem.InvalidField(name, name+" must be a list of numbers.")
			}
			out = append(out, id)
		}
	}
	return out, nil
}

// matchFilters are the inbox filters, in a query string or a JSON body.
type matchFilters struct {
	MonitorSearchIDs []int64  `json:"monitorSearchIds"`
	Images           bool     `json:"images"`
	Location         bool     `json:"location"`
	Video            bool     `json:"video"`
	Unread           bool     `json:"unread"`
	Flagged          bool     `json:"flagged"`
	Providers        []string `json:"providers"`
	SearchText       string   `json:"searchText"`
	SearchIn         []string `json:"searchIn"`
	// StoryID keeps to the matches of one story's posts (a story card's matches and actions).
	StoryID string `json:"storyId"`
	Sort    string `json:"sort"`
	// UpTo is the list's asOf (milliseconds since the epoch): act only on matches made by then.
	UpTo int64 `json:"upTo"`
	// Since is a list's asOf too: only matches made after it, the ones the list does not show.
	Since int64 `json:"since"`
}

// query is the inbox query the filters ask for; the monitor validates it (MatchQuery.Validate).
func (f matchFilters) query() monitor.MatchQuery {
	q := monitor.MatchQuery{SearchIDs: f.MonitorSearchIDs, Images: f.Images, Location: f.Location, Video: f.Video,
		Unread: f.Unread, Flagged: f.Flagged, Providers: f.Providers, Text: f.SearchText, SearchIn: f.SearchIn,
		StoryID: strings.TrimSpace(f.StoryID), Sort: f.Sort}
	if f.UpTo > 0 {
		q.UpTo = time.UnixMilli(f.UpTo)
	}
	if f.Since > 0 {
		q.Since = time.UnixMilli(f.Since)
	}
	return q
}

func filtersFromQuery(v url.Values) (matchFilters, error) {
	ids, err := idList(v, "monitorSearchIds")
	if err != nil {
		return matchFilters{}, err
	}
	yes := func(name string) bool { b, _ := strconv.ParseBool(v.Get(name)); return b }
	f := matchFilters{MonitorSearchIDs: ids, Images: yes("images"), Location: yes("location"), Video: yes("video"),
		Unread: yes("unread"), Flagged: yes("flagged"), SearchText: v.Get("searchText"), StoryID: v.Get("storyId"), Sort: v.Get("sort")}
	for name, to := range map[string]*int64{"upTo": &f.UpTo, "since": &f.Since} {
		if text := v.Get(name); text != "" {
			if *to, err = strconv.ParseInt(text, 10, 64); err != nil || *to < 0 {
				return matchFilters{}, problem.InvalidField(name, name+" must be a time in milliseconds since 1970.")
			}
		}
	}
	if in := v.Get("searchIn"); in != "" {
		f.SearchIn = strings.Split(in, ",")
	}
	if p := v.Get("providers"); p != "" {
		f.Providers = strings.Split(p, ",")
	}
	return f, nil
}

func matchesJSON(entries []monitor.InboxEntry) []monitor.MatchPayload {
	out := make([]monitor.MatchPayload, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Payload())
	}
	return out
}

func (a *API) matches(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	v := r.URL.Query()
	f, err := filtersFromQuery(v)
	if err != nil {
		return err
	}
	q := f.query()
	page, _ := strconv.Atoi(v.Get("page"))
	page = max(page, 1)
	perPage, _ := strconv.Atoi(v.Get("perPage"))
	if perPage <= 0 {
		perPage = defaultPerPage
	}
	perPage = min(perPage, maxPerPage)
	q.Offset, q.Limit = (page-1)*perPage, perPage
	// asOf is read before the matches: an action bounded by it covers every match this page counted.
	asOf := time.Now()
	var data any
	var total int64
	switch v.Get("groupBy") {
	case "":
		var entries []monitor.InboxEntry
		entries, total, err = a.Monitor.Inbox(r.Context(), id.Actor(), q)
		data = matchesJSON(entries)
	case "story":
		var groups []monitor.StoryGroup
		groups, total, err = a.Monitor.InboxStories(r.Context(), id.Actor(), q)
		if err == nil {
			data, err = a.storyGroupsJSON(r.Context(), id.Actor(), groups)
		}
	default:
		return problem.InvalidField("groupBy", "The groupBy must be story, or left out.")
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": data, "meta": map[string]any{
		"current_page": page, "last_page": max(1, int((total+int64(perPage)-1)/int64(perPage))),
		"per_page": perPage, "total": total, "as_of": asOf.UnixMilli()}})
	return nil
}

// StoryGroupReply is one row of the inbox grouped by story (groupBy=story): the story, how many
// of the inbox's matches are in it, the newest of them, and the story's summary as the caller
// sees it, so that a card needs no request of its own.
type StoryGroupReply struct {
	StoryID     string               `json:"storyId"`
	MatchCount  int64                `json:"matchCount"`
	NewestMatch monitor.MatchPayload `json:"newestMatch"`
	Story       story.Summary        `json:"story"`
}

func (a *API) storyGroupsJSON(ctx context.Context, actor authz.Actor, groups []monitor.StoryGroup) ([]StoryGroupReply, error) {
	ids := make([]string, len(groups))
	for i, g := range groups {
		ids[i] = g.StoryID
	}
	sums, err := a.Stories.Summaries(ctx, actor, ids)
	if err != nil {
		return nil, err
	}
	out := make([]StoryGroupReply, 0, len(groups))
	for _, g := range groups {
		sum, ok := sums[g.StoryID]
		if !ok { // its posts were removed since the match was made
			sum = story.Summary{ID: g.StoryID, Providers: []story.Count{}, Languages: []story.Count{}, Timeline: []story.HourCount{}}
		}
		out = append(out, StoryGroupReply{StoryID: g.StoryID, MatchCount: g.MatchCount, NewestMatch: g.Newest.Payload(), Story: sum})
	}
	return out, nil
}

func (a *API) matchList(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	ids, err := idList(r.URL.Query(), "matchIds")
	if err != nil {
		return err
	}
	entries, err := a.Monitor.InboxByIDs(r.Context(), id.Actor(), ids)
	if err != nil {
		return err
	}
	return ok(w, matchesJSON(entries))
}

// stateFields maps a PATCH path's flag to the state field and the body field that sets it.
var stateFields = map[string]struct{ field, body string }{
	"is-flagged": {monitor.FieldFlagged, "setIsFlagged"},
	"is-read":    {monitor.FieldRead, "setMarkedAsRead"},
	"is-deleted": {monitor.FieldDeleted, "setIsDeleted"},
}

type stateBody struct {
	MatchResultDocuments []int64 `json:"matchResultDocuments"`
	SetIsFlagged         *bool   `json:"setIsFlagged"`
	SetMarkedAsRead      *bool   `json:"setMarkedAsRead"`
	SetIsDeleted         *bool   `json:"setIsDeleted"`
	matchFilters
}

func (b stateBody) value(field string) *bool {
	switch field {
	case monitor.FieldFlagged:
		return b.SetIsFlagged
	case monitor.FieldRead:
		return b.SetMarkedAsRead
	}
	return b.SetIsDeleted
}

func (a *API) updateMatches(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	spec, known := stateFields[r.PathValue("flag")]
	scope := r.PathValue("scope")
	if !known || (scope != "update" && scope != "update-all") {
		return problem.NotFound("There is no %s flag.", r.PathValue("flag"))
	}
	var body stateBody
	if err := decode(r, &body); err != nil {
		return err
	}
	value := body.value(spec.field)
	if value == nil {
		return problem.InvalidField(spec.body, "The "+spec.body+" field must be true or false.")
	}
	var update monitor.Update
	var err error
	if scope == "update-all" {
		update, err = a.Monitor.SetStateAll(r.Context(), id.Actor(), body.matchFilters.query(), spec.field, *value)
	} else {
		update, err = a.Monitor.SetState(r.Context(), id.Actor(), body.MatchResultDocuments, spec.field, *value)
	}
	if err != nil {
		return err
	}
	return ok(w, update)
}

func (a *API) matchCounts(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	ids, err := idList(r.URL.Query(), "monitorSearchIds")
	if err != nil {
		return err
	}
	counts, err := a.Monitor.Counts(r.Context(), id.Actor(), ids)
	if err != nil {
		return err
	}
	return ok(w, counts)
}

func (a *API) matchCountsList(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	ids, err := idList(r.URL.Query(), "monitorSearchIds")
	if err != nil {
		return err
	}
	by, err := a.Monitor.CountsBySearch(r.Context(), id.Actor(), ids)
	if err != nil {
		return err
	}
	type entry struct {
		MonitorSearchID int64 `json:"monitorSearchId"`
		monitor.Counts
	}
	out := make([]entry, 0, len(by))
	for sid, c := range by {
		out = append(out, entry{MonitorSearchID: sid, Counts: c})
	}
	sortBy(out, func(e entry) int64 { return e.MonitorSearchID })
	return ok(w, out)
}

func (a *API) threadContext(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	p, thread, err := a.Monitor.ThreadContext(r.Context(), id.Actor(), r.PathValue("postId"))
	if err != nil {
		return err
	}
	if thread == nil {
		thread = []post.Post{}
	}
	return ok(w, map[string]any{"post": p, "thread": thread})
}
