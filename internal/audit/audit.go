// Package audit owns the tenant's audit trail: how domain services record a change (which
// model, which action, the changed fields before and after, as compact JSON) and how tenant
// admins read it back. Rows are append-only: nothing in Sightline updates or deletes one, and
// the database refuses to (migration 0020).
package audit

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
)

// Models, lower-case singular (docs/tenant-api.md, "Audit logs").
const (
	ModelSearch        = "search"
	ModelGroup         = "group"
	ModelSharing       = "sharing"
	ModelFilterList    = "filter_list"
	ModelConfiguration = "configuration"
	ModelAlert         = "alert"
	ModelSettings      = "settings"
	ModelAnnouncement  = "announcement"
	ModelPostPlace     = "post_place"
	ModelEvidence      = "evidence"
	ModelAsset         = "asset"
	ModelCase          = "case"
	ModelCaseItem      = "case_item"
	ModelCaseComment   = "case_comment"
)

// Actions.
const (
	ActionCreated  = "created"
	ActionUpdated  = "updated"
	ActionDeleted  = "deleted"
	ActionDetached = "detached"
	ActionMoved    = "moved"
	ActionShared   = "shared"
	ActionUnshared = "unshared"
	ActionRotated  = "rotated"
	ActionRemoved  = "removed"
	ActionRestored = "restored"
)

// Fields is a flat snapshot of an item's audited fields, by their API names.
type Fields map[string]any

// Encode is the snapshot as compact JSON with sorted keys; "" for an empty snapshot.
func Encode(f Fields) string {
	if len(f) == 0 {
		return ""
	}
	b, err := json.Marshal(map[string]any(f))
	if err != nil {
		return ""
	}
	return string(b)
}

// Snapshot encodes an item's fields as a created or deleted row shows them: without the empty
// ones (blank text, none, empty lists), which say nothing about it.
func Snapshot(f Fields) string {
	kept := Fields{}
	for k, v := range f {
		if !empty(v) {
			kept[k] = v
		}
	}
	return Encode(kept)
}

func empty(v any) bool {
	if v == nil {
		return true
	}
	b, err := json.Marshal(v)
	return err == nil && (string(b) == `""` || string(b) == "[]" || string(b) == "{}" || string(b) == "null")
}

// Diff keeps only the fields whose values differ and encodes them: the previous and the new
// value of an update. changed is false when nothing differs (then nothing is worth a row).
func Diff(before, after Fields) (previous, next string, changed bool) {
	prev, now := Fields{}, Fields{}
	for k, a := range after {
		b, ok := before[k]
		if !ok || !same(a, b) {
			now[k] = a
			if ok {
				prev[k] = b
			}
		}
	}
	for k, b := range before {
		if _, ok := after[k]; !ok {
			prev[k] = b
		}
	}
	if len(prev) == 0 && len(now) == 0 {
		return "", "", false
	}
	return Encode(prev), Encode(now), true
}

func same(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// Time is how snapshots show an optional time: RFC 3339 in UTC, nil for none.
func Time(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

// Change is one audit row about to be written by an actor.
type Change struct {
	Model    string
	ModelID  int64
	Ref      string // the model's id when it is not a number (a configuration's public id)
	Action   string
	Previous string
	New      string
}

// Entry is c as done by the actor, in the actor's tenant and organization: the entry a service
// hands to the store method making the change, which writes it in the change's transaction, so
// neither is stored without the other. A Change naming no id leaves it to the store (the row the
// change creates).
func Entry(a authz.Actor, c Change) account.AuditEntry {
	id := c.Ref
	if id == "" && c.ModelID != 0 {
		id = strconv.FormatInt(c.ModelID, 10)
	}
	return account.AuditEntry{TenantID: a.TenantID, OrganizationID: a.OrganizationID, UserID: a.UserID,
		Model: c.Model, ModelID: id, Action: c.Action, PreviousValue: c.Previous, NewValue: c.New}
}

// Created is the entry of a new item with its snapshot as the new value; id 0 for the row the
// store is about to create.
func Created(a authz.Actor, model string, id int64, f Fields) account.AuditEntry {
	return Entry(a, Change{Model: model, ModelID: id, Action: ActionCreated, New: Snapshot(f)})
}

// Deleted is the entry of a removed item with its last snapshot as the previous value.
func Deleted(a authz.Actor, model string, id int64, f Fields) account.AuditEntry {
	return Entry(a, Change{Model: model, ModelID: id, Action: ActionDeleted, Previous: Snapshot(f)})
}

// Updated is the entry of the fields that changed between before and after, and none when none
// did.
func Updated(a authz.Actor, model string, id int64, before, after Fields) []account.AuditEntry {
	prev, next, changed := Diff(before, after)
	if !changed {
		return nil
	}
	return []account.AuditEntry{Entry(a, Change{Model: model, ModelID: id, Action: ActionUpdated, Previous: prev, New: next})}
}
