package api

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/problem"
)

// Filter lists, prebuilt lists and the object-detection typeahead (monitor-area.md section 7).
// Reply shapes are documented in docs/decisions.md under "Filter lists".

type entryReply struct {
	ID    int64  `json:"id"`
	Value string `json:"value"`
}

type searchRefReply struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type filterListReply struct {
	ID        int64                `json:"id"`
	Name      string               `json:"name"`
	Type      filters.Type         `json:"type"`
	Inclusion bool                 `json:"inclusion"`
	Kind      percolate.FilterKind `json:"kind"`
	// The entries go under the field named after the type; the other two are empty.
	Keywords            []entryReply     `json:"keywords"`
	Authors             []entryReply     `json:"authors"`
	Objects             []entryReply     `json:"objects"`
	Owner               PersonReply      `json:"owner"`
	UserPermissionLevel string           `json:"userPermissionLevel"`
	Searches            []searchRefReply `json:"searches"`
	CreatedAt           int64            `json:"createdAt"`
	UpdatedAt           int64            `json:"updatedAt"`
}

// permissionLevels name access levels as userPermissionLevel does.
var permissionLevels = map[authz.Level]string{authz.LevelOwn: "owner", authz.LevelEdit: "edit", authz.LevelView: "view"}

func filterListJSON(v filters.View) filterListReply {
	r := filterListReply{ID: v.ID, Name: v.Name, Type: v.Type, Inclusion: v.Inclusion, Kind: v.Type.Kind(v.Inclusion),
		Keywords: []entryReply{}, Authors: []entryReply{}, Objects: []entryReply{},
		Owner:               PersonReply{ID: v.Owner.ID, Email: v.Owner.Email, Username: v.Owner.Username, Role: authz.RoleOwner},
		UserPermissionLevel: permissionLevels[v.Level], Searches: []searchRefReply{},
		CreatedAt: v.CreatedAt.Unix(), UpdatedAt: v.UpdatedAt.Unix()}
	entries := make([]entryReply, 0, len(v.Entries))
	for _, e := range v.Entries {
		entries = append(entries, entryReply{ID: e.ID, Value: e.Value})
	}
	switch v.Type {
	case filters.Author:
		r.Authors = entries
	case filters.ObjectDetection:
		r.Objects = entries
	default:
		r.Keywords = entries
	}
	for _, s := range v.Searches {
		r.Searches = append(r.Searches, searchRefReply{ID: s.ID, Name: s.Name})
	}
	return r
}

type strippedReply struct {
	Duplicates   int `json:"duplicates"`
	TooShort     int `json:"tooShort"`
	TooLong      int `json:"tooLong"`
	Unsearchable int `json:"unsearchable"`
}

// filterListWithNotice is a list reply that also says which entries were left out.
type filterListWithNotice struct {
	Data     filterListReply `json:"data"`
	Message  string          `json:"message,omitempty"`
	Stripped strippedReply   `json:"stripped"`
}

func writeListWithNotice(w http.ResponseWriter, status int, v filters.View, s filters.Stripped) error {
	writeJSON(w, status, filterListWithNotice{Data: filterListJSON(v), Message: s.Message(),
		Stripped: strippedReply{Duplicates: s.Duplicates, TooShort: s.TooShort, TooLong: s.TooLong,
			Unsearchable: s.Unsearchable}})
	return nil
}

func (a *API) filterLists(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	lists, err := a.Filters.Lists(r.Context(), id.Actor(), r.URL.Query().Get("type"))
	if err != nil {
		return err
	}
	out := make([]filterListReply, 0, len(lists))
	for _, v := range lists {
		out = append(out, filterListJSON(v))
	}
	return ok(w, out)
}

func (a *API) filterList(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	listID, err := pathID(r)
	if err != nil {
		return err
	}
	v, err := a.Filters.One(r.Context(), id.Actor(), listID)
	if err != nil {
		return err
	}
	return ok(w, filterListJSON(v))
}

