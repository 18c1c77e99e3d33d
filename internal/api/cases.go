package api

import (
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/cases"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
)

// Cases (docs/cases-api.md).

// CasePersonReply is a member as a case names them.
type CasePersonReply struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Email    string `json:"email"`
	Username string `json:"username"`
}

// CaseShareReply is a member a case is shared with.
type CaseShareReply struct {
	CasePersonReply
	Role string `json:"role"`
}

// CaseSummaryReply is a case in the list.
type CaseSummaryReply struct {
	ID        int64             `json:"id"`
	Name      string            `json:"name"`
	Status    string            `json:"status"`
	Privacy   string            `json:"privacy"`
	Tags      []string          `json:"tags"`
	Assignees []CasePersonReply `json:"assignees"`
	Owner     CasePersonReply   `json:"owner"`
	ItemCount int               `json:"itemCount"`
	CanEdit   bool              `json:"canEdit"`
	CreatedAt time.Time         `json:"createdAt"`
	UpdatedAt time.Time         `json:"updatedAt"`
}

// CaseItemReply is an item of a case: the post it shows (none for evidence) and its note.
type CaseItemReply struct {
	ID        int64           `json:"id"`
	Kind      string          `json:"kind"`
	Ref       string          `json:"ref"`
	Title     string          `json:"title"`
	Note      string          `json:"note"`
	Post      *post.Post      `json:"post"`
	AddedBy   CasePersonReply `json:"addedBy"`
	CreatedAt time.Time       `json:"createdAt"`
	UpdatedAt time.Time       `json:"updatedAt"`
}

// CaseEventReply is a line of a case's timeline.
type CaseEventReply struct {
	ID        int64     `json:"id"`
	Action    string    `json:"action"`
	Summary   string    `json:"summary"`
	Actor     string    `json:"actor"`
	CreatedAt time.Time `json:"createdAt"`
}

// CaseCommentReply is a comment with the members it mentions.
type CaseCommentReply struct {
	ID        int64             `json:"id"`
	Body      string            `json:"body"`
	Author    CasePersonReply   `json:"author"`
	Mentions  []CasePersonReply `json:"mentions"`
	CreatedAt time.Time         `json:"createdAt"`
}

// CaseReply is everything the case page shows.
type CaseReply struct {
	CaseSummaryReply
	Description      string             `json:"description"`
	CanManageSharing bool               `json:"canManageSharing"`
	CanDelete        bool               `json:"canDelete"`
	SharedUsers      []CaseShareReply   `json:"sharedUsers"`
	Items            []CaseItemReply    `json:"items"`
	Timeline         []CaseEventReply   `json:"timeline"`
	Comments         []CaseCommentReply `json:"comments"`
	Places           []cases.Place      `json:"places"`
	// EvidenceAvailable says the server captures evidence, so evidence items can be added.
	EvidenceAvailable bool `json:"evidenceAvailable"`
}

// CaseCommentCreated is the reply to a new comment.
type CaseCommentCreated struct {
	ID        int64   `json:"id"`
	Mentioned []int64 `json:"mentioned"`
}

type idReply struct {
	ID int64 `json:"id"`
}

func person(members map[int64]account.Member, id int64, fallback string) CasePersonReply {
	m, ok := members[id]
	if !ok {
		return CasePersonReply{ID: id, Name: fallback}
	}
	return CasePersonReply{ID: id, Name: m.Name, Email: m.Email, Username: m.Username}
}

func people(members map[int64]account.Member, ids []int64) []CasePersonReply {
	out := make([]CasePersonReply, len(ids))
	for i, id := range ids {
		out[i] = person(members, id, "")
	}
	return out
}

func caseSummary(a cases.Access, members map[int64]account.Member) CaseSummaryReply {
	return CaseSummaryReply{ID: a.ID, Name: a.Name, Status: a.Status, Privacy: a.Privacy, Tags: a.Tags,
		Assignees: people(members, a.Assignees), Owner: person(members, a.OwnerID, ""), ItemCount: a.ItemCount,
		CanEdit: a.Level >= authz.LevelEdit, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
}

func (a *API) listCases(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	q := r.URL.Query()
	f := cases.Filter{Status: q.Get("status"), Tag: strings.TrimSpace(q.Get("tag")), Query: q.Get("q")}
	switch v := q.Get("assignee"); v {
	case "":
	case "me":
		f.Assignee = id.User.ID
	default:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return problem.InvalidField("assignee", cases.MsgAssignee)
		}
		f.Assignee = n
	}
	list, err := a.Cases.List(r.Context(), id.Actor(), f)
	if err != nil {
		return err
	}
	members, err := a.Cases.Members(r.Context(), id.Actor())
	if err != nil {
		return err
	}
	out := make([]CaseSummaryReply, len(list))
	for i, c := range list {
		out[i] = caseSummary(c, members)
	}
	return ok(w, out)
}

func (a *API) createCase(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var in struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	caseID, err := a.Cases.Create(r.Context(), id.Actor(), in.Name, in.Description)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, envelope{Data: idReply{ID: caseID}})
	return nil
}

