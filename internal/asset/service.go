package asset

import (
	"context"
	"errors"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
)

// Limits of what an organization keeps. Assets count against the organization's asset limit
// with its saved searches and location configurations; MaxPerOrganization bounds an
// organization without one (limit 0), so that a list is always one page.
const (
	MaxValueLen        = 255
	MaxPerOrganization = 5000
)

// Messages of refusals the spec leaves to us (docs/decisions.md, "Assets").
const (
	MsgValueTooLong = "The value may not be greater than 255 characters."
	MsgDuplicate    = "Your organization already has this asset."
	MsgNotFound     = "The asset was not found."
	MsgReadOnly     = "Only the creator of this asset or an organization admin can change it."
)

// ErrDuplicate is the store's refusal of a type and value the organization already has.
var ErrDuplicate = errors.New("asset: the organization already has this asset")

// Stored is an organization's asset as kept.
type Stored struct {
	Asset
	ID             int64
	OrganizationID int64
	OwnerID        int64
	OwnerEmail     string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// View is a stored asset as one user sees it.
type View struct {
	Stored
	CanEdit bool
}

// Store keeps the assets. Create fails with account.ErrAssetLimitReached past the
// organization's asset limit (or MaxPerOrganization), and Create and Update with ErrDuplicate;
// each writes its audit entries in the change's transaction.
type Store interface {
	CreateAsset(ctx context.Context, a *Stored, max int64, audit ...account.AuditEntry) error
	Asset(ctx context.Context, id int64) (Stored, error)
	Assets(ctx context.Context, organizationID int64, t Type) ([]Stored, error)
	UpdateAsset(ctx context.Context, a Stored, audit ...account.AuditEntry) error
	DeleteAsset(ctx context.Context, id int64, audit ...account.AuditEntry) error
}

// Service is the organization's assets, for its members.
type Service struct{ store Store }

func NewService(s Store) *Service { return &Service{store: s} }

// List returns the actor's organization's assets, of type t when given, by type and value.
func (s *Service) List(ctx context.Context, a authz.Actor, t Type) ([]View, error) {
	if err := authz.CanUseAPI(a); err != nil {
		return nil, err
	}
	if t != "" && !known(t) {
		return nil, problem.InvalidField("type", MsgUnknownType)
	}
	stored, err := s.store.Assets(ctx, a.OrganizationID, t)
	if err != nil {
		return nil, err
	}
	out := make([]View, 0, len(stored))
	for _, st := range stored {
		if v, ok := view(a, st); ok {
			out = append(out, v)
		}
	}
	return out, nil
}

// Create validates and keeps an asset of the actor's organization, within its asset limit.
func (s *Service) Create(ctx context.Context, a authz.Actor, in Asset) (View, error) {
	if err := authz.CanUseAPI(a); err != nil {
		return View{}, err
	}
	clean, err := check(in)
	if err != nil {
		return View{}, err
	}
	st := Stored{Asset: clean, OrganizationID: a.OrganizationID, OwnerID: a.UserID}
	err = s.store.CreateAsset(ctx, &st, MaxPerOrganization, audit.Entry(a, audit.Change{Model: audit.ModelAsset,
		Action: audit.ActionCreated, New: audit.Snapshot(fields(clean))}))
	if err != nil {
		return View{}, refusal(err)
	}
	return s.One(ctx, a, st.ID)
}

// One returns an asset; another organization's does not exist for the actor.
func (s *Service) One(ctx context.Context, a authz.Actor, id int64) (View, error) {
	st, err := s.store.Asset(ctx, id)
	if err != nil {
		return View{}, err
	}
	v, ok := view(a, st)
	if !ok {
		return View{}, problem.NotFound(MsgNotFound)
	}
	return v, nil
}

// Update changes an asset's type or value.
func (s *Service) Update(ctx context.Context, a authz.Actor, id int64, in Asset) (View, error) {
	v, err := s.editable(ctx, a, id)
	if err != nil {
		return View{}, err
	}
	clean, err := check(in)
	if err != nil {
		return View{}, err
	}
	var entries []account.AuditEntry
	if prev, next, changed := audit.Diff(fields(v.Asset), fields(clean)); changed {
		entries = append(entries, audit.Entry(a, audit.Change{Model: audit.ModelAsset, Ref: strconv.FormatInt(id, 10),
			Action: audit.ActionUpdated, Previous: prev, New: next}))
	}
	v.Asset = clean
	if err := s.store.UpdateAsset(ctx, v.Stored, entries...); err != nil {
		return View{}, refusal(err)
	}
	return s.One(ctx, a, id)
}

// Delete removes an asset.
func (s *Service) Delete(ctx context.Context, a authz.Actor, id int64) error {
	v, err := s.editable(ctx, a, id)
	if err != nil {
		return err
	}
	return s.store.DeleteAsset(ctx, id, audit.Entry(a, audit.Change{Model: audit.ModelAsset,
		Ref: strconv.FormatInt(id, 10), Action: audit.ActionDeleted, Previous: audit.Snapshot(fields(v.Asset))}))
}

func (s *Service) editable(ctx context.Context, a authz.Actor, id int64) (View, error) {
	v, err := s.One(ctx, a, id)
	if err != nil {
		return View{}, err
	}
	if !v.CanEdit {
		return View{}, problem.Forbidden(MsgReadOnly)
	}
	return v, nil
}

func view(a authz.Actor, st Stored) (View, bool) {
	level := authz.AssetLevel(a, authz.OwnedFacts{OrganizationID: st.OrganizationID, OwnerID: st.OwnerID})
	return View{Stored: st, CanEdit: level >= authz.LevelEdit}, level > authz.LevelNone
}

// check is Normalize with the length bound, which holds for every type.
func check(in Asset) (Asset, error) {
	if utf8.RuneCountInString(in.Value) > MaxValueLen {
		return in, problem.InvalidField("value", MsgValueTooLong)
	}
	return Normalize(in)
}

func refusal(err error) error {
	if errors.Is(err, ErrDuplicate) {
		return problem.InvalidField("value", MsgDuplicate)
	}
	return account.AssetLimitProblem(err)
}

func fields(a Asset) audit.Fields { return audit.Fields{"type": string(a.Type), "value": a.Value} }