func (a *API) createFilterList(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body struct {
		Name      string   `json:"name"`
		Type      string   `json:"type"`
		Inclusion *bool    `json:"inclusion"`
		Keywords  []string `json:"keywords"`
		Authors   []string `json:"authors"`
		Objects   []string `json:"objects"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	// Entries come under the type's own field; "keywords" is accepted for every type, as the
	// entry calls name them.
	entries := body.Keywords
	switch filters.Type(body.Type) {
	case filters.Author:
		entries = append(body.Authors, entries...)
	case filters.ObjectDetection:
		entries = append(body.Objects, entries...)
	}
	v, stripped, err := a.Filters.Create(r.Context(), id.Actor(), filters.Draft{Name: body.Name, Type: body.Type,
		Inclusion: body.Inclusion, Entries: entries})
	if err != nil {
		return err
	}
	return writeListWithNotice(w, http.StatusCreated, v, stripped)
}

func (a *API) updateFilterList(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	listID, err := pathID(r)
	if err != nil {
		return err
	}
	var body struct {
		Name      *string `json:"name"`
		Type      *string `json:"type"`
		Inclusion *bool   `json:"inclusion"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	v, err := a.Filters.Update(r.Context(), id.Actor(), listID, filters.Patch{Name: body.Name, Type: body.Type,
		Inclusion: body.Inclusion})
	if err != nil {
		return err
	}
	return ok(w, filterListJSON(v))
}

func (a *API) deleteFilterList(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	listID, err := pathID(r)
	if err != nil {
		return err
	}
	if err := a.Filters.Delete(r.Context(), id.Actor(), listID); err != nil {
		return err
	}
	return ok(w, map[string]bool{"deleted": true})
}

// entryTypes maps the entry calls' last path segment to the list type it works on.
var entryTypes = map[string]filters.Type{
	"keyword": filters.Keyword, "author": filters.Author, "object-detection": filters.ObjectDetection,
}

func entryPath(r *http.Request) (int64, filters.Type, error) {
	listID, err := pathID(r)
	if err != nil {
		return 0, "", err
	}
	t, known := entryTypes[r.PathValue("entries")]
	if !known {
		return 0, "", problem.NotFound("The requested resource was not found.")
	}
	return listID, t, nil
}

func (a *API) addFilterListEntries(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	listID, t, err := entryPath(r)
	if err != nil {
		return err
	}
	var body struct {
		Keywords []string `json:"keywords"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	v, stripped, err := a.Filters.AddEntries(r.Context(), id.Actor(), listID, t, body.Keywords)
	if err != nil {
		return err
	}
	return writeListWithNotice(w, http.StatusOK, v, stripped)
}

func (a *API) removeFilterListEntries(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	listID, t, err := entryPath(r)
	if err != nil {
		return err
	}
	var body struct {
		IDs []int64 `json:"ids"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	v, err := a.Filters.RemoveEntries(r.Context(), id.Actor(), listID, t, body.IDs)
	if err != nil {
		return err
	}
	return ok(w, filterListJSON(v))
}

// uploadFilterList adds the keywords of a CSV file, sent as the "file" field of a multipart
// form or as a text/csv body.
func (a *API) uploadFilterList(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	listID, err := pathID(r)
	if err != nil {
		return err
	}
	upload, err := readUpload(w, r)
	if err != nil {
		return err
	}
	v, stripped, err := a.Filters.ImportCSV(r.Context(), id.Actor(), listID, upload)
	if err != nil {
		return err
	}
	return writeListWithNotice(w, http.StatusOK, v, stripped)
}

var errFileTooLarge = problem.InvalidField("file", "The file may not be larger than 2 MB.")

func readUpload(w http.ResponseWriter, r *http.Request) (filters.Upload, error) {
	// Room for the multipart envelope around a file of the largest size.
	r.Body = http.MaxBytesReader(w, r.Body, filters.MaxUploadBytes+64<<10)
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType != "multipart/form-data" {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return filters.Upload{}, uploadError(err)
		}
		if len(body) > filters.MaxUploadBytes {
			return filters.Upload{}, errFileTooLarge
		}
		return filters.Upload{ContentType: r.Header.Get("Content-Type"), Body: body}, nil
	}
	if err := r.ParseMultipartForm(filters.MaxUploadBytes); err != nil {
		return filters.Upload{}, uploadError(err)
	}
	defer r.MultipartForm.RemoveAll()
	file, header, err := r.FormFile("file")
	if err != nil {
		return filters.Upload{}, problem.InvalidField("file", "Choose a CSV file to upload.")
	}
	defer file.Close()
	body, err := io.ReadAll(io.LimitReader(file, filters.MaxUploadBytes+1))
	if err != nil {
		return filters.Upload{}, uploadError(err)
	}
	if len(body) > filters.MaxUploadBytes {
		return filters.Upload{}, errFileTooLarge
	}
	return filters.Upload{Filename: header.Filename, ContentType: header.Header.Get("Content-Type"), Body: body}, nil
}

func uploadError(err error) error {
	if _, tooLarge := errors.AsType[*http.MaxBytesError](err); tooLarge {
		return errFileTooLarge
	}
	return problem.InvalidField("file", "The upload could not be read: "+err.Error())
}

type prebuiltReply struct {
	ID          string               `json:"id"`
	Name        string               `json:"name"`
	Description string               `json:"description"`
	Type        filters.Type         `json:"type"`
	Inclusion   bool                 `json:"inclusion"`
	Kind        percolate.FilterKind `json:"kind"`
	Keywords    []string             `json:"keywords"`
	Authors     []string             `json:"authors"`
	Objects     []string             `json:"objects"`
}

func (a *API) prebuiltFilterLists(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	lists := filters.PrebuiltLists()
	out := make([]prebuiltReply, 0, len(lists))
	for _, p := range lists {
		reply := prebuiltReply{ID: p.ID, Name: p.Name, Description: p.Description, Type: p.Type,
			Inclusion: p.Inclusion, Kind: p.Type.Kind(p.Inclusion), Keywords: []string{}, Authors: []string{},
			Objects: []string{}}
		switch p.Type {
		case filters.Author:
			reply.Authors = p.Entries
		case filters.ObjectDetection:
			reply.Objects = p.Entries
		default:
			reply.Keywords = p.Entries
		}
		out = append(out, reply)
	}
	return ok(w, out)
}

type objectUseReply struct {
	Keyword string `json:"keyword"`
	Uses    int64  `json:"uses"`
}

func (a *API) objectTypeahead(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	limit := 0
	if s := r.URL.Query().Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return problem.InvalidField("limit", "The limit must be a number.")
		}
		limit = n
	}
	uses, err := a.Filters.ObjectTypeahead(r.Context(), id.Actor(), r.URL.Query().Get("q"), limit)
	if err != nil {
		return err
	}
	out := make([]objectUseReply, 0, len(uses))
	for _, u := range uses {
		out = append(out, objectUseReply{Keyword: u.Keyword, Uses: u.Uses})
	}
	return ok(w, out)
}

func (a *API) trackObject(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body struct {
		Keyword string `json:"keyword"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	u, err := a.Filters.TrackObject(r.Context(), id.Actor(), body.Keyword)
	if err != nil {
		return err
	}
	return ok(w, objectUseReply{Keyword: u.Keyword, Uses: u.Uses})
}