func (a *API) getCase(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	caseID, err := pathID(r)
	if err != nil {
		return err
	}
	p, err := a.Cases.Page(r.Context(), id.Actor(), caseID)
	if err != nil {
		return err
	}
	out := CaseReply{CaseSummaryReply: caseSummary(p.Access, p.Members), Description: p.Description,
		CanManageSharing: p.CanManageSharing, CanDelete: authz.CanDeleteCase(id.Actor(), p.Level) == nil,
		SharedUsers: []CaseShareReply{}, Items: []CaseItemReply{}, Timeline: []CaseEventReply{},
		Comments: []CaseCommentReply{}, Places: p.Places(), EvidenceAvailable: a.Cases.Evidence != nil}
	out.ItemCount = len(p.Items)
	for _, sh := range p.Shares {
		out.SharedUsers = append(out.SharedUsers, CaseShareReply{CasePersonReply: person(p.Members, sh.UserID, ""), Role: sh.Role})
	}
	for _, it := range p.Items {
		out.Items = append(out.Items, CaseItemReply{ID: it.ID, Kind: it.Kind, Ref: it.Ref, Title: it.Title, Note: it.Note,
			Post: it.Post, AddedBy: person(p.Members, it.AddedBy, ""), CreatedAt: it.CreatedAt, UpdatedAt: it.UpdatedAt})
	}
	for _, e := range p.Timeline {
		out.Timeline = append(out.Timeline, CaseEventReply{ID: e.ID, Action: e.Action, Summary: e.Summary,
			Actor: e.ActorName, CreatedAt: e.CreatedAt})
	}
	for _, c := range p.Comments {
		out.Comments = append(out.Comments, CaseCommentReply{ID: c.ID, Body: c.Body, Author: person(p.Members, c.UserID, c.AuthorName),
			Mentions: people(p.Members, c.Mentions), CreatedAt: c.CreatedAt})
	}
	return ok(w, out)
}

func (a *API) updateCase(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	caseID, err := pathID(r)
	if err != nil {
		return err
	}
	var in struct {
		Name        *string   `json:"name"`
		Description *string   `json:"description"`
		Status      *string   `json:"status"`
		Privacy     *string   `json:"privacy"`
		Assignees   *[]int64  `json:"assignees"`
		Tags        *[]string `json:"tags"`
		SharedUsers *[]struct {
			UserID int64  `json:"userId"`
			Role   string `json:"role"`
		} `json:"sharedUsers"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	ch := cases.Change{Name: in.Name, Description: in.Description, Status: in.Status, Privacy: in.Privacy,
		Assignees: in.Assignees, Tags: in.Tags}
	if in.SharedUsers != nil {
		shares := make([]cases.Share, len(*in.SharedUsers))
		for i, sh := range *in.SharedUsers {
			shares[i] = cases.Share{UserID: sh.UserID, Role: sh.Role}
		}
		ch.SharedUsers = &shares
	}
	if err := a.Cases.Update(r.Context(), id.Actor(), caseID, ch); err != nil {
		return err
	}
	return ok(w, idReply{ID: caseID})
}

func (a *API) deleteCase(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	caseID, err := pathID(r)
	if err != nil {
		return err
	}
	if err := a.Cases.Delete(r.Context(), id.Actor(), caseID); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) addCaseItem(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	caseID, err := pathID(r)
	if err != nil {
		return err
	}
	var in cases.ItemInput
	if err := decode(r, &in); err != nil {
		return err
	}
	itemID, err := a.Cases.AddItem(r.Context(), id.Actor(), caseID, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, envelope{Data: idReply{ID: itemID}})
	return nil
}

// caseItemPath is the case's and the item's ids; an item id that is no number is not found.
func caseItemPath(r *http.Request) (int64, int64, error) {
	caseID, err := pathID(r)
	if err != nil {
		return 0, 0, err
	}
	itemID, err := strconv.ParseInt(r.PathValue("item"), 10, 64)
	if err != nil || itemID <= 0 {
		return 0, 0, problem.NotFound("%s", cases.MsgItemNotFound)
	}
	return caseID, itemID, nil
}

func (a *API) updateCaseItem(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	caseID, itemID, err := caseItemPath(r)
	if err != nil {
		return err
	}
	var in struct {
		Note string `json:"note"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	if err := a.Cases.UpdateItem(r.Context(), id.Actor(), caseID, itemID, in.Note); err != nil {
		return err
	}
	return ok(w, idReply{ID: itemID})
}

func (a *API) deleteCaseItem(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	caseID, itemID, err := caseItemPath(r)
	if err != nil {
		return err
	}
	if err := a.Cases.DeleteItem(r.Context(), id.Actor(), caseID, itemID); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) addCaseComment(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	caseID, err := pathID(r)
	if err != nil {
		return err
	}
	var in struct {
		Body string `json:"body"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	n, err := a.Cases.Comment(r.Context(), id.Actor(), caseID, in.Body)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, envelope{Data: CaseCommentCreated{ID: n.CommentID, Mentioned: n.Mentioned}})
	return nil
}

// exportCase streams the case as a ZIP (docs/cases-api.md, "Export"). The ZIP is written as it
// is made: once its first byte is sent, a failure can only cut it short, which the missing
// manifest.json (its last file) makes plain.
func (a *API) exportCase(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	caseID, err := pathID(r)
	if err != nil {
		return err
	}
	b, err := a.Cases.Export(r.Context(), id.Actor(), caseID)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": b.Filename()}))
	w.Header().Set("Cache-Control", "private, no-store")
	if err := b.Write(r.Context(), w); err != nil {
		a.Logger.Error("case export failed", "case", caseID, "err", err)
	}
	return nil
}
