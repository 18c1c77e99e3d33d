package monitor

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/sightline/sightline/internal/account"
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

// auditAlerts is the entry of a change of a search's alert settings: the settings of each alert
// type that changed, before and after; none when nothing did.
func auditAlerts(actor authz.Actor, searchID int64, before, after json.RawMessage) []account.AuditEntry {
	if len(after) == 0 || bytes.Equal(before, after) {
		return nil
	}
	byType := func(raw json.RawMessage) audit.Fields {
		f := audit.Fields{}
		for _, n := range StoredSettings(raw) {
			f[n.Type] = n
		}
		return f
	}
	prev, next, changed := audit.Diff(byType(before), byType(after))
	if !changed {
		return nil
	}
	return []account.AuditEntry{audit.Entry(actor, audit.Change{Model: audit.ModelAlert, ModelID: searchID,
		Action: audit.ActionUpdated, Previous: prev, New: next})}
}

// auditShares is the entries of who gained, lost or changed access to a search or group through
// its direct sharing list: one per person. kind is "search" or "group".
func auditShares(actor authz.Actor, kind string, id int64, before []Share, after *[]Share) []account.AuditEntry {
	if after == nil {
		return nil
	}
	ref := kind + ":" + strconv.FormatInt(id, 10)
	row := func(sh Share) audit.Fields {
		return audit.Fields{kind + "_id": id, "user": sh.Email, "role": sh.Role}
	}
	var entries []account.AuditEntry
	record := func(action string, prev, next audit.Fields) {
		entries = append(entries, audit.Entry(actor, audit.Change{Model: audit.ModelSharing, Ref: ref, Action: action,
			Previous: audit.Encode(prev), New: audit.Encode(next)}))
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
	return entries
}
