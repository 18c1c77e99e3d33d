// Package usage counts what an organization's members do each month, by product: searches run,
// what they found, and exports asked for. Settings shows it as the organization's and each
// member's monthly counts (search-side.md section 7, "statistics").
package usage

import (
	"context"
	"log/slog"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
)

// Products counted: Beacon (keyword search) and Locate (location search, with the monitor's
// saved searches).
const (
	Beacon = "beacon"
	Locate = "locate"
)

// Months is how many months the statistics cover, the current one last.
const Months = 12

// Counts are one month's figures.
type Counts struct {
	Searches int64
	Matches  int64
	Exports  int64
}

// Row is one member's counts of one month (year * 100 + month).
type Row struct {
	Month  int
	UserID int64
	Counts
}

// Store is the persistence usage needs.
type Store interface {
	AddUsage(ctx context.Context, organizationID, userID int64, product string, month int, c Counts) error
	// Usage lists the product's counted rows of the organization for months from..to inclusive.
	Usage(ctx context.Context, organizationID int64, product string, from, to int) ([]Row, error)
	// MatchesStored counts, by saved-search owner, the matches the organization's saved
	// searches stored in [from, to).
	MatchesStored(ctx context.Context, organizationID int64, from, to time.Time) (map[int64]int64, error)
	Members(ctx context.Context, organizationID int64) ([]account.Member, error)
}

// Service counts and reports usage.
type Service struct {
	store Store
	log   *slog.Logger
	now   func() time.Time
}

func NewService(store Store, log *slog.Logger) *Service {
	if log == nil {
		log = slog.Default()
	}
	return &Service{store: store, log: log, now: time.Now}
}

// Month is t's month as year * 100 + month, in UTC.
func Month(t time.Time) int {
	t = t.UTC()
	return t.Year()*100 + int(t.Month())
}

// Searched counts a search the actor ran and the posts it found. Counting never fails the search.
func (s *Service) Searched(ctx context.Context, a authz.Actor, product string, found int64) {
	s.add(ctx, a, product, Counts{Searches: 1, Matches: found})
}

// Exported counts an export the actor asked for.
func (s *Service) Exported(ctx context.Context, a authz.Actor, product string) {
	s.add(ctx, a, product, Counts{Exports: 1})
}

func (s *Service) add(ctx context.Context, a authz.Actor, product string, c Counts) {
	if s == nil {
		return
	}
	if err := s.store.AddUsage(ctx, a.OrganizationID, a.UserID, product, Month(s.now()), c); err != nil {
		s.log.Warn("usage: count", "product", product, "err", err)
	}
}

// Series are monthly figures, oldest month first.
type Series struct {
	Searches []int64
	Matches  []int64
	Exports  []int64
}

func newSeries() Series {
	return Series{Searches: make([]int64, Months), Matches: make([]int64, Months), Exports: make([]int64, Months)}
}

// MemberSeries is one member's figures.
type MemberSeries struct {
	Member account.Member
	Series
}

// Report is a product's last Months months for the organization and for each member.
type Report struct {
	Months       []string // "2026-11"
	Organization Series
	Members      []MemberSeries
}

// Monthly reports the product's usage of the organization over the last Months months. Beacon's
// matches are the posts its searches found; Locate's are the matches the organization's saved
// searches collected, each counted for the search's owner.
func (s *Service) Monthly(ctx context.Context, a authz.Actor, organizationID int64, product string) (Report, error) {
	if product != Beacon && product != Locate {
		return Report{}, problem.NotFound("There are no statistics for %s.", product)
	}
	if err := authz.CanReadStatistics(a, organizationID); err != nil {
		return Report{}, err
	}
	now := s.now().UTC()
	first := time.Date(now.Year(), now.Month()-Months+1, 1, 0, 0, 0, 0, time.UTC)
	starts := make([]time.Time, Months+1)
	index := map[int]int{}
	rep := Report{Organization: newSeries()}
	for i := range starts {
		starts[i] = first.AddDate(0, i, 0)
		if i < Months {
			index[Month(starts[i])] = i
			rep.Months = append(rep.Months, starts[i].Format("2006-01"))
		}
	}
	list, err := s.store.Members(ctx, organizationID)
	if err != nil {
		return Report{}, err
	}
	byUser := map[int64]*MemberSeries{}
	rep.Members = make([]MemberSeries, len(list))
	for i, m := range list {
		rep.Members[i] = MemberSeries{Member: m, Series: newSeries()}
		byUser[m.UserID] = &rep.Members[i]
	}
	add := func(userID int64, i int, c Counts) {
		rep.Organization.Searches[i] += c.Searches
		rep.Organization.Matches[i] += c.Matches
		rep.Organization.Exports[i] += c.Exports
		// Former members' figures stay in the organization's totals only.
		if m := byUser[userID]; m != nil {
			m.Searches[i] += c.Searches
			m.Matches[i] += c.Matches
			m.Exports[i] += c.Exports
		}
	}
	rows, err := s.store.Usage(ctx, organizationID, product, Month(starts[0]), Month(starts[Months-1]))
	if err != nil {
		return Report{}, err
	}
	for _, r := range rows {
		if i, ok := index[r.Month]; ok {
			c := r.Counts
			if product == Locate {
				c.Matches = 0 // Locate's matches are the saved searches', below
			}
			add(r.UserID, i, c)
		}
	}
	if product == Locate {
		for i := 0; i < Months; i++ {
			stored, err := s.store.MatchesStored(ctx, organizationID, starts[i], starts[i+1])
			if err != nil {
				return Report{}, err
			}
			for owner, n := range stored {
				add(owner, i, Counts{Matches: n})
			}
		}
	}
	return rep, nil
}
