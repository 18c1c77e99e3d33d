package api_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// filtersEnv is an API with filter lists, location configurations and the Monitor (which
// attaches lists to searches) over a real store and the embedded geocoder. Besides newEnv's
// people, Acme has an admin and a member who creates the lists.
type filtersEnv struct {
	*env
	filters *filters.Service
	lists   int // lists made by newList, for their names
	mu      sync.Mutex
	changed []int64 // searches OnChange reported
}

func newFiltersEnv(t *testing.T, s *store.Store) *filtersEnv {
	t.Helper()
	gazetteer, err := geo.LoadGazetteer()
	if err != nil {
		t.Fatal(err)
	}
	fe := &filtersEnv{env: newEnv(t, s)}
	fe.filters = filters.NewService(s, func(_ context.Context, ids []int64) {
		fe.mu.Lock()
		defer fe.mu.Unlock()
		fe.changed = append(fe.changed, ids...)
	})
	h := api.New(api.Deps{Accounts: fe.accounts, Auth: fe.auth, Health: s.Ping,
		Monitor:   monitor.NewService(monitor.Deps{Store: s, Inbox: s, Layouts: s, FilterLists: fe.filters}),
		Filters:   fe.filters,
		Locations: filters.NewLocations(s, gazetteer),
		App:       api.AppHandler(nil, false), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	fe.srv.Close()
	fe.srv = httptest.NewServer(h)
	t.Cleanup(fe.srv.Close)
	fe.createUser("Acme", "admin@acme.test", account.RoleAdmin)
	fe.createUser("Acme", "creator@acme.test", account.RoleMember)
	return fe
}

func (fe *filtersEnv) takeChanged() []int64 {
	fe.mu.Lock()
	defer fe.mu.Unlock()
	out := fe.changed
	fe.changed = nil
	return out
}

// newList has creator@acme.test make a list through the service.
func (fe *filtersEnv) newList(typ filters.Type, inclusion bool, entries ...string) filters.View {
	fe.t.Helper()
	fe.lists++
	v, _, err := fe.filters.Create(context.Background(), fe.actor("creator@acme.test"),
		filters.Draft{Name: fmt.Sprintf("list %d", fe.lists), Type: string(typ), Inclusion: &inclusion, Entries: entries})
	if err != nil {
		fe.t.Fatal(err)
	}
	return v
}

// sendRaw sends a raw body, with no Content-Type when contentType is empty.
func (c *client) sendRaw(method, path, contentType string, body []byte, opts ...opt) reply {
	c.e.t.Helper()
	req, _ := http.NewRequest(method, c.e.srv.URL+path, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return c.send(req, opts...)
}

// multipartFile builds a form with one file field.
func multipartFile(t *testing.T, filename, contentType string, content []byte) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	header := make(map[string][]string)
	header["Content-Disposition"] = []string{fmt.Sprintf(`form-data; name="file"; filename=%q`, filename)}
	header["Content-Type"] = []string{contentType}
	part, err := w.CreatePart(header)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(content)
	w.Close()
	return w.FormDataContentType(), buf.Bytes()
}

func fieldError(r reply, field string) string {
	msgs, _ := dig(r.body, "errors", field).([]any)
	if len(msgs) == 0 {
		return ""
	}
	s, _ := msgs[0].(string)
	return s
}

// The access matrix: every filter-list endpoint for the list's creator, the organization's
// owner and admin, another member and another organization's owner.
func TestFilterListAccessMatrix(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		fe := newFiltersEnv(t, s)
		ctx := context.Background()
		people := []string{"creator@acme.test", "owner@acme.test", "admin@acme.test", "analyst@acme.test", "owner@globex.test"}
		tokens := map[string]string{}
		for _, p := range people {
			tokens[p] = fe.bearerFor(p)
		}
		c := fe.client()

		type outcome struct {
			status  int
			message string // for refusals
		}
		ok200 := outcome{status: 200}
		gone := outcome{status: 404, message: authz.MsgNotFoundFilterList}
		sharing := outcome{403, authz.MsgFilterSharing}
		byPerson := func(creator, owner, admin, member outcome) map[string]outcome {
			return map[string]outcome{"creator@acme.test": creator, "owner@acme.test": owner, "admin@acme.test": admin,
				"analyst@acme.test": member, "owner@globex.test": gone}
		}
		editors := byPerson(ok200, ok200, ok200, sharing)
		ownerOnly := func(refusal outcome) map[string]outcome { return byPerson(ok200, refusal, refusal, refusal) }

		csvType, csvBody := multipartFile(t, "more.csv", "text/csv", []byte("keyword\nlooting\narson\n"))
		noBody := func(filters.View) any { return nil }
		body := func(b any) func(filters.View) any { return func(filters.View) any { return b } }
		tests := []struct {
			name   string
			method string
			path   string // %d is a fresh keyword list's id
			body   func(l filters.View) any
			raw    []byte
			want   map[string]outcome
		}{
			{"read", "GET", "/api/v1/filter-lists/%d", noBody, nil, byPerson(ok200, ok200, ok200, ok200)},
			{"rename", "PATCH", "/api/v1/filter-lists/%d", func(l filters.View) any { return map[string]any{"name": "Renamed " + l.Name} }, nil, editors},
			{"switch to inclusion", "PATCH", "/api/v1/filter-lists/%d", body(map[string]any{"inclusion": true}), nil, ownerOnly(sharing)},
			{"delete", "DELETE", "/api/v1/filter-lists/%d", noBody, nil, ownerOnly(outcome{403, authz.MsgFilterDeleteOwner})},
			{"add keywords", "POST", "/api/v1/filter-lists/%d/keyword", body(map[string]any{"keywords": []string{"looting"}}), nil, editors},
			{"remove keywords", "DELETE", "/api/v1/filter-lists/%d/keyword",
				func(l filters.View) any { return map[string]any{"ids": []int64{l.Entries[0].ID}} }, nil, editors},
			{"upload a CSV file", "POST", "/api/v1/filter-lists/%d/upload", noBody, csvBody, editors},
		}
		for _, tt := range tests {
			for _, person := range people {
				t.Run(tt.name+" by "+person, func(t *testing.T) {
					l := fe.newList(filters.Keyword, false, "riot", "arson attack")
					path := fmt.Sprintf(tt.path, l.ID)
					var r reply
					if tt.raw != nil {
						r = c.sendRaw(tt.method, path, csvType, tt.raw, withBearer(tokens[person]))
					} else {
						r = c.do(tt.method, path, tt.body(l), withBearer(tokens[person]))
					}
					want := tt.want[person]
					if r.status != want.status || (want.message != "" && r.body["message"] != want.message) {
						t.Errorf("= %d %v, want %d %q", r.status, r.body, want.status, want.message)
					}
				})
			}
		}

		// What each person sees of one list, and of the organization's lists.
		shown := fe.newList(filters.Author, false, "spam_bot")
		for person, level := range map[string]string{"creator@acme.test": "owner", "owner@acme.test": "edit",
			"admin@acme.test": "edit", "analyst@acme.test": "view"} {
			r := c.do("GET", fmt.Sprintf("/api/v1/filter-lists/%d", shown.ID), nil, withBearer(tokens[person]))
			if dig(r.body, "data", "userPermissionLevel") != level || dig(r.body, "data", "owner", "email") != "creator@acme.test" ||
				dig(r.body, "data", "kind") != "author_exclusion" || len(dig(r.body, "data", "authors").([]any)) != 1 {
				t.Errorf("%s reads %v", person, r.body)
			}
		}
		for _, path := range []string{"/api/v1/filter-lists", "/api/v1/filter-lists/", "/api/v1/filter-lists/?type=author"} {
			mine := c.do("GET", path, nil, withBearer(tokens["analyst@acme.test"]))
			theirs := c.do("GET", path, nil, withBearer(tokens["owner@globex.test"]))
			lists, _ := mine.body["data"].([]any)
			if mine.status != 200 || len(lists) == 0 || theirs.status != 200 || len(theirs.body["data"].([]any)) != 0 {
				t.Errorf("%s: Acme sees %d lists (%d), Globex %v", path, len(lists), mine.status, theirs.body)
			}
		}
		if r := c.do("GET", "/api/v1/filter-lists?type=bogus", nil, withBearer(tokens["analyst@acme.test"])); r.status != 422 {
			t.Errorf("bad type filter = %d", r.status)
		}

		// Attaching lists to a saved search: only their owner may.
		attach := fe.newList(filters.Keyword, true, "flood")
		for _, person := range people {
			a := fe.actor(person)
			home, err := fe.store.UncategorizedGroup(ctx, a.OrganizationID, a.UserID)
			if err != nil {
				t.Fatal(err)
			}
			r := c.do("POST", "/api/v1/monitor/searches", map[string]any{"group_id": home.ID, "name": "Floods",
				"keywords": "water", "providers": []string{"twitter"}, "search_filters": []int64{attach.ID}},
				withBearer(tokens[person]))
			switch person {
			case "creator@acme.test":
				if r.status != 201 {
					t.Errorf("the owner attaches: %d %v", r.status, r.body)
				}
			case "owner@globex.test":
				if r.status != 422 || fieldError(r, "search_filters") != authz.MsgNotFoundFilterList {
					t.Errorf("another organization attaches: %d %v", r.status, r.body)
				}
			default:
				if r.status != 422 || fieldError(r, "search_filters") != authz.MsgFilterAttachOwner {
					t.Errorf("%s attaches: %d %v", person, r.status, r.body)
				}
			}
		}
	})
}

