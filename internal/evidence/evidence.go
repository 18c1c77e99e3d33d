// Package evidence captures what an analyst saw so that it can be proved later (issue 32,
// docs/evidence.md): the post, match or story as Sightline stored it, the original page fetched
// through the outbound guard and written as WARC, its media, a screenshot and PDF when Chromium
// is on the server, each file's SHA-256 and RFC 3161 timestamps over the hashes. A record is
// written when the capture is asked for and never edited afterwards: a worker on any node claims
// it, adds what it fetched and finishes it; capturing again makes a new record linked to the
// old; deleting leaves a tombstone with the hashes.
package evidence

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/story"
)

// Kinds of capture: what the request named.
const (
	KindPost  = "post"
	KindMatch = "match"
	KindStory = "story"
	KindURL   = "url"
)

// States of a record.
const (
	StatePending = "pending"
	StateRunning = "running"
	// StateDone: everything planned was captured; StatePartial: something failed and the rest
	// was kept (Errors say what); StateFailed: nothing could be fetched.
	StateDone    = "done"
	StatePartial = "partial"
	StateFailed  = "failed"
	// StateDeleted is a tombstone: the files' names, hashes and sizes and the timestamps stay.
	StateDeleted = "deleted"
)

// EventUpdated tells the user who asked for a capture that it moved on (progress) or finished.
const EventUpdated = "evidence.updated"

// Updated is the payload of EventUpdated.
type Updated struct {
	ID       string `json:"id"`
	State    string `json:"state"`
	Progress int    `json:"progress"`
	Step     string `json:"step"`
}

// Limits of one capture.
const (
	// MaxPages is how many pages a story capture fetches (its first posts' pages).
	MaxPages = 5
	// MaxMedia is how many of a post's pictures and videos are fetched.
	MaxMedia = 10
	// MaxBytes bounds the bytes one record holds; what passes it is left out and listed as an
	// error. Records live in the database (docs/evidence.md).
	MaxBytes = 200 << 20
	// CaptureTimeout bounds a whole capture, the browser included.
	CaptureTimeout = 3 * time.Minute
	// DefaultAutoQuota is how many automatic captures one organization gets a UTC day.
	DefaultAutoQuota = 200
	maxURL           = 2048
)

// Messages.
const (
	MsgNotFound    = "The evidence was not found."
	MsgOneTarget   = "Send one of postId, matchId, storyId or url."
	MsgBadURL      = "The address must be an absolute http or https URL."
	MsgNotFinished = "The capture has not finished yet."
	MsgNoTSA       = "No timestamp authority is configured on this server (--tsa-url): the hashes are not timestamped."
)

// Plan is what the worker fetches for a record.
type Plan struct {
	Pages []string `json:"pages,omitempty"`
	Media []string `json:"media,omitempty"`
}

// File is one file of a record; Content is loaded only when asked for.
type File struct {
	Name    string
	SHA256  string
	Size    int64
	Content []byte
}

// Stamp is one authority's RFC 3161 time-stamp response (DER) over the record's SHA256SUMS.
type Stamp struct {
	N        int
	TSA      string
	Time     time.Time
	Response []byte
}

// Record is one capture.
type Record struct {
	ID             int64
	TenantID       int64
	OrganizationID int64
	// UserID is who asked (0 for an automatic capture, whose SearchID says which search).
	UserID     int64
	CapturedBy string
	SearchID   int64
	Kind       string
	Target     string
	Plan       Plan
	PreviousID int64
	State      string
	Progress   int
	Step       string
	Errors     []string
	CreatedAt  time.Time
	CapturedAt time.Time
	DeletedAt  time.Time
	DeletedBy  int64
	Files      []File
	Timestamps []Stamp
}

// Finished says the worker is done with r (whatever the outcome).
func (r Record) Finished() bool {
	return r.State == StateDone || r.State == StatePartial || r.State == StateFailed || r.State == StateDeleted
}

// AutoQuota is the automatic-capture allowance the store checks in the transaction that inserts one.
type AutoQuota struct {
	Limit        int
	Since, Until time.Time
}

