package audit

import (
	"context"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
)

// Query selects a tenant's audit rows; zero fields do not filter.
type Query struct {
	TenantID int64
	Model    string
	Action   string
	UserID   int64
	From, To time.Time // To is exclusive
	Offset   int
	Limit    int
	// BeforeID, when not 0, keeps rows older than that row (by id, the order of appending), so a
	// download pages steadily while rows are added.
	BeforeID int64
}

// Row is an audit entry as the tenant portal shows it: with the actor's and organization's names.
type Row struct {
	ID               int64
	Model            string
	ModelID          string
	Action           string
	UserID           int64
	UserName         string
	UserEmail        string
	OrganizationID   int64
	OrganizationName string
	PreviousValue    string
	NewValue         string
	CreatedAt        time.Time
}

// Page is one page of rows, newest first, and how many match in all.
type Page struct {
	Rows  []Row
	Total int
	Page  int // from 1
	Size  int
}

// Store reads the audit log.
type Store interface {
	AuditRows(ctx context.Context, q Query) ([]Row, int, error)
}

// Paging of the log.
const (
	PageSize = 50
	// MaxExport bounds a CSV download; narrower filters give the rest.
	MaxExport = 100_000
)

// Filter is what a tenant admin asks for.
type Filter struct {
	Model, Action string
	UserID        int64
	From, To      time.Time
}

// Log serves the audit log to tenant admins.
type Log struct{ store Store }

func NewLog(s Store) *Log { return &Log{store: s} }

func (l *Log) query(a authz.Actor, f Filter) (Query, error) {
	if err := authz.CanReadAuditLog(a); err != nil {
		return Query{}, err
	}
	if !f.From.IsZero() && !f.To.IsZero() && !f.To.After(f.From) {
		return Query{}, problem.InvalidField("to", "The end date must be after the start date.")
	}
	return Query{TenantID: a.TenantID, Model: strings.TrimSpace(f.Model), Action: strings.TrimSpace(f.Action),
		UserID: f.UserID, From: f.From, To: f.To}, nil
}

// Page returns page (from 1) of the actor's tenant's rows, newest first.
func (l *Log) Page(ctx context.Context, a authz.Actor, f Filter, page int) (Page, error) {
	q, err := l.query(a, f)
	if err != nil {
		return Page{}, err
	}
	page = max(page, 1)
	q.Offset, q.Limit = (page-1)*PageSize, PageSize
	rows, total, err := l.store.AuditRows(ctx, q)
	if err != nil {
		return Page{}, err
	}
	return Page{Rows: rows, Total: total, Page: page, Size: PageSize}, nil
}

// Each calls fn with successive pages of every matching row, newest first, up to MaxExport.
func (l *Log) Each(ctx context.Context, a authz.Actor, f Filter, fn func([]Row) error) error {
	q, err := l.query(a, f)
	if err != nil {
		return err
	}
	const chunk = 1000
	for sent := 0; sent < MaxExport; {
		q.Limit = min(chunk, MaxExport-sent)
		rows, _, err := l.store.AuditRows(ctx, q)
		if err != nil || len(rows) == 0 {
			return err
		}
		if err := fn(rows); err != nil {
			return err
		}
		sent += len(rows)
		q.BeforeID = rows[len(rows)-1].ID
		if len(rows) < q.Limit {
			return nil
		}
	}
	return nil
}