// Section 5's rules, the entry calls and what the percolator is told.
func TestFilterListRules(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		fe := newFiltersEnv(t, s)
		c := fe.client()
		token := fe.bearerFor("creator@acme.test")

		create := []struct {
			name    string
			body    map[string]any
			status  int
			field   string
			message string
		}{
			{"nothing", map[string]any{}, 422, "name", filters.MsgNameRequired},
			{"no type", map[string]any{"name": "x", "keywords": []string{"riot"}}, 422, "type", filters.MsgTypeRequired},
			{"type all is a listing filter", map[string]any{"name": "x", "type": "all", "keywords": []string{"riot"}}, 422, "type", filters.MsgTypeInvalid},
			{"keyword lists say include or exclude", map[string]any{"name": "x", "type": "keyword", "keywords": []string{"riot"}}, 422, "inclusion", filters.MsgInclusionNeeded},
			{"no keywords", map[string]any{"name": "x", "type": "keyword", "inclusion": true}, 422, "keywords", filters.MsgEntriesRequired},
			{"only short keywords", map[string]any{"name": "x", "type": "keyword", "inclusion": true, "keywords": []string{"ai", "ok"}}, 422, "keywords",
				filters.MsgEntriesRequired + " 2 keywords were removed: 2 shorter than 3 characters."},
			{"unsupported objects", map[string]any{"name": "x", "type": "object_detection", "objects": []string{"rifle", "spaceship"}}, 422, "objects",
				`Objects must come from the supported list; not supported: "spaceship".`},
			{"a long name", map[string]any{"name": strings.Repeat("n", 256), "type": "author", "authors": []string{"bot_one"}}, 422, "name", filters.MsgNameTooLong},
			{"keywords with duplicates and short ones", map[string]any{"name": "Noise", "type": "keyword", "inclusion": false,
				"keywords": []string{"Giveaway", "giveaway", "ad", "promo code"}}, 201, "", "2 keywords were removed: 1 duplicate and 1 shorter than 3 characters."},
			{"the same name again", map[string]any{"name": "NOISE", "type": "author", "authors": []string{"bot_one"}}, 422, "name", filters.MsgDuplicateName},
			{"authors, also under keywords", map[string]any{"name": "Bots", "type": "author", "authors": []string{"@bot_one"}, "keywords": []string{"bot_two"}}, 201, "", ""},
			{"objects", map[string]any{"name": "Arms", "type": "object_detection", "objects": []string{"Rifle", "handgun"}}, 201, "", ""},
		}
		ids := map[string]float64{}
		for _, tt := range create {
			t.Run("create: "+tt.name, func(t *testing.T) {
				r := c.do("POST", "/api/v1/filter-lists/", tt.body, withBearer(token))
				got := r.body["message"]
				if tt.field != "" {
					got = fieldError(r, tt.field)
				}
				if r.status != tt.status || (tt.message != "" || tt.status == 201) && got != nilIfEmpty(tt.message) {
					t.Errorf("= %d %v, want %d with %q", r.status, r.body, tt.status, tt.message)
				}
				if r.status == 201 {
					ids[tt.body["name"].(string)] = dig(r.body, "data", "id").(float64)
				}
			})
		}
		noise := fmt.Sprintf("/api/v1/filter-lists/%d", int64(ids["Noise"]))
		r := c.do("GET", noise, nil, withBearer(token))
		if got := entryValues(r, "keywords"); !slices.Equal(got, []string{"Giveaway", "promo code"}) || dig(r.body, "data", "kind") != "keyword_exclusion" {
			t.Errorf("Noise = %v", r.body)
		}
		bots := c.do("GET", fmt.Sprintf("/api/v1/filter-lists/%d", int64(ids["Bots"])), nil, withBearer(token))
		if got := entryValues(bots, "authors"); !slices.Equal(got, []string{"@bot_one", "bot_two"}) {
			t.Errorf("Bots = %v", bots.body)
		}
		arms := c.do("GET", fmt.Sprintf("/api/v1/filter-lists/%d", int64(ids["Arms"])), nil, withBearer(token))
		if got := entryValues(arms, "objects"); !slices.Equal(got, []string{"rifle", "handgun"}) {
			t.Errorf("Arms = %v", arms.body)
		}

		// A search using Noise is recompiled when Noise changes.
		a := fe.actor("creator@acme.test")
		home, _ := fe.store.UncategorizedGroup(context.Background(), a.OrganizationID, a.UserID)
		sr := c.do("POST", "/api/v1/monitor/searches", map[string]any{"group_id": home.ID, "name": "Floods",
			"keywords": "flood", "providers": []string{"twitter"}, "search_filters": []float64{ids["Noise"]}}, withBearer(token))
		if sr.status != 201 {
			t.Fatalf("create search = %d %v", sr.status, sr.body)
		}
		searchID := int64(dig(sr.body, "data", "id").(float64))
		fe.takeChanged()
		if r := c.do("GET", noise, nil, withBearer(token)); fmt.Sprint(dig(r.body, "data", "searches")) != fmt.Sprintf("[map[id:%d name:Floods]]", searchID) {
			t.Errorf("searches using Noise: %v", dig(r.body, "data", "searches"))
		}

		entryCalls := []struct {
			name    string
			method  string
			path    string
			body    any
			status  int
			field   string
			message string
			changed bool
		}{
			{"add new and old", "POST", noise + "/keyword", map[string]any{"keywords": []string{"GIVEAWAY", "free shipping", "x"}}, 200, "",
				"2 keywords were removed: 1 duplicate and 1 shorter than 3 characters.", true},
			{"add nothing new", "POST", noise + "/keyword", map[string]any{"keywords": []string{"giveaway"}}, 422, "keywords",
				filters.MsgNothingNew + " 1 keyword was removed: 1 duplicate.", false},
			{"add authors to a keyword list", "POST", noise + "/author", map[string]any{"keywords": []string{"someone"}}, 422, "type",
				"This filter list holds keywords, not authors.", false},
			{"an unknown entry kind", "POST", noise + "/hashtag", map[string]any{"keywords": []string{"x"}}, 404, "", "", false},
			{"remove nothing", "DELETE", noise + "/keyword", map[string]any{"ids": []int64{}}, 422, "ids", filters.MsgIDsRequired, false},
			{"rename", "PATCH", noise, map[string]any{"name": "Noise and ads"}, 200, "", "", false},
			{"change the type", "PATCH", noise, map[string]any{"type": "author"}, 422, "type", filters.MsgTypeFixed, false},
			{"switch to inclusion", "PATCH", noise, map[string]any{"inclusion": true}, 200, "", "", true},
			{"object lists cannot switch", "PATCH", fmt.Sprintf("/api/v1/filter-lists/%d", int64(ids["Arms"])), map[string]any{"inclusion": false}, 422,
				"inclusion", filters.MsgInclusionFixed, false},
			{"add an unsupported object", "POST", fmt.Sprintf("/api/v1/filter-lists/%d/object-detection", int64(ids["Arms"])),
				map[string]any{"keywords": []string{"banana phone"}}, 422, "objects", `Objects must come from the supported list; not supported: "banana phone".`, false},
			{"add an object", "POST", fmt.Sprintf("/api/v1/filter-lists/%d/object-detection", int64(ids["Arms"])),
				map[string]any{"keywords": []string{"Knife"}}, 200, "", "", false},
			{"a missing list", "POST", "/api/v1/filter-lists/99999/keyword", map[string]any{"keywords": []string{"riot"}}, 404, "", "", false},
		}
		for _, tt := range entryCalls {
			t.Run(tt.name, func(t *testing.T) {
				r := c.do(tt.method, tt.path, tt.body, withBearer(token))
				got := r.body["message"]
				if tt.field != "" {
					got = fieldError(r, tt.field)
				}
				if r.status != tt.status || (tt.message != "" && got != tt.message) {
					t.Errorf("= %d %v, want %d with %q", r.status, r.body, tt.status, tt.message)
				}
				if changed := fe.takeChanged(); tt.changed != slices.Equal(changed, []int64{searchID}) {
					t.Errorf("OnChange got %v", changed)
				}
			})
		}
		r = c.do("GET", noise, nil, withBearer(token))
		if got := entryValues(r, "keywords"); !slices.Equal(got, []string{"Giveaway", "promo code", "free shipping"}) ||
			dig(r.body, "data", "name") != "Noise and ads" || dig(r.body, "data", "kind") != "keyword_inclusion" {
			t.Fatalf("after the entry calls: %v", r.body)
		}

		// Removing by id; the last entry stays.
		first := entryIDs(r, "keywords")
		if r := c.do("DELETE", noise+"/keyword", map[string]any{"ids": first[:2]}, withBearer(token)); r.status != 200 ||
			!slices.Equal(entryValues(r, "keywords"), []string{"free shipping"}) {
			t.Errorf("remove two = %d %v", r.status, r.body)
		}
		if changed := fe.takeChanged(); !slices.Equal(changed, []int64{searchID}) {
			t.Errorf("OnChange after removing: %v", changed)
		}
		if r := c.do("DELETE", noise+"/keyword", map[string]any{"ids": first}, withBearer(token)); r.status != 422 ||
			fieldError(r, "ids") != filters.MsgKeepOneEntry {
			t.Errorf("remove the last = %d %v", r.status, r.body)
		}

		// CSV uploads.
		upload := func(contentType string, body []byte) reply {
			return c.sendRaw("POST", noise+"/upload", contentType, body, withBearer(token))
		}
		form := func(name, typ, content string) (string, []byte) { return multipartFile(t, name, typ, []byte(content)) }
		uploads := []struct {
			name    string
			typ     string
			body    []byte
			status  int
			message string // on "file", or the reply's message when 200
		}{
			{"not a CSV file", "", nil, 422, filters.MsgNotCSV},
			{"malformed", "", nil, 422, `The file is not well-formed CSV: line 2: extraneous or missing " in quoted-field.`},
			{"only duplicates and short values", "", nil, 422, filters.MsgNothingNewInCSV + " 3 keywords were removed: 2 duplicates and 1 shorter than 3 characters."},
			{"mixed", "", nil, 200, "2 keywords were removed: 1 duplicate and 1 shorter than 3 characters."},
			{"a text/csv body", "text/csv", []byte("evacuation,curfew"), 200, ""},
			{"a JSON body", "application/json", []byte(`{"keywords":["x"]}`), 422, filters.MsgNotCSV},
			{"no file field", "", nil, 422, "Choose a CSV file to upload."},
			{"too large", "text/csv", bytes.Repeat([]byte("abcdefgh,"), filters.MaxUploadBytes/8), 422, "The file may not be larger than 2 MB."},
			{"one byte too large", "text/csv", bytes.Repeat([]byte("a"), filters.MaxUploadBytes+1), 422, "The file may not be larger than 2 MB."},
		}
		uploads[0].typ, uploads[0].body = form("list.txt", "text/plain", "riot\n")
		uploads[1].typ, uploads[1].body = form("list.csv", "text/csv", "riot\n\"looting\n")
		uploads[2].typ, uploads[2].body = form("list.csv", "text/csv", "Free Shipping\nfree shipping\nab\n")
		uploads[3].typ, uploads[3].body = form("list.csv", "application/vnd.ms-excel", "keywords\nlooting, Free shipping\nab,arson\n")
		{
			var buf bytes.Buffer
			w := multipart.NewWriter(&buf)
			w.WriteField("name", "no file here")
			w.Close()
			uploads[6].typ, uploads[6].body = w.FormDataContentType(), buf.Bytes()
		}
		for _, tt := range uploads {
			t.Run("upload: "+tt.name, func(t *testing.T) {
				r := upload(tt.typ, tt.body)
				got := r.body["message"]
				if tt.status != 200 {
					got = fieldError(r, "file")
				}
				if r.status != tt.status || got != nilIfEmpty(tt.message) {
					t.Errorf("= %d %v, want %d with %q", r.status, r.body, tt.status, tt.message)
				}
			})
		}
		r = c.do("GET", noise, nil, withBearer(token))
		if got := entryValues(r, "keywords"); !slices.Equal(got, []string{"free shipping", "looting", "arson", "evacuation", "curfew"}) {
			t.Errorf("after the uploads: %q", got)
		}

		// Deleting tells the percolator about the searches that lose the list.
		fe.takeChanged()
		if r := c.do("DELETE", noise, nil, withBearer(token)); r.status != 200 || dig(r.body, "data", "deleted") != true {
			t.Errorf("delete = %d %v", r.status, r.body)
		}
		if changed := fe.takeChanged(); !slices.Equal(changed, []int64{searchID}) {
			t.Errorf("OnChange after deleting: %v", changed)
		}
		if r := c.do("GET", noise, nil, withBearer(token)); r.status != 404 {
			t.Errorf("deleted list = %d", r.status)
		}
	})
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func entryValues(r reply, field string) []string {
	var out []string
	for _, e := range dig(r.body, "data", field).([]any) {
		out = append(out, e.(map[string]any)["value"].(string))
	}
	return out
}