// Store is the persistence of evidence.
type Store interface {
	// CreateEvidence inserts r with its first files, linking it to the organization's newest
	// record of the same kind and target (PreviousID), and fills in its id.
	CreateEvidence(ctx context.Context, r *Record) error
	// Evidence loads a record with its files (without content) and timestamps.
	Evidence(ctx context.Context, id int64) (Record, bool, error)
	// EvidenceList is an organization's records, newest first, optionally of one kind and target.
	EvidenceList(ctx context.Context, organizationID int64, kind, target string, limit int) ([]Record, error)
	// EvidenceFile loads one file with its content; found is false for none (or a tombstone's).
	EvidenceFile(ctx context.Context, id int64, name string) (File, bool, error)
	// ClaimEvidence takes the oldest pending record, or a running one whose lease ended.
	ClaimEvidence(ctx context.Context, claim string, now, leaseUntil time.Time) (Record, bool, error)
	SetEvidenceProgress(ctx context.Context, id int64, claim string, progress int, step string) (held bool, err error)
	ReleaseEvidence(ctx context.Context, id int64, claim string) error
	// FinishEvidence adds the files and timestamps the worker made and records the outcome.
	FinishEvidence(ctx context.Context, r Record, files []File, stamps []Stamp, claim string) (held bool, err error)
	// DeleteEvidence makes the record a tombstone (its files' bytes go, their hashes stay) with
	// the audit entries, in one transaction.
	DeleteEvidence(ctx context.Context, id, by int64, at time.Time, audit ...account.AuditEntry) error

	// SetAutoCapture turns a saved search's automatic capture on (mode high or all, from the
	// next match on) or off (mode ""), with the audit entries.
	SetAutoCapture(ctx context.Context, a Auto, audit ...account.AuditEntry) error
	AutoCapture(ctx context.Context, searchID int64) (Auto, bool, error)
	// AutoMatches are up to limit matches of searches with automatic capture on that were not
	// looked at yet, oldest first.
	AutoMatches(ctx context.Context, limit int) ([]AutoMatch, error)
	// CreateAutoEvidence inserts the automatic capture of a match unless the organization's
	// automatic captures of the quota's day reached its limit (over) or the match has one
	// already, and moves the search's scan past the match either way.
	CreateAutoEvidence(ctx context.Context, r *Record, q AutoQuota) (created, over bool, err error)
	// SkipAutoMatch moves the search's scan past a match without capturing it.
	SkipAutoMatch(ctx context.Context, searchID, matchID int64) error
}

// Posts loads a stored post as a tenant's users may see it (*store.Store).
type Posts interface {
	Post(ctx context.Context, id string, tenant int64) (post.Post, error)
}

// Matches reads inbox matches as a user sees them (*monitor.Service).
type Matches interface {
	InboxByIDs(ctx context.Context, actor authz.Actor, matchIDs []int64) ([]monitor.InboxEntry, error)
	Search(ctx context.Context, actor authz.Actor, id int64) (monitor.SearchView, error)
}

// Stories reads a story as a user sees it (*story.Service).
type Stories interface {
	Get(ctx context.Context, actor authz.Actor, id string, offset, limit int) (story.View, error)
}

// Users names who captured a record.
type Users interface {
	User(ctx context.Context, id int64) (account.User, error)
}

// Deps are what the service needs.
type Deps struct {
	Store   Store
	Posts   Posts
	Matches Matches
	Stories Stories
	Users   Users
	// Live tells the capturing user of progress and the outcome (nil: no events).
	Live live.Publisher
	// Fetch is the outbound guard the pages and media go through, with the sources' allowlist
	// of private addresses (--allow-private-networks).
	Fetch *outbound.Client
	// TSA are the timestamp authorities' URLs (--tsa-url); none means captures say they are not
	// timestamped.
	TSA []string
	// Browser is Chromium's path for the screenshot and PDF (serve's --chromium); "" captures
	// without them, and the record says so (capture.json's noBrowser, the API's warnings).
	Browser string
	// AutoQuota is each organization's automatic captures a UTC day (DefaultAutoQuota when 0,
	// none when negative).
	AutoQuota int
	// Workers is how many captures a node runs at once (2 when 0).
	Workers int
	Logger  *slog.Logger
	Now     func() time.Time
}

