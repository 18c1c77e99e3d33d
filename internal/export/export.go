// Package export writes posts a user chose (inbox matches or a Beacon search) to a CSV or JSON
// file in the background, pushes the download link to the user's live channel and, when asked,
// e-mails it (issue 13; docs/monitor-api.md, "Exports"). A request is a row written before the
// work starts; a worker on each node claims rows one at a time, so a restart resumes them.
package export

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	netmail "net/mail"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/translate"
)

// Sources, formats and states.
const (
	SourceMatches = "matches"
	SourceBeacon  = "beacon"

	FormatCSV  = "csv"
	FormatJSON = "json"

	StatusPending = "pending"
	StatusRunning = "running"
	StatusReady   = "ready"
	StatusFailed  = "failed"
)

// What happened to the e-mail of an export that gave an address.
const (
	EmailPending = "pending"
	EmailSent    = "sent"
	EmailOff     = "off" // the server has no SMTP: the link is only in the app
	EmailFailed  = "failed"
)

// Limits (search-side.md sections 5 and 9).
const (
	// DailyLimit is how many posts a user may export in a UTC day.
	DailyLimit = 50_000
	// Retention is how long a file and its history row are kept.
	Retention = 30 * 24 * time.Hour
)

// Messages (search-side.md sections 5 and 8).
const (
	MsgInvalidEmail = "The provided email address is invalid"
	// MsgEmailOff refuses an address when the server has no SMTP: nothing would be sent to it.
	MsgEmailOff = "E-mail delivery is not configured on this server."
	MsgEmpty    = "You have no posts to export..."
	MsgFailed   = "Something went wrong. We were unable to export these posts."
	// MsgExpired answers a download after Retention; the spec has no text for it.
	MsgExpired = "This export link has expired: exports are kept for 30 days. Export the posts again."
)

// Export is one export request and its outcome.
type Export struct {
	ID             int64
	OrganizationID int64
	UserID         int64
	Source         string
	Format         string
	Columns        []string
	// Request is the selection as JSON (a Selection).
	Request     json.RawMessage
	Email       string
	EmailStatus string
	Status      string
	// PostCount is the count the request reserved against the daily quota until the file is
	// written, then the number of posts in it.
	PostCount  int
	Error      string
	CreatedAt  time.Time
	FinishedAt time.Time // zero until ready or failed
	ExpiresAt  time.Time
	// File is the file's name in the exports directory, once ready.
	File string
}

// Selection is what to export: chosen matches, the inbox under filters, or a Beacon search.
type Selection struct {
	MatchIDs []int64             `json:"matchIds,omitempty"`
	Filters  *monitor.MatchQuery `json:"filters,omitempty"`
	Category provider.Category   `json:"category,omitempty"`
	Search   *search.Request     `json:"search,omitempty"`
	// TranslateTo is the language of the translatedText column (en when empty, the spec's
	// default target); the app sends the browser's, as its post cards translate into.
	TranslateTo string `json:"translateTo,omitempty"`
}

// Input is a request as the API decoded it.
type Input struct {
	Source string
	Selection
	Columns []string
	Format  string
	Email   string
}

// Quota is the daily allowance the store checks in the transaction that inserts an export.
type Quota struct {
	Limit        int
	Since, Until time.Time
}

// OverQuota is the store's refusal of an export that would pass the quota.
type OverQuota struct{ Remaining int }

func (o *OverQuota) Error() string { return fmt.Sprintf("export: %d posts left today", o.Remaining) }

// Store is the persistence of exports.
type Store interface {
	// CreateExport inserts e unless the posts the user exported (or reserved) within the quota's
	// day plus e.PostCount pass its limit (an *OverQuota then), atomically across nodes.
	CreateExport(ctx context.Context, e Export, q Quota) (Export, error)
	Exports(ctx context.Context, userID int64, since time.Time) ([]Export, error)
	Export(ctx context.Context, id int64) (Export, bool, error)
	// ExportedPosts sums the post counts of the user's exports created in [since, until) that
	// did not fail, except the one given.
	ExportedPosts(ctx context.Context, userID int64, since, until time.Time, except int64) (int, error)
	// ClaimExport marks the oldest pending export, or a running one whose lease ended, as
	// running under claim until leaseUntil; found is false when there is none.
	ClaimExport(ctx context.Context, claim string, now, leaseUntil time.Time) (Export, bool, error)
	RenewExport(ctx context.Context, id int64, claim string, leaseUntil time.Time) (bool, error)
	// ReleaseExport gives a claimed export back to the pending ones.
	ReleaseExport(ctx context.Context, id int64, claim string) error
	// FinishExport records the outcome of a claimed export (status, count, error, finish
	// time, file, e-mail status); held is false when the claim was lost to another worker.
	FinishExport(ctx context.Context, e Export, claim string) (held bool, err error)
	SetExportEmailStatus(ctx context.Context, id int64, status string) error
	ExpiredExports(ctx context.Context, now time.Time) ([]Export, error)
	DeleteExport(ctx context.Context, id int64) error
}

