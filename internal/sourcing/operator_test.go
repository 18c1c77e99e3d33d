package sourcing_test

import (
	"context"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/sourcing"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// The default tenant's sources are the operator's shared ones; every other tenant's are its own,
// and so is every tenant's before there is a default tenant.
func TestOperatorOwnsTheSharedSources(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		acme := account.Tenant{Name: "acme"}
		if err := s.CreateTenant(ctx, &acme); err != nil {
			t.Fatal(err)
		}
		op := sourcing.NewOperator(s)
		row := sourcing.Source{TenantID: acme.ID, Type: "rss", Name: "wire"}
		if owner, origin, err := op.PostsOf(ctx, row); err != nil || owner != acme.ID ||
			origin != (post.Origin{Kind: post.OriginSource, Name: "wire", Type: "rss"}) {
			t.Fatalf("without a default tenant: %d %+v %v", owner, origin, err)
		}
		operator := account.Tenant{Name: account.DefaultTenant}
		if err := s.CreateTenant(ctx, &operator); err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			tenant int64
			owner  int64
			kind   string
		}{{operator.ID, 0, post.OriginShared}, {acme.ID, acme.ID, post.OriginSource}} {
			row.TenantID = tt.tenant
			owner, origin, err := op.PostsOf(ctx, row)
			if err != nil || owner != tt.owner || origin.Kind != tt.kind || origin.Name != "wire" {
				t.Errorf("tenant %d's row: owner %d, origin %+v, %v", tt.tenant, owner, origin, err)
			}
		}
	})
}