// Service asks for captures, runs them and serves them.
type Service struct {
	Deps
	wake chan struct{}
	// lease is how long a claim holds: longer than a capture may take, so nobody renews it.
	lease, poll time.Duration
	// limits bound what the browser's requests and streams add to a record.
	limits limits
}

// limits bound what a capture records beyond its pages and media (tests lower them).
type limits struct {
	browserRecords int
	browserBytes   int64
	streamFiles    int
	streamBytes    int64
}

// NewService returns the service.
func NewService(d Deps) *Service {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Workers <= 0 {
		d.Workers = 2
	}
	if d.AutoQuota == 0 {
		d.AutoQuota = DefaultAutoQuota
	}
	if d.Fetch == nil {
		d.Fetch = outbound.New(outbound.Options{})
	}
	return &Service{Deps: d, wake: make(chan struct{}, 1), lease: CaptureTimeout + time.Minute, poll: 5 * time.Second,
		limits: limits{browserRecords: MaxBrowserRecords, browserBytes: MaxBrowserBytes, streamFiles: MaxStreamFiles, streamBytes: MaxStreamBytes}}
}

// Input is a capture request: one of its fields.
type Input struct {
	PostID  string `json:"postId"`
	MatchID string `json:"matchId"`
	StoryID string `json:"storyId"`
	URL     string `json:"url"`
}

// Request validates a capture, reads what Sightline stored as the actor sees it (its first
// file) and queues the rest for a worker.
func (s *Service) Request(ctx context.Context, actor authz.Actor, in Input) (Record, error) {
	if err := authz.CanCapture(actor); err != nil {
		return Record{}, err
	}
	r := Record{TenantID: actor.TenantID, OrganizationID: actor.OrganizationID, UserID: actor.UserID,
		State: StatePending, CreatedAt: s.Now().UTC()}
	if err := s.resolve(ctx, actor, in, &r); err != nil {
		return Record{}, err
	}
	u, err := s.Users.User(ctx, actor.UserID)
	if err != nil {
		return Record{}, err
	}
	r.CapturedBy = userLabel(u)
	if err := s.Store.CreateEvidence(ctx, &r); err != nil {
		return Record{}, err
	}
	s.nudge()
	return r, nil
}

func userLabel(u account.User) string {
	if u.Name == "" || u.Name == u.Email {
		return u.Email
	}
	return u.Name + " <" + u.Email + ">"
}

func (s *Service) nudge() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// resolve fills in the record's kind, target, first files and plan from the request.
func (s *Service) resolve(ctx context.Context, actor authz.Actor, in Input, r *Record) error {
	given := 0
	for _, v := range []string{in.PostID, in.MatchID, in.StoryID, in.URL} {
		if strings.TrimSpace(v) != "" {
			given++
		}
	}
	if given != 1 {
		return problem.Invalid(MsgOneTarget, nil)
	}
	switch {
	case in.PostID != "":
		p, err := s.Posts.Post(ctx, in.PostID, actor.TenantID)
		if problem.Is(err, problem.KindNotFound) {
			return problem.NotFound(authz.MsgPostNotFound)
		}
		if err != nil {
			return err
		}
		if err := authz.CanSeePost(actor, authz.PostFacts{Tenant: p.Tenant, Provider: p.Provider}); err != nil {
			return err
		}
		r.Kind, r.Target = KindPost, p.ID
		return postFiles(r, p)
	case in.MatchID != "":
		id, err := strconv.ParseInt(in.MatchID, 10, 64)
		notFound := problem.NotFound("The match was not found.")
		if err != nil {
			return notFound
		}
		entries, err := s.Matches.InboxByIDs(ctx, actor, []int64{id})
		if err != nil {
			return err
		}
		if len(entries) == 0 {
			return notFound
		}
		r.Kind, r.Target = KindMatch, in.MatchID
		if err := addJSON(r, "match.json", entries[0].Payload()); err != nil {
			return err
		}
		return postFiles(r, entries[0].Post)
	case in.StoryID != "":
		v, err := s.Stories.Get(ctx, actor, in.StoryID, 0, story.MaxPage)
		if err != nil {
			return err
		}
		if v.PostCount == 0 {
			return problem.NotFound("The story was not found.")
		}
		r.Kind, r.Target = KindStory, in.StoryID
		for _, p := range v.Posts {
			if len(r.Plan.Pages) < MaxPages && p.PostLink != "" {
				r.Plan.Pages = append(r.Plan.Pages, p.PostLink)
			}
		}
		return addJSON(r, "story.json", v)
	default:
		u := strings.TrimSpace(in.URL)
		if !validURL(u) {
			return problem.InvalidField("url", MsgBadURL)
		}
		r.Kind, r.Target, r.Plan.Pages = KindURL, u, []string{u}
		return nil
	}
}