// Users loads who an export's owner is now, so that access lost since the request counts.
type Users interface {
	User(ctx context.Context, id int64) (account.User, error)
	MembershipRole(ctx context.Context, organizationID, userID int64) (account.Role, error)
	// Members are the organization's members, whose addresses an export's link may go to.
	Members(ctx context.Context, organizationID int64) ([]account.Member, error)
}

// Matches reads inbox matches as a user sees them (*monitor.Service).
type Matches interface {
	Inbox(ctx context.Context, actor authz.Actor, q monitor.MatchQuery) ([]monitor.InboxEntry, int64, error)
	CountVisible(ctx context.Context, actor authz.Actor, matchIDs []int64) (int, error)
	EachMatch(ctx context.Context, actor authz.Actor, q monitor.MatchQuery, pageSize int, fn func([]monitor.InboxEntry) error) error
	EachMatchByID(ctx context.Context, actor authz.Actor, matchIDs []int64, pageSize int, fn func([]monitor.InboxEntry) error) error
}

// Beacon runs Beacon searches (*search.Service).
type Beacon interface {
	Search(ctx context.Context, e provider.Entitlements, category provider.Category, r search.Request) (search.Page, error)
	More(ctx context.Context, e provider.Entitlements, category provider.Category, searchID string) (search.Page, error)
}

// Translations finds the translations made before (*translate.Service): an export reads them
// and never calls the translation server, which would take minutes for 50,000 posts.
type Translations interface {
	CachedTexts(ctx context.Context, texts []translate.Text, target string) ([]string, error)
}

// Deps are what the service needs.
type Deps struct {
	Store   Store
	Users   Users
	Matches Matches
	Beacon  Beacon
	// Live pushes export.ready to the owner's browsers.
	Live live.Publisher
	// Mail sends the link when an address was given; nil means e-mail is off.
	Mail mail.Sender
	// MailLimit bounds the e-mails exports send, shared with every other mail path (a limiter
	// of mail.DefaultLimits of its own when nil).
	MailLimit *mail.Limiter
	// Translations fills the translatedText column; nil leaves it empty.
	Translations Translations
	// Dir holds the files (<data dir>/exports); every node must see the same one.
	Dir string
	// PublicURL is the app's address as users reach it, for links in e-mails and events;
	// without it the event's link is app-relative.
	PublicURL string
	Logger    *slog.Logger
	// Now is the clock (time.Now when nil); Lease how long a claim holds without renewal (a
	// minute when 0): a node that stops mid-export delays it by at most that.
	Now   func() time.Time
	Lease time.Duration
}

// Service handles export requests and runs the worker.
type Service struct {
	Deps
	now  func() time.Time
	wake chan struct{}
	// lease is how long a claim holds without renewal; poll how often an idle worker looks for
	// work queued on other nodes.
	lease, poll time.Duration
}

