package contracts

import (
	"reflect"

	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/asset"
	"github.com/sightline/sightline/internal/assistant"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/basemap"
	"github.com/sightline/sightline/internal/cases"
	"github.com/sightline/sightline/internal/evidence"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/story"
)

// Sightline is every contract the web app reads from the Go side. Add a reply type, a closed set
// of strings or a live event here (web/README.md, "Contracts with the server"), then run
// `make contracts`.
func Sightline() Contracts {
	return Contracts{
		Unions: []Union{
			{Const: "WIDGET_IDS", Type: "WidgetId", Doc: "The dashboard's widgets, by the names layouts use.", Values: monitor.Widgets},
			{Const: "MATCHED_TERM_KINDS", Type: "MatchedTermKind", Doc: "What a matched term is: a form of keyword, or an author.", Values: query.HitKinds},
			{Const: "MATCHED_TERM_FIELDS", Type: "MatchedTermField", Doc: "The part of a post a matched term was found in.", Values: query.HitFields},
			{Const: "BACKFILL_STATUSES", Type: "BackfillStatus", Doc: "How far a saved search's backfill got.", Values: []string{monitor.BackfillRunning, monitor.BackfillDone, monitor.BackfillFailed}},
			{Const: "SEARCH_STATUSES", Type: "SearchStatus", Doc: "A saved search's state.", Values: []string{monitor.StatusActive, monitor.StatusPaused, monitor.StatusScheduled, monitor.StatusEnded, monitor.StatusExpired}},
			{Const: "PRIVACIES", Type: "Privacy", Doc: "Who in the organization sees a group.", Values: []string{authz.PrivacyShared, authz.PrivacyReadonly, authz.PrivacyPrivate}},
			{Const: "SHARE_ROLES", Type: "ShareRole", Doc: "What a person a search or group is shared with may do.", Values: []string{authz.RoleFullAccess, authz.RoleReadOnly}},
			{Const: "PERSON_ROLES", Type: "PersonRole", Doc: "A share's role, or the owner's.", Values: []string{authz.RoleOwner, authz.RoleFullAccess, authz.RoleReadOnly}},
			{Const: "MAP_BASE_KINDS", Type: "MapBaseKind", Doc: "How the web app draws the base map (docs/maps.md).", Values: basemap.Kinds},
			{Const: "EVIDENCE_STATES", Type: "EvidenceState", Doc: "Where an evidence capture is (docs/evidence.md).", Values: []string{evidence.StatePending, evidence.StateRunning, evidence.StateDone, evidence.StatePartial, evidence.StateFailed, evidence.StateDeleted}},
			{Const: "EVIDENCE_KINDS", Type: "EvidenceKind", Doc: "What an evidence capture was asked for.", Values: []string{evidence.KindPost, evidence.KindMatch, evidence.KindStory, evidence.KindURL}},
			{Const: "AUTO_CAPTURE_MODES", Type: "AutoCaptureMode", Doc: "A saved search's automatic capture of its matches.", Values: evidence.AutoModes},
			{Const: "ASSET_TYPES", Type: "AssetType", Doc: "What an asset's value is (monitor-area.md section 4).", Values: asset.TypeNames()},
			{Const: "CASE_STATUSES", Type: "CaseStatus", Doc: "Where a case stands (docs/cases-api.md).", Values: cases.Statuses},
			{Const: "CASE_ITEM_KINDS", Type: "CaseItemKind", Doc: "What an item of a case is.", Values: cases.Kinds},
			{Const: "ALERT_TYPES", Type: "AlertType", Doc: "The kinds of alert a saved search has, in the order the app lists them.", Values: []string{monitor.AlertBatch, monitor.AlertDigest, monitor.AlertWebhook, monitor.AlertProximity, monitor.AlertAISummary, monitor.AlertSpike}},
			{Const: "ASSISTANT_RATINGS", Type: "AssistantRating", Doc: "The feedback an analyst gives an assistant's answer (docs/assistant.md).", Values: assistant.Ratings},
			{Const: "POST_ORIGIN_KINDS", Type: "PostOriginKind", Doc: "Where a post came from (docs/connectors.md).", Values: []string{post.OriginShared, post.OriginSource, post.OriginIngest}},
		},
		Constants: []Constant{
			{Name: "MAX_ROW_WIDGETS", Doc: "A dashboard row holds one to this many widgets.", Value: monitor.MaxRowWidgets},
			{Name: "MAX_ROWS", Doc: "A dashboard has at most this many rows.", Value: monitor.MaxLayoutRows},
			{Name: "MAX_PROXIMITY_LOCATIONS", Doc: "Most locations one proximity alert may watch.", Value: monitor.MaxProximityLocations},
			{Name: "BATCH_ALERT_INTERVALS", Doc: "An e-mail alert's intervals in seconds, off first.", Values: monitor.Intervals(monitor.AlertBatch)},
			{Name: "DIGEST_ALERT_INTERVALS", Doc: "An e-mail digest's intervals in seconds, off first.", Values: monitor.Intervals(monitor.AlertDigest)},
			{Name: "PROXIMITY_ALERT_INTERVALS", Doc: "A proximity alert's intervals in seconds, off first.", Values: monitor.Intervals(monitor.AlertProximity)},
			{Name: "AI_SUMMARY_ALERT_INTERVALS", Doc: "An AI summary's intervals in seconds, off first.", Values: monitor.Intervals(monitor.AlertAISummary)},
			{Name: "SPIKE_ALERT_INTERVALS", Doc: "A spike alert's settings in seconds: off, then on (detection runs every minute).", Values: monitor.Intervals(monitor.AlertSpike)},
			{Name: "MAX_ASSET_VALUE_LENGTH", Doc: "The longest value an asset may have, in characters.", Value: asset.MaxValueLen},
			{Name: "MAX_FEEDBACK_COMMENT", Doc: "The longest comment feedback on an assistant's answer may have, in characters.", Value: assistant.MaxComment},
			{Name: "MATCH_EVENTS_PER_BATCH", Doc: "The most monitor.match.created events a user gets for one batch of posts.", Value: monitor.StreamedPerBatch},
		},
		Events: []Event{
			{Key: "matchesUpdated", Name: monitor.EventMatchesUpdated, Payload: reflect.TypeFor[monitor.MatchesUpdated]()},
			{Key: "matchCreated", Name: monitor.EventMatchCreated, Payload: reflect.TypeFor[monitor.MatchCreated]()},
			{Key: "exportReady", Name: live.EventExportReady, Payload: reflect.TypeFor[live.ExportReady]()},
			{Key: "caseUpdated", Name: cases.EventCaseUpdated, Payload: reflect.TypeFor[cases.CaseUpdated]()},
			{Key: "caseMention", Name: cases.EventCaseMention, Payload: reflect.TypeFor[cases.CaseMention]()},
			{Key: "backfillUpdated", Name: monitor.EventBackfillUpdated, Payload: reflect.TypeFor[monitor.BackfillReply]()},
			{Key: "evidenceUpdated", Name: evidence.EventUpdated, Payload: reflect.TypeFor[evidence.Updated]()},
			{Key: "storyUpdated", Name: story.EventUpdated, Payload: reflect.TypeFor[story.Updated]()},
		},
		Types: []Type{
			{Go: reflect.TypeFor[monitor.MatchPayload](), Name: "Match"},
			{Go: reflect.TypeFor[monitor.Counts](), Name: "MatchCounts"},
			{Go: reflect.TypeFor[query.Hit](), Name: "MatchedTerm"},
			{Go: reflect.TypeFor[post.Origin](), Name: "PostOrigin"},
			{Go: reflect.TypeFor[basemap.Base](), Name: "MapBase"},
			{Go: reflect.TypeFor[monitor.Dashboard]()},
			{Go: reflect.TypeFor[monitor.Layout](), Name: "DashboardLayout"},
			{Go: reflect.TypeFor[search.Page](), Name: "SearchPage"},
			{Go: reflect.TypeFor[story.View](), Name: "Story"},
			{Go: reflect.TypeFor[evidence.Payload](), Name: "Evidence"},
			{Go: reflect.TypeFor[evidence.AutoPayload](), Name: "AutoCapture"},
			{Go: reflect.TypeFor[evidence.Updated](), Name: "EvidenceUpdated"},
			{Go: reflect.TypeFor[evidence.FilePayload](), Name: "EvidenceFile"},
			{Go: reflect.TypeFor[evidence.StampPayload](), Name: "EvidenceTimestamp"},
			{Go: reflect.TypeFor[story.Summary](), Name: "StorySummary"},
			{Go: reflect.TypeFor[story.Updated](), Name: "StoryUpdated"},
			{Go: reflect.TypeFor[api.StoryGroupReply](), Name: "InboxStory"},
			{Go: reflect.TypeFor[api.GroupMiniReply](), Name: "GroupMini"},
			{Go: reflect.TypeFor[api.GroupReply](), Name: "Group"},
			{Go: reflect.TypeFor[api.SearchMiniReply](), Name: "MonitorSearchSummary"},
			{Go: reflect.TypeFor[api.SearchReply](), Name: "SearchReply"},
			{Go: reflect.TypeFor[api.PersonReply](), Name: "Person"},
			{Go: reflect.TypeFor[api.SharingReply](), Name: "SharingEntry"},
			{Go: reflect.TypeFor[api.AssetReply](), Name: "Asset"},
			{Go: reflect.TypeFor[api.CaseSummaryReply](), Name: "CaseSummary"},
			{Go: reflect.TypeFor[api.CaseReply](), Name: "Case"},
			{Go: reflect.TypeFor[api.CaseCommentCreated]()},
			{Go: reflect.TypeFor[channel.Description](), Name: "AlertChannel"},
			{Go: reflect.TypeFor[assistant.Source](), Name: "AssistantSource"},
			{Go: reflect.TypeFor[assistant.Reply](), Name: "AssistantReply"},
			{Go: reflect.TypeFor[assistant.FeedbackReply](), Name: "AssistantFeedback"},
			{Go: reflect.TypeFor[assistant.Message](), Name: "AssistantMessage"},
		},
		UnionField: []UnionField{
			{Struct: reflect.TypeFor[monitor.LayoutRow](), Field: "Widgets", Union: "WidgetId"},
			{Struct: reflect.TypeFor[query.Hit](), Field: "Kind", Union: "MatchedTermKind"},
			{Struct: reflect.TypeFor[query.Hit](), Field: "Field", Union: "MatchedTermField"},
			{Struct: reflect.TypeFor[post.Origin](), Field: "Kind", Union: "PostOriginKind"},
			{Struct: reflect.TypeFor[api.AssetReply](), Field: "Type", Union: "AssetType"},
			{Struct: reflect.TypeFor[basemap.Base](), Field: "Kind", Union: "MapBaseKind"},
			{Struct: reflect.TypeFor[api.SearchMiniReply](), Field: "Status", Union: "SearchStatus"},
			{Struct: reflect.TypeFor[api.SearchReply](), Field: "Status", Union: "SearchStatus"},
			{Struct: reflect.TypeFor[monitor.BackfillReply](), Field: "Status", Union: "BackfillStatus"},
			{Struct: reflect.TypeFor[evidence.Payload](), Field: "State", Union: "EvidenceState"},
			{Struct: reflect.TypeFor[evidence.Payload](), Field: "Kind", Union: "EvidenceKind"},
			{Struct: reflect.TypeFor[evidence.Updated](), Field: "State", Union: "EvidenceState"},
			{Struct: reflect.TypeFor[evidence.AutoPayload](), Field: "Mode", Union: "AutoCaptureMode"},
			{Struct: reflect.TypeFor[api.GroupMiniReply](), Field: "Privacy", Union: "Privacy"},
			{Struct: reflect.TypeFor[api.GroupReply](), Field: "Privacy", Union: "Privacy"},
			{Struct: reflect.TypeFor[api.PersonReply](), Field: "Role", Union: "PersonRole"},
			{Struct: reflect.TypeFor[api.SharingReply](), Field: "Role", Union: "ShareRole"},
			{Struct: reflect.TypeFor[api.CaseSummaryReply](), Field: "Status", Union: "CaseStatus"},
			{Struct: reflect.TypeFor[api.CaseSummaryReply](), Field: "Privacy", Union: "Privacy"},
			{Struct: reflect.TypeFor[api.CaseItemReply](), Field: "Kind", Union: "CaseItemKind"},
			{Struct: reflect.TypeFor[api.CaseShareReply](), Field: "Role", Union: "ShareRole"},
			{Struct: reflect.TypeFor[channel.Description](), Field: "AlertTypes", Union: "AlertType"},
			{Struct: reflect.TypeFor[assistant.FeedbackReply](), Field: "Rating", Union: "AssistantRating"},
		},
	}
}
