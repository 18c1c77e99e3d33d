package sourcing

import (
	"context"
	"sync/atomic"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
)

// TenantFinder finds a tenant by name.
type TenantFinder interface {
	TenantByName(ctx context.Context, name string) (account.Tenant, error)
}

// Operator knows the operator's tenant: the one named account.DefaultTenant, where the first
// administrator lands and the default public sources and --sources FILE are seeded. Its
// sources are the shared public sources, whose posts every tenant sees; every other tenant's
// sources are that tenant's own (docs/connectors.md, "Who sees a source's posts").
type Operator struct {
	tenants TenantFinder
	id      atomic.Int64 // 0 until the tenant is found; a tenant is never renamed
}

func NewOperator(tenants TenantFinder) *Operator { return &Operator{tenants: tenants} }

// Shares reports whether the tenant's sources are the operator's shared ones.
func (o *Operator) Shares(ctx context.Context, tenantID int64) (bool, error) {
	if id := o.id.Load(); id != 0 {
		return id == tenantID, nil
	}
	t, err := o.tenants.TenantByName(ctx, account.DefaultTenant)
	if problem.Is(err, problem.KindNotFound) {
		return false, nil // no operator's tenant yet: every source is its tenant's own
	}
	if err != nil {
		return false, err
	}
	o.id.Store(t.ID)
	return t.ID == tenantID, nil
}

// PostsOf is who owns the posts of a row (0 for the operator's shared sources) and the origin
// they carry.
func (o *Operator) PostsOf(ctx context.Context, r Source) (owner int64, origin post.Origin, err error) {
	shared, err := o.Shares(ctx, r.TenantID)
	if err != nil {
		return 0, post.Origin{}, err
	}
	if shared {
		return 0, post.Origin{Kind: post.OriginShared, Name: r.Name, Type: r.Type}, nil
	}
	return r.TenantID, post.Origin{Kind: post.OriginSource, Name: r.Name, Type: r.Type}, nil
}
