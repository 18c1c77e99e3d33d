package api

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/announce"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/problem"
)

// The tenant portal's audit logs and the tenant's announcements (docs/tenant-api.md).

type auditActorReply struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

type auditOrganizationReply struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type auditRowReply struct {
	ID            int64                   `json:"id"`
	Model         string                  `json:"model"`
	ModelID       string                  `json:"model_id"`
	Action        string                  `json:"action"`
	Actor         *auditActorReply        `json:"actor"`
	Organization  *auditOrganizationReply `json:"organization"`
	PreviousValue any                     `json:"previous_value"`
	NewValue      any                     `json:"new_value"`
	CreatedAt     string                  `json:"created_at"`
}

type auditPageMeta struct {
	CurrentPage int `json:"current_page"`
	LastPage    int `json:"last_page"`
	PerPage     int `json:"per_page"`
	Total       int `json:"total"`
}

type auditPageReply struct {
	Data []auditRowReply `json:"data"`
	Meta auditPageMeta   `json:"meta"`
}

// auditValue is a stored value as JSON: the object it holds, plain text for older rows that hold
// text, null for none.
func auditValue(v string) any {
	switch {
	case v == "":
		return nil
	case json.Valid([]byte(v)):
		return json.RawMessage(v)
	}
	return v
}

func auditRowJSON(r audit.Row) auditRowReply {
	out := auditRowReply{ID: r.ID, Model: r.Model, ModelID: r.ModelID, Action: r.Action,
		PreviousValue: auditValue(r.PreviousValue), NewValue: auditValue(r.NewValue),
		CreatedAt: r.CreatedAt.UTC().Format(time.RFC3339)}
	if r.UserID != 0 {
		out.Actor = &auditActorReply{ID: r.UserID, Name: r.UserName, Email: r.UserEmail}
	}
	if r.OrganizationID != 0 {
		out.Organization = &auditOrganizationReply{ID: r.OrganizationID, Name: r.OrganizationName}
	}
	return out
}

// auditDate reads a from or to parameter: a day (YYYY-MM-DD, UTC) or an RFC 3339 time. A day given
// as "to" includes that whole day.
func auditDate(r *http.Request, name string) (time.Time, error) {
	s := strings.TrimSpace(r.URL.Query().Get(name))
	if s == "" {
		return time.Time{}, nil
	}
	if d, err := time.Parse(time.DateOnly, s); err == nil {
		if name == "to" {
			d = d.AddDate(0, 0, 1)
		}
		return d, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, problem.InvalidField(name, "The "+name+" date must be a day (YYYY-MM-DD) or an RFC 3339 time.")
	}
	return t, nil
}

func auditFilter(r *http.Request) (audit.Filter, error) {
	q := r.URL.Query()
	f := audit.Filter{Model: q.Get("model"), Action: q.Get("action")}
	if s := q.Get("userId"); s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			return f, problem.InvalidField("userId", "The userId must be a user's id.")
		}
		f.UserID = id
	}
	var err error
	if f.From, err = auditDate(r, "from"); err != nil {
		return f, err
	}
	f.To, err = auditDate(r, "to")
	return f, err
}

func (a *API) auditLogs(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	if r.URL.Query().Get("format") == "csv" {
		return a.auditLogsCSV(w, r, id)
	}
	f, err := auditFilter(r)
	if err != nil {
		return err
	}
	page, err := queryInt(r, "page", 1)
	if err != nil {
		return err
	}
	p, err := a.AuditLog.Page(r.Context(), id.Actor(), f, page)
	if err != nil {
		return err
	}
	reply := auditPageReply{Data: make([]auditRowReply, 0, len(p.Rows)),
		Meta: auditPageMeta{CurrentPage: p.Page, PerPage: p.Size, Total: p.Total, LastPage: max(1, (p.Total+p.Size-1)/p.Size)}}
	for _, row := range p.Rows {
		reply.Data = append(reply.Data, auditRowJSON(row))
	}
	return ok(w, reply)
}

// csvCell keeps a spreadsheet from reading a cell as a formula.
func csvCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// auditLogsCSV streams every matching row (up to audit.MaxExport), newest first, as CSV.
func (a *API) auditLogsCSV(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	f, err := auditFilter(r)
	if err != nil {
		return err
	}
	var out *csv.Writer
	err = a.AuditLog.Each(r.Context(), id.Actor(), f, func(rows []audit.Row) error {
		if out == nil {
			out = startAuditCSV(w)
		}
		for _, row := range rows {
			if err := out.Write([]string{row.CreatedAt.UTC().Format(time.RFC3339), csvCell(row.Model), csvCell(row.ModelID),
				csvCell(row.Action), strconv.FormatInt(row.UserID, 10), csvCell(row.UserName), csvCell(row.UserEmail),
				csvCell(row.OrganizationName), csvCell(row.PreviousValue), csvCell(row.NewValue)}); err != nil {
				return err
			}
		}
		out.Flush()
		return out.Error()
	})
	if err != nil && out == nil {
		return err // nothing sent yet: an ordinary error reply
	}
	if out == nil {
		out = startAuditCSV(w)
		out.Flush()
	}
	if err != nil {
		a.Logger.Error("audit log download cut short", "err", err)
	}
	return nil
}

func startAuditCSV(w http.ResponseWriter) *csv.Writer {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="audit-logs-`+time.Now().UTC().Format("2006-01-02")+`.csv"`)
	w.Header().Set("Cache-Control", "no-store")
	out := csv.NewWriter(w)
	out.Write([]string{"date", "model", "model_id", "action", "user_id", "user_name", "user_email", "organization",
		"previous_value", "new_value"})
	return out
}

type announcementReply struct {
	ID        int64  `json:"id"`
	Title     string `json:"title"`
	Body      string `json:"body"`
	Author    string `json:"author"`
	CreatedAt string `json:"created_at"`
	Read      bool   `json:"read"`
}

func announcementJSON(n announce.Announcement) announcementReply {
	return announcementReply{ID: n.ID, Title: n.Title, Body: n.Body, Author: n.AuthorName,
		CreatedAt: n.CreatedAt.UTC().Format(time.RFC3339), Read: n.Read}
}

func (a *API) announcements(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	list, unread, err := a.Announcements.List(r.Context(), id.Actor())
	if err != nil {
		return err
	}
	out := make([]announcementReply, 0, len(list))
	for _, n := range list {
		out = append(out, announcementJSON(n))
	}
	return ok(w, map[string]any{"announcements": out, "unread": unread})
}

func (a *API) readAnnouncements(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body struct {
		IDs []int64 `json:"ids"`
	}
	if r.ContentLength != 0 {
		if err := decode(r, &body); err != nil {
			return err
		}
	}
	if err := a.Announcements.MarkRead(r.Context(), id.Actor(), body.IDs); err != nil {
		return err
	}
	return a.announcements(w, r, id)
}

func (a *API) publishAnnouncement(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body struct {
		Title string `json:"title"`
		Body  string `json:"body"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	n, err := a.Announcements.Publish(r.Context(), id.Actor(), announce.Draft{Title: body.Title, Body: body.Body})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, envelope{Data: announcementJSON(n)})
	return nil
}

func (a *API) deleteAnnouncement(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	itemID, err := pathID(r)
	if err != nil {
		return err
	}
	if err := a.Announcements.Delete(r.Context(), id.Actor(), itemID); err != nil {
		return err
	}
	return ok(w, map[string]bool{"deleted": true})
}