// NewService makes the exports directory and returns the service.
func NewService(d Deps) (*Service, error) {
	if err := os.MkdirAll(d.Dir, 0o750); err != nil {
		return nil, fmt.Errorf("exports directory: %w", err)
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Service{Deps: d, now: d.Now, wake: make(chan struct{}, 1), lease: d.Lease, poll: 5 * time.Second}
	if s.now == nil {
		s.now = time.Now
	}
	if s.lease <= 0 {
		s.lease = time.Minute
	}
	if s.MailLimit == nil {
		s.MailLimit = mail.NewLimiter(mail.Limits{})
	}
	return s, nil
}

// DownloadPath is the app-relative address of an export's file.
func DownloadPath(id int64) string {
	return "/api/v1/exports/" + strconv.FormatInt(id, 10) + "/download"
}

// FileName is the name the browser saves an export under.
func (e Export) FileName() string {
	return fmt.Sprintf("sightline-export-%d.%s", e.ID, e.Format)
}

// day is the UTC day of t as a quota window.
func day(t time.Time) Quota {
	since := t.UTC().Truncate(24 * time.Hour)
	return Quota{Limit: DailyLimit, Since: since, Until: since.Add(24 * time.Hour)}
}

// Request validates an export, counts the posts it selects as the actor sees them and queues it.
func (s *Service) Request(ctx context.Context, actor authz.Actor, in Input) (Export, error) {
	e, err := s.validate(in)
	if err != nil {
		return Export{}, err
	}
	if err := authz.CanExport(actor, e.Source == SourceBeacon); err != nil {
		return Export{}, err
	}
	e.OrganizationID, e.UserID = actor.OrganizationID, actor.UserID
	count, err := s.count(ctx, actor, e.Source, in.Selection)
	if err != nil {
		return Export{}, err
	}
	if count == 0 {
		return Export{}, problem.Invalid(MsgEmpty, nil)
	}
	now := s.now().UTC()
	e.Status, e.PostCount, e.CreatedAt, e.ExpiresAt = StatusPending, count, now, now.Add(Retention)
	if e.Email != "" {
		e.EmailStatus = EmailPending
	}
	if e.Request, err = json.Marshal(in.Selection); err != nil {
		return Export{}, err
	}
	if e.Email != "" {
		if s.Mail == nil {
			return Export{}, problem.InvalidField("email", MsgEmailOff)
		}
		if err := s.mayMail(ctx, actor, e.Email); err != nil {
			return Export{}, err
		}
	}
	created, err := s.Store.CreateExport(ctx, e, day(now))
	if over, ok := err.(*OverQuota); ok {
		return Export{}, problem.Invalid(quotaMessage(count, over.Remaining), nil)
	}
	if err != nil {
		return Export{}, err
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return created, nil
}

// mayMail admits the e-mail of an export's link: to the actor's own address or another member's
// of their organization only (the link opens for its owner alone), and within the e-mail limits.
func (s *Service) mayMail(ctx context.Context, actor authz.Actor, address string) error {
	self, err := s.Users.User(ctx, actor.UserID)
	if err != nil {
		return err
	}
	members, err := s.Users.Members(ctx, actor.OrganizationID)
	if err != nil {
		return err
	}
	if err := authz.CanMailTo("email", address, self.Email, members); err != nil {
		return err
	}
	return s.MailLimit.Take(actor.UserID, actor.OrganizationID)
}

func quotaMessage(asked, remaining int) string {
	msg := "You can export up to 50,000 posts a day. "
	if remaining <= 0 {
		return msg + "You have none left today; the limit resets at 00:00 UTC."
	}
	return msg + fmt.Sprintf("This export has %s posts and you have %s left today: narrow it down, or export the rest after 00:00 UTC.",
		thousands(asked), thousands(remaining))
}

// thousands writes n with comma separators, as the spec writes 50,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// validate checks the request's shape and returns the export it describes.
func (s *Service) validate(in Input) (Export, error) {
	e := Export{Source: in.Source, Format: in.Format, Email: strings.TrimSpace(in.Email)}
	switch in.Source {
	case SourceMatches:
		if in.Search != nil {
			return e, problem.InvalidField("search", "A search goes with the beacon source.")
		}
		if len(in.MatchIDs) > 0 && in.Filters != nil {
			return e, problem.InvalidField("matchIds", "Send either matchIds or filters, not both.")
		}
		if len(in.MatchIDs) > DailyLimit {
			return e, problem.InvalidField("matchIds", "Choose at most 50,000 matches.")
		}
	case SourceBeacon:
		if in.Search == nil {
			return e, problem.InvalidField("search", "The search to export is required.")
		}
		if len(in.MatchIDs) > 0 || in.Filters != nil {
			return e, problem.InvalidField("source", "matchIds and filters go with the matches source.")
		}
	default:
		return e, problem.InvalidField("source", "The source must be matches or beacon.")
	}
	switch in.Format {
	case FormatCSV, FormatJSON:
	case "":
		e.Format = FormatCSV
	default:
		return e, problem.InvalidField("format", "The format must be csv or json.")
	}
	if len(in.Columns) == 0 {
		return e, problem.InvalidField("columns", "Choose at least one column.")
	}
	for _, c := range in.Columns {
		if !slices.Contains(Columns, c) {
			return e, problem.InvalidField("columns", "There is no column "+c+".")
		}
		if in.Source == SourceBeacon && slices.Contains(matchColumns, c) {
			return e, problem.InvalidField("columns", "The "+c+" column is only for inbox matches.")
		}
		if !slices.Contains(e.Columns, c) {
			e.Columns = append(e.Columns, c)
		}
	}
	if e.Email != "" && !validEmail(e.Email) {
		return e, problem.InvalidField("email", MsgInvalidEmail)
	}
	if in.TranslateTo != "" {
		if _, err := translate.TargetLanguage("translateTo", in.TranslateTo); err != nil {
			return e, problem.InvalidField("translateTo", err.Error())
		}
	}
	return e, nil
}

// validEmail accepts a bare address (no display name) with a dot in its domain.
func validEmail(s string) bool {
	a, err := netmail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return false
	}
	_, domain, _ := strings.Cut(s, "@")
	return strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// count is how many posts the selection holds for the actor: exact for matches; for a Beacon
// search, the search's own total (exact up to 1,000 candidates, estimated beyond).
func (s *Service) count(ctx context.Context, actor authz.Actor, source string, sel Selection) (int, error) {
	if source == SourceBeacon {
		page, err := s.Beacon.Search(ctx, entitlements(actor), categoryOf(sel), pageRequest(*sel.Search))
		if err != nil {
			return 0, err
		}
		if page.TotalCount == 0 && page.SearchID != "" {
			// The first page's time ran out before it found anything: there may be posts.
			return 1, nil
		}
		return page.TotalCount, nil
	}
	if sel.Filters == nil && len(sel.MatchIDs) > 0 {
		return s.Matches.CountVisible(ctx, actor, sel.MatchIDs)
	}
	q := monitor.MatchQuery{}
	if sel.Filters != nil {
		q = *sel.Filters
	}
	q.Offset, q.Limit = 0, 0
	_, total, err := s.Matches.Inbox(ctx, actor, q)
	return int(total), err
}

func entitlements(a authz.Actor) provider.Entitlements {
	return provider.Entitlements{Beacon: a.ACL.Beacon, Pro: a.ACL.Pro, Enterprise: a.ACL.Enterprise, Tenant: a.TenantID}
}

func categoryOf(sel Selection) provider.Category {
	if sel.Category == "" {
		return search.All
	}
	return sel.Category
}

// pageRequest is the search with the largest page, so an export takes the fewest pages.
func pageRequest(r search.Request) search.Request {
	r.Size = search.MaxSize
	return r
}

// List is the actor's exports of the last 30 days, newest first.
func (s *Service) List(ctx context.Context, actor authz.Actor) ([]Export, error) {
	if err := authz.CanUseAPI(actor); err != nil {
		return nil, err
	}
	return s.Store.Exports(ctx, actor.UserID, s.now().Add(-Retention))
}

// Open opens a ready export's file for its owner until it expires; anyone else, and an export
// that is not ready, gets not found; its owner after it expired, not found saying so (until the
// sweep deletes the row).
func (s *Service) Open(ctx context.Context, actor authz.Actor, id int64) (*os.File, Export, error) {
	e, found, err := s.Store.Export(ctx, id)
	if err != nil {
		return nil, Export{}, err
	}
	notFound := problem.NotFound("The export was not found.")
	if !found {
		return nil, Export{}, notFound
	}
	if err := authz.CanDownloadExport(actor, authz.ExportFacts{OrganizationID: e.OrganizationID, OwnerID: e.UserID}); err != nil {
		return nil, Export{}, err
	}
	if !s.now().Before(e.ExpiresAt) {
		return nil, Export{}, problem.NotFound(MsgExpired)
	}
	if e.Status != StatusReady || e.File == "" {
		return nil, Export{}, notFound
	}
	f, err := os.Open(filepath.Join(s.Dir, filepath.Base(e.File)))
	if os.IsNotExist(err) {
		return nil, Export{}, notFound
	}
	return f, e, err
}

// Payload is an export as the API sends it.
type Payload struct {
	ID          string   `json:"id"`
	Source      string   `json:"source"`
	Format      string   `json:"format"`
	Columns     []string `json:"columns"`
	Status      string   `json:"status"`
	PostCount   int      `json:"postCount"`
	CreatedAt   int64    `json:"createdAt"`
	FinishedAt  *int64   `json:"finishedAt"`
	ExpiresAt   int64    `json:"expiresAt"`
	Error       string   `json:"error"`
	DownloadURL *string  `json:"downloadUrl"`
	// Email is the address the link goes to ("" for none); EmailStatus says whether it was
	// sent: pending, sent, off (the server has no e-mail), failed, or "" without an address.
	Email       string `json:"email"`
	EmailStatus string `json:"emailStatus"`
}

// Payload is e as its owner sees it.
func (e Export) Payload() Payload {
	p := Payload{ID: strconv.FormatInt(e.ID, 10), Source: e.Source, Format: e.Format, Columns: e.Columns,
		Status: e.Status, PostCount: e.PostCount, CreatedAt: e.CreatedAt.Unix(), ExpiresAt: e.ExpiresAt.Unix(),
		Error: e.Error, Email: e.Email, EmailStatus: e.EmailStatus}
	if p.Columns == nil {
		p.Columns = []string{}
	}
	if !e.FinishedAt.IsZero() {
		at := e.FinishedAt.Unix()
		p.FinishedAt = &at
	}
	if e.Status == StatusReady {
		link := DownloadPath(e.ID)
		p.DownloadURL = &link
	}
	return p
}
