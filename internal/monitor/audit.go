package monitor

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
)

// The audit trail of saved searches, groups, their sharing and their alerts (docs/tenant-api.md,
// "Audit logs"). Favourites are personal marks, like read and unread, and are not audited.

func orEmpty[T any](items []T) []T {
	if items == nil {
		return []T{}
	}
	return items
}

// searchFields is what a search's audit rows show of it; alerts have rows of their own.
func searchFields(m Search, lists []int64) audit.Fields {
	return audit.Fields{
		"name": m.Name, "group_id": m.GroupID, "enabled": m.Enabled, "keywords": m.Keywords,
		"author_id": m.AuthorID, "author_query": m.AuthorQuery, "address": m.Address, "address_bounds": m.AddressBounds,
		"providers": orEmpty(m.Providers), "start_at": audit.Time(m.StartAt), "end_at": audit.Time(m.EndAt),
		"images_only": m.ImagesOnly, "video_only": m.VideoOnly, "board_names": orEmpty(m.BoardNames),
		"search_filters": orEmpty(lists), "streaming_override_until": audit.Time(m.StreamingOverrideUntil),
		"gnip_override_until": audit.Time(m.GnipOverrideUntil),
	}
}

func groupFields(g Group) audit.Fields {
	return audit.Fields{"name": g.Name, "privacy": g.Privacy}
}

// auditAlerts records a change of a search's alert settings: the settings of each alert type
// that changed, before and after.
func (s *Service) auditAlerts(ctx context.Context, actor authz.Actor, searchID int64, before, after json.RawMessage) {
	if len(after) == 0 || bytes.Equal(before, after) {
		return
	}
	byType := func(raw json.RawMessage) audit.Fields {
		f := audit.Fields{}
		for _, n := range StoredSettings(raw) {
			f[n.Type] = n
		}
		return f
	}
	prev, next, changed := audit.Diff(byType(before), byType(after))
	if changed {
		audit.Record(ctx, s.store, actor, audit.Change{Model: audit.ModelAlert, ModelID: searchID,
			Action: audit.ActionUpdated, Previous: prev, New: next})
	}
}

// auditShares records who gained, lost or changed access to a search or group through its
// direct sharing list: one row per person. kind is "search" or "group".
func (s *Service) auditShares(ctx context.Context, actor authz.Actor, kind string, id int64, before []Share, after *[]Share) {
	if after == nil {
		return
	}
	ref := kind + ":" + strconv.FormatInt(id, 10)
	row := func(sh Share) audit.Fields {
		return audit.Fields{kind + "_id": id, "user": sh.Email, "role": sh.Role}
	}
	record := func(action string, prev, next audit.Fields) {
		audit.Record(ctx, s.store, actor, audit.Change{Model: audit.ModelSharing, Ref: ref, Action: action,
			Previous: audit.Encode(prev), New: audit.Encode(next)})
	}
	for _, sh := range *after {
		i := slices.IndexFunc(before, func(b Share) bool { return b.UserID == sh.UserID && !b.FromGroup })
		switch {
		case i < 0:
			record(audit.ActionShared, nil, row(sh))
		case before[i].Role != sh.Role:
			record(audit.ActionUpdated, row(before[i]), row(sh))
		}
	}
	for _, b := range before {
		if !b.FromGroup && !slices.ContainsFunc(*after, func(sh Share) bool { return sh.UserID == b.UserID }) {
			record(audit.ActionUnshared, row(b), nil)
		}
	}
}