func validURL(s string) bool {
	if len(s) > maxURL {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// postFiles adds the post as stored and plans its page and media.
func postFiles(r *Record, p post.Post) error {
	if p.PostLink != "" && validURL(p.PostLink) {
		r.Plan.Pages = append(r.Plan.Pages, p.PostLink)
	}
	for _, m := range append(append([]post.Media{}, p.Photos...), p.Videos...) {
		if len(r.Plan.Media) < MaxMedia && validURL(m.Large) {
			r.Plan.Media = append(r.Plan.Media, m.Large)
		}
	}
	return addJSON(r, "post.json", p)
}

func addJSON(r *Record, name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	r.Files = append(r.Files, NewFile(name, append(b, '\n')))
	return nil
}

// visible loads a record the actor's organization holds; any other is not found.
func (s *Service) visible(ctx context.Context, actor authz.Actor, id string) (Record, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return Record{}, problem.NotFound(MsgNotFound)
	}
	r, found, err := s.Store.Evidence(ctx, n)
	if err != nil {
		return Record{}, err
	}
	if !found {
		return Record{}, problem.NotFound(MsgNotFound)
	}
	if err := authz.CanReadEvidence(actor, authz.EvidenceFacts{OrganizationID: r.OrganizationID}); err != nil {
		return Record{}, err
	}
	return r, nil
}

// Get is one record as the actor's organization sees it.
func (s *Service) Get(ctx context.Context, actor authz.Actor, id string) (Record, error) {
	return s.visible(ctx, actor, id)
}

// Check says whether the actor's organization holds the record, a not-found problem otherwise
// (a case takes an evidence item by it).
func (s *Service) Check(ctx context.Context, actor authz.Actor, id string) error {
	_, err := s.visible(ctx, actor, id)
	return err
}

// List is the organization's newest records (at most 100), optionally those of one post, match,
// story or address.
func (s *Service) List(ctx context.Context, actor authz.Actor, kind, target string) ([]Record, error) {
	if err := authz.CanReadEvidence(actor, authz.EvidenceFacts{OrganizationID: actor.OrganizationID}); err != nil {
		return nil, err
	}
	switch kind {
	case "", KindPost, KindMatch, KindStory, KindURL:
	default:
		return nil, problem.InvalidField("kind", "The kind must be post, match, story or url.")
	}
	return s.Store.EvidenceList(ctx, actor.OrganizationID, kind, target, 100)
}

// File is one file of a record with its content.
func (s *Service) File(ctx context.Context, actor authz.Actor, id, name string) (File, error) {
	r, err := s.visible(ctx, actor, id)
	if err != nil {
		return File{}, err
	}
	f, found, err := s.Store.EvidenceFile(ctx, r.ID, name)
	if err != nil {
		return File{}, err
	}
	if !found || f.Content == nil {
		return File{}, problem.NotFound("The file was not found.")
	}
	return f, nil
}

// Delete makes a record a tombstone: owners and admins only, audited with its hashes.
func (s *Service) Delete(ctx context.Context, actor authz.Actor, id string) error {
	r, err := s.visible(ctx, actor, id)
	if err != nil {
		return err
	}
	if err := authz.CanDeleteEvidence(actor, authz.EvidenceFacts{OrganizationID: r.OrganizationID}); err != nil {
		return err
	}
	if r.State == StateDeleted {
		return nil
	}
	if !r.Finished() {
		return problem.Conflict(MsgNotFinished)
	}
	hashes := map[string]string{}
	for _, f := range r.Files {
		hashes[f.Name] = f.SHA256
	}
	entry := audit.Deleted(actor, audit.ModelEvidence, r.ID, audit.Fields{"kind": r.Kind, "target": r.Target,
		"capturedBy": r.CapturedBy, "capturedAt": audit.Time(r.CapturedAt), "files": hashes})
	return s.Store.DeleteEvidence(ctx, r.ID, actor.UserID, s.Now().UTC(), entry)
}

// FilePayload is a file as the API lists it.
type FilePayload struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// StampPayload is a timestamp as the API lists it.
type StampPayload struct {
	TSA  string    `json:"tsa"`
	Time time.Time `json:"time"`
}

// Payload is a record as the API sends it.
type Payload struct {
	ID         string         `json:"id"`
	Kind       string         `json:"kind"`
	Target     string         `json:"target"`
	State      string         `json:"state"`
	Progress   int            `json:"progress"`
	Step       string         `json:"step"`
	CreatedAt  time.Time      `json:"createdAt"`
	CapturedAt *time.Time     `json:"capturedAt"`
	CapturedBy string         `json:"capturedBy"`
	Automatic  bool           `json:"automatic"`
	PreviousID *string        `json:"previousId"`
	DeletedAt  *time.Time     `json:"deletedAt"`
	Files      []FilePayload  `json:"files"`
	Timestamps []StampPayload `json:"timestamps"`
	Errors     []string       `json:"errors"`
	// Warnings say what the record lacks without anything failing: no timestamp authority.
	Warnings []string `json:"warnings"`
}

// Payload is r as the API sends it.
func (r Record) Payload() Payload {
	p := Payload{ID: strconv.FormatInt(r.ID, 10), Kind: r.Kind, Target: r.Target, State: r.State, Progress: r.Progress,
		Step: r.Step, CreatedAt: r.CreatedAt, CapturedBy: r.CapturedBy, Automatic: r.SearchID != 0,
		Files: []FilePayload{}, Timestamps: []StampPayload{}, Errors: r.Errors, Warnings: []string{}}
	if p.Errors == nil {
		p.Errors = []string{}
	}
	if !r.CapturedAt.IsZero() {
		at := r.CapturedAt
		p.CapturedAt = &at
	}
	if !r.DeletedAt.IsZero() {
		at := r.DeletedAt
		p.DeletedAt = &at
	}
	if r.PreviousID != 0 {
		prev := strconv.FormatInt(r.PreviousID, 10)
		p.PreviousID = &prev
	}
	for _, f := range r.Files {
		p.Files = append(p.Files, FilePayload{Name: f.Name, SHA256: f.SHA256, Size: f.Size})
	}
	for _, t := range r.Timestamps {
		p.Timestamps = append(p.Timestamps, StampPayload{TSA: t.TSA, Time: t.Time})
	}
	if r.Finished() && r.State != StateDeleted && len(r.Timestamps) == 0 {
		p.Warnings = append(p.Warnings, fmt.Sprintf("Not timestamped: %s", noStampReason(r)))
	}
	if r.Finished() && r.State != StateDeleted && !r.browsed() {
		p.Warnings = append(p.Warnings, MsgNoBrowser)
	}
	return p
}

// browsed says whether the browser was tried on the record's pages, or had nothing to draw: it
// has a screenshot, a browser error, no page, or a first page that is a stream's playlist.
func (r Record) browsed() bool {
	if len(r.Plan.Pages) == 0 {
		return true
	}
	for _, f := range r.Files {
		if f.Name == "screenshot.png" || strings.HasPrefix(f.Name, "page/01.") {
			return true
		}
	}
	for _, e := range r.Errors {
		if strings.HasPrefix(e, "browser: ") {
			return true
		}
	}
	return false
}

// noStampReason is why a finished record has no timestamp, as its capture.json said.
func noStampReason(r Record) string {
	for _, e := range r.Errors {
		if strings.HasPrefix(e, "timestamp ") {
			return "every timestamp authority failed."
		}
	}
	return "no timestamp authority is configured on this server (--tsa-url)."
}
