package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// Each per-organization cap: of eight concurrent additions exactly the cap's number succeed,
// the rest are refused with ErrAssetLimitReached; another organization is not affected.
func TestOrganizationCaps(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		const limit, attempts = 3, 8
		type adder func(i int) error
		tests := []struct {
			name string
			caps account.Caps
			// setup prepares an organization's user and returns how to add the i-th thing.
			setup func(t *testing.T, u account.User) adder
		}{
			{"saved searches", account.Caps{SavedSearches: limit}, func(t *testing.T, u account.User) adder {
				home, err := s.UncategorizedGroup(ctx, u.OrganizationID, u.ID)
				if err != nil {
					t.Fatal(err)
				}
				return func(i int) error {
					return s.CreateSearch(ctx, &monitor.Search{OrganizationID: u.OrganizationID, OwnerID: u.ID,
						GroupID: home.ID, Name: fmt.Sprint("s", i), Enabled: true, Keywords: "flood"}, nil, nil)
				}
			}},
			{"groups", account.Caps{Groups: limit}, func(t *testing.T, u account.User) adder {
				// The user's own Uncategorized group is not counted.
				if _, err := s.UncategorizedGroup(ctx, u.OrganizationID, u.ID); err != nil {
					t.Fatal(err)
				}
				return func(i int) error {
					return s.CreateGroup(ctx, &monitor.Group{OrganizationID: u.OrganizationID, OwnerID: u.ID,
						Name: fmt.Sprint("g", i), Privacy: "private"}, nil)
				}
			}},
			{"filter lists", account.Caps{FilterLists: limit}, func(t *testing.T, u account.User) adder {
				return func(i int) error {
					return s.CreateFilterList(ctx, &filters.List{OrganizationID: u.OrganizationID, OwnerID: u.ID,
						Name: fmt.Sprint("l", i), Type: filters.Keyword, Entries: entries("x")})
				}
			}},
			{"filter-list entries", account.Caps{FilterListEntries: limit}, func(t *testing.T, u account.User) adder {
				l := filters.List{OrganizationID: u.OrganizationID, OwnerID: u.ID, Name: "list", Type: filters.Keyword}
				if err := s.CreateFilterList(ctx, &l); err != nil {
					t.Fatal(err)
				}
				return func(i int) error {
					_, err := s.AddFilterListEntries(ctx, l.ID, entries(fmt.Sprint("e", i)))
					return err
				}
			}},
			{"filter-list entries of a new list", account.Caps{FilterListEntries: limit}, func(t *testing.T, u account.User) adder {
				return func(i int) error {
					return s.CreateFilterList(ctx, &filters.List{OrganizationID: u.OrganizationID, OwnerID: u.ID,
						Name: fmt.Sprint("l", i), Type: filters.Keyword, Entries: entries("x")})
				}
			}},
		}
		for n, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				s.SetCaps(tt.caps)
				t.Cleanup(func() { s.SetCaps(account.Caps{}) })
				add := tt.setup(t, seedUser(t, s, fmt.Sprintf("owner%d@acme.test", n)))
				errs := make([]error, attempts)
				var wg sync.WaitGroup
				for i := range attempts {
					wg.Go(func() { errs[i] = add(i) })
				}
				wg.Wait()
				added := 0
				for _, err := range errs {
					switch {
					case err == nil:
						added++
					case !errors.Is(err, account.ErrAssetLimitReached):
						t.Fatalf("unexpected error: %v", err)
					}
				}
				if added != limit {
					t.Errorf("%d of %d concurrent additions succeeded, want %d", added, attempts, limit)
				}
				if err := add(attempts); !errors.Is(err, account.ErrAssetLimitReached) {
					t.Errorf("one more at the cap: %v, want ErrAssetLimitReached", err)
				}
				other := tt.setup(t, seedUser(t, s, fmt.Sprintf("owner%d@globex.test", n)))
				if err := other(0); err != nil {
					t.Errorf("another organization: %v", err)
				}
			})
		}
	})
}
