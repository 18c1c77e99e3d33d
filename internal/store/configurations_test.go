package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

const someBounds = `{"type":"Feature","geometry":{"type":"Point","coordinates":[2.35,48.85]},"properties":{}}`

func location(u account.User, fpid, name string) *filters.LocationConfiguration {
	return &filters.LocationConfiguration{FPID: fpid, OrganizationID: u.OrganizationID, OwnerID: u.ID, Name: name,
		Address: "Paris, France", AddressBounds: []byte(someBounds)}
}

func TestLocationConfigurations(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "owner@acme.test")
		other := seedUser(t, s, "owner@globex.test")
		for i, name := range []string{"Zürich office", "zurich depot", "Paris HQ", "100% sure_site", "100 percent"} {
			if err := s.CreateLocationConfiguration(ctx, location(owner, fmt.Sprintf("fp%d", i), name)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.CreateLocationConfiguration(ctx, location(other, "fp-other", "Zurich branch")); err != nil {
			t.Fatal(err)
		}

		tests := []struct {
			nameKey       string
			offset, limit int
			want          []string
			total         int
		}{
			{"", 0, 10, []string{"100 percent", "100% sure_site", "Paris HQ", "zurich depot", "Zürich office"}, 5},
			{"", 2, 2, []string{"Paris HQ", "zurich depot"}, 5},
			{"zurich", 0, 10, []string{"zurich depot", "Zürich office"}, 2},
			{"%", 0, 10, []string{"100% sure_site"}, 1},
			{"_", 0, 10, []string{"100% sure_site"}, 1},
			{"nowhere", 0, 10, nil, 0},
		}
		for _, tt := range tests {
			got, total, err := s.LocationConfigurations(ctx, owner.OrganizationID, tt.nameKey, tt.offset, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, c := range got {
				names = append(names, c.Name)
			}
			if !slices.Equal(names, tt.want) || total != tt.total {
				t.Errorf("%q from %d: %q of %d, want %q of %d", tt.nameKey, tt.offset, names, total, tt.want, tt.total)
			}
		}

		c, err := s.LocationConfigurationByFPID(ctx, "fp2")
		if err != nil || c.Name != "Paris HQ" || string(c.AddressBounds) != someBounds || c.Owner.Email != owner.Email {
			t.Fatalf("by fpid = %+v, %v", c, err)
		}
		c.Name, c.Address = "Lyon HQ", "Lyon, France"
		if err := s.UpdateLocationConfiguration(ctx, c); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.LocationConfiguration(ctx, c.ID); got.Name != "Lyon HQ" || got.Address != "Lyon, France" {
			t.Errorf("after update: %+v", got)
		}
		if err := s.DeleteLocationConfiguration(ctx, c.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.LocationConfiguration(ctx, c.ID); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("deleted: %v, want not found", err)
		}
	})
}

// Saved searches and location configurations share the asset limit, and concurrent creations
// cannot overshoot it.
func TestLocationConfigurationsRespectTheAssetLimit(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seeded := seedUser(t, s, "seed@acme.test")
		org := account.Organization{TenantID: seeded.TenantID, Name: "Limited", AssetLimit: 4}
		if err := s.CreateOrganization(ctx, &org); err != nil {
			t.Fatal(err)
		}
		u := account.User{TenantID: org.TenantID, OrganizationID: org.ID, Email: "limited@acme.test", PasswordHash: "h"}
		if err := s.CreateUser(ctx, &u, account.RoleOwner); err != nil {
			t.Fatal(err)
		}
		group, err := s.UncategorizedGroup(ctx, org.ID, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.CreateSearch(ctx, &monitor.Search{OrganizationID: org.ID, OwnerID: u.ID, GroupID: group.ID,
			Name: "one asset", Keywords: "protest"}, nil, nil); err != nil {
			t.Fatal(err)
		}

		var wg sync.WaitGroup
		results := make([]error, 8)
		for i := range results {
			wg.Go(func() { results[i] = s.CreateLocationConfiguration(ctx, location(u, fmt.Sprintf("fp%d", i), "place")) })
		}
		wg.Wait()
		created := 0
		for _, err := range results {
			switch {
			case err == nil:
				created++
			case !errors.Is(err, account.ErrAssetLimitReached):
				t.Errorf("unexpected error: %v", err)
			}
		}
		if created != 3 {
			t.Errorf("%d configurations created beside one search, want 3 (limit 4)", created)
		}
		// The unlimited organization (asset limit 0) is not held back.
		for i := range 5 {
			if err := s.CreateLocationConfiguration(ctx, location(seeded, fmt.Sprintf("free%d", i), "place")); err != nil {
				t.Fatal(err)
			}
		}
	})
}
