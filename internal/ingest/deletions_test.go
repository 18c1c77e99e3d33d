package ingest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
)

type recordingDeleter struct {
	id    string
	owner int64
	at    time.Time
}

func (r *recordingDeleter) MarkPostDeleted(_ context.Context, id string, owner int64, at time.Time) (bool, error) {
	r.id, r.owner, r.at = id, owner, at
	return true, nil
}

// A connector's deletion names the post by the id its emission was stored under: the shared
// sources' plain id, a tenant's own sources' id in the tenant's namespace.
func TestDeleteFromDerivesTheEmittedID(t *testing.T) {
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		tenant int64
		want   string
	}{
		{"shared sources", 0, post.NewID("mastodon", "social.example/1")},
		{"a tenant's own source", 7, post.NewTenantID(7, "mastodon", "social.example/1")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &recordingDeleter{}
			s := NewService(nil, nil, 0).WithDeletions(d)
			if err := s.DeleteFrom(tc.tenant)(context.Background(), "mastodon", "social.example/1", at); err != nil {
				t.Fatal(err)
			}
			if d.id != tc.want || d.owner != tc.tenant || !d.at.Equal(at) {
				t.Errorf("marked %s for %d at %v, want %s for %d", d.id, d.owner, d.at, tc.want, tc.tenant)
			}
		})
	}
	if err := NewService(nil, nil, 0).DeleteFrom(0)(context.Background(), "mastodon", "x", at); !errors.Is(err, errNoDeletions) {
		t.Errorf("without a deleter: %v", err)
	}
}
