// Package announce owns tenant announcements: short notes tenant admins publish to every user
// of their tenant, shown from the top bar with an unread badge (read state per user).
package announce

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
)

// Announcement is one published note, as one user sees it.
type Announcement struct {
	ID         int64
	TenantID   int64
	AuthorID   int64
	AuthorName string
	Title      string
	Body       string
	CreatedAt  time.Time
	Read       bool // by the user who asked
}

// Limits (docs/tenant-api.md, "Announcements").
const (
	MaxTitle = 120
	MaxBody  = 500
	// Listed is how many of the newest announcements users see.
	Listed = 50
)

// Messages of refused requests.
const (
	MsgTitleRequired = "The title field is required."
	MsgTitleTooLong  = "The title may not be greater than 120 characters."
	MsgBodyRequired  = "The body field is required."
	MsgBodyTooLong   = "The body may not be greater than 500 characters."
	MsgNotFound      = "The announcement was not found."
)

// Store keeps announcements and who read them.
type Store interface {
	// CreateAnnouncement and DeleteAnnouncement write the audit entries in the change's
	// transaction (an entry without a ModelID names the announcement created).
	CreateAnnouncement(ctx context.Context, a *Announcement, audit ...account.AuditEntry) error
	// Announcement returns one announcement of the tenant; NotFound for another tenant's.
	Announcement(ctx context.Context, tenantID, id int64) (Announcement, error)
	DeleteAnnouncement(ctx context.Context, id int64, audit ...account.AuditEntry) error
	// Announcements are the tenant's newest, with whether userID read each.
	Announcements(ctx context.Context, tenantID, userID int64, limit int) ([]Announcement, error)
	// MarkAnnouncementsRead marks the given announcements of the tenant as read by the user.
	MarkAnnouncementsRead(ctx context.Context, tenantID, userID int64, ids []int64, at time.Time) error
}

// Service applies the announcement rules.
type Service struct {
	store Store
	now   func() time.Time
}

func NewService(s Store) *Service { return &Service{store: s, now: time.Now} }

// Draft is an announcement to publish.
type Draft struct {
	Title string
	Body  string
}

// Publish creates an announcement for every user of the actor's tenant.
func (s *Service) Publish(ctx context.Context, a authz.Actor, d Draft) (Announcement, error) {
	if err := authz.CanManageAnnouncements(a); err != nil {
		return Announcement{}, err
	}
	title, body := strings.Join(strings.Fields(d.Title), " "), strings.TrimSpace(d.Body)
	fields := map[string][]string{}
	switch {
	case title == "":
		fields["title"] = []string{MsgTitleRequired}
	case utf8.RuneCountInString(title) > MaxTitle:
		fields["title"] = []string{MsgTitleTooLong}
	}
	switch {
	case body == "":
		fields["body"] = []string{MsgBodyRequired}
	case utf8.RuneCountInString(body) > MaxBody:
		fields["body"] = []string{MsgBodyTooLong}
	}
	if len(fields) > 0 {
		return Announcement{}, problem.Invalid("The given data was invalid.", fields)
	}
	n := Announcement{TenantID: a.TenantID, AuthorID: a.UserID, Title: title, Body: body, CreatedAt: s.now().UTC()}
	if err := s.store.CreateAnnouncement(ctx, &n, audit.Created(a, audit.ModelAnnouncement, 0,
		audit.Fields{"title": n.Title, "body": n.Body})); err != nil {
		return Announcement{}, err
	}
	// Its author has read it.
	if err := s.store.MarkAnnouncementsRead(ctx, a.TenantID, a.UserID, []int64{n.ID}, n.CreatedAt); err != nil {
		return Announcement{}, err
	}
	n.Read = true
	return n, nil
}

// Delete removes an announcement of the actor's tenant.
func (s *Service) Delete(ctx context.Context, a authz.Actor, id int64) error {
	if err := authz.CanManageAnnouncements(a); err != nil {
		return err
	}
	n, err := s.store.Announcement(ctx, a.TenantID, id)
	if err != nil {
		return err
	}
	return s.store.DeleteAnnouncement(ctx, id, audit.Deleted(a, audit.ModelAnnouncement, id,
		audit.Fields{"title": n.Title, "body": n.Body}))
}

// List returns the newest announcements of the actor's tenant, with read state, and how many of
// them the actor has not read.
func (s *Service) List(ctx context.Context, a authz.Actor) ([]Announcement, int, error) {
	if err := authz.CanReadAnnouncements(a); err != nil {
		return nil, 0, err
	}
	list, err := s.store.Announcements(ctx, a.TenantID, a.UserID, Listed)
	if err != nil {
		return nil, 0, err
	}
	unread := 0
	for _, n := range list {
		if !n.Read {
			unread++
		}
	}
	return list, unread, nil
}

// MarkRead marks announcements as read by the actor: the given ones, or every listed one when
// ids is empty. Ids of other tenants' announcements are ignored.
func (s *Service) MarkRead(ctx context.Context, a authz.Actor, ids []int64) error {
	if err := authz.CanReadAnnouncements(a); err != nil {
		return err
	}
	if len(ids) > Listed {
		return problem.InvalidField("ids", "Mark at most 50 announcements at once, or send none to mark them all.")
	}
	if len(ids) == 0 {
		list, err := s.store.Announcements(ctx, a.TenantID, a.UserID, Listed)
		if err != nil {
			return err
		}
		for _, n := range list {
			if !n.Read {
				ids = append(ids, n.ID)
			}
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return s.store.MarkAnnouncementsRead(ctx, a.TenantID, a.UserID, ids, s.now().UTC())
}