func entryIDs(r reply, field string) []int64 {
	var out []int64
	for _, e := range dig(r.body, "data", field).([]any) {
		out = append(out, int64(e.(map[string]any)["id"].(float64)))
	}
	return out
}

func TestPrebuiltFilterListsAndObjectTypeahead(t *testing.T) {
	fe := newFiltersEnv(t, storetest.Open(t, store.SQLite))
	c := fe.client()
	acme, globex := fe.bearerFor("analyst@acme.test"), fe.bearerFor("owner@globex.test")

	for _, path := range []string{"/api/v1/prebuilt-filter-lists/", "/api/v1/prebuilt-filter-lists"} {
		r := c.do("GET", path, nil, withBearer(acme))
		lists, _ := r.body["data"].([]any)
		if r.status != 200 || len(lists) != len(filters.PrebuiltLists()) {
			t.Fatalf("%s = %d %v", path, r.status, r.body)
		}
		first := lists[0].(map[string]any)
		if first["id"] != "profanity" || first["kind"] != "keyword_exclusion" || len(first["keywords"].([]any)) == 0 {
			t.Errorf("first prebuilt list %v", first)
		}
	}

	suggest := func(token, q string) []string {
		r := c.do("GET", "/api/v1/object-detection-typeahead?q="+q, nil, withBearer(token))
		if r.status != 200 {
			t.Fatalf("typeahead %q = %d %v", q, r.status, r.body)
		}
		var out []string
		for _, u := range r.body["data"].([]any) {
			out = append(out, u.(map[string]any)["keyword"].(string))
		}
		return out
	}
	if got := suggest(acme, "ca"); !slices.Equal(got[:4], []string{"cake", "car", "carrot", "cat"}) {
		t.Errorf("before any use: %q", got)
	}
	for range 2 {
		if r := c.do("POST", "/api/v1/object-detection-typeahead", map[string]string{"keyword": "Cat"}, withBearer(acme)); r.status != 200 {
			t.Fatalf("track = %d %v", r.status, r.body)
		}
	}
	r := c.do("POST", "/api/v1/object-detection-typeahead", map[string]string{"keyword": "car"}, withBearer(acme))
	if r.status != 200 || dig(r.body, "data", "uses") != 1.0 || dig(r.body, "data", "keyword") != "car" {
		t.Errorf("track car = %d %v", r.status, r.body)
	}
	if got := suggest(acme, "ca"); !slices.Equal(got[:4], []string{"cat", "car", "cake", "carrot"}) {
		t.Errorf("after use in Acme: %q", got)
	}
	if got := suggest(globex, "ca"); !slices.Equal(got[:4], []string{"cake", "car", "carrot", "cat"}) {
		t.Errorf("Globex is moved by Acme's use: %q", got)
	}
	for body, field := range map[string]string{`{"keyword":"spaceship"}`: "keyword", `{"keyword":""}`: "keyword"} {
		if r := c.sendRaw("POST", "/api/v1/object-detection-typeahead", "application/json", []byte(body), withBearer(acme)); r.status != 422 || fieldError(r, field) == "" {
			t.Errorf("track %s = %d %v", body, r.status, r.body)
		}
	}
	if r := c.do("GET", "/api/v1/object-detection-typeahead?q=a&limit=500", nil, withBearer(acme)); r.status != 422 {
		t.Errorf("limit 500 = %d", r.status)
	}
	if r := c.do("GET", "/api/v1/object-detection-typeahead?q=", nil); r.status != 401 {
		t.Errorf("anonymous typeahead = %d", r.status)
	}
}
