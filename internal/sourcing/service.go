package sourcing

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
)

// MaxNameLength bounds a source's name.
const MaxNameLength = 100

// Input is a source as an admin writes it; on an edit, nil fields keep their value.
type Input struct {
	Type    *string          `json:"type"`
	Name    *string          `json:"name"`
	Config  *json.RawMessage `json:"config"`
	Enabled *bool            `json:"enabled"`
}

// Service is the sources' domain: every change checked, validated and audited.
type Service struct {
	store       Store
	build       BuildFunc
	interval    IntervalFunc
	changed     func()
	check       CheckFunc
	now         func() time.Time
	testTimeout time.Duration
}

// DefaultTestTimeout bounds a test fetch when Deps gives no bound.
const DefaultTestTimeout = 20 * time.Second

// Deps are what the Service works with; Interval, Changed and Check may be nil.
type Deps struct {
	Store Store
	// Build makes a row's running sources.
	Build BuildFunc
	// Interval is how often a row's source polls, what a gap is measured against.
	Interval IntervalFunc
	// Changed is called after every change, so the manager starts and stops at once.
	Changed func()
	// Check refuses settings a row may not be saved with (waits below their floors).
	Check CheckFunc
	// TestTimeout bounds a test fetch (DefaultTestTimeout when 0).
	TestTimeout time.Duration
}

// NewService manages the rows of d.Store.
func NewService(d Deps) *Service {
	s := &Service{store: d.Store, build: d.Build, interval: d.Interval, changed: d.Changed, check: d.Check, now: time.Now,
		testTimeout: cmp.Or(d.TestTimeout, DefaultTestTimeout)}
	if s.changed == nil {
		s.changed = func() {}
	}
	return s
}

// List returns the tenant's sources with their health.
func (s *Service) List(ctx context.Context, a authz.Actor) ([]View, error) {
	if err := authz.CanManageSources(a, a.TenantID); err != nil {
		return nil, err
	}
	rows, err := s.store.Sources(ctx, a.TenantID)
	if err != nil {
		return nil, err
	}
	now := s.now()
	views := make([]View, 0, len(rows))
	for _, r := range rows {
		views = append(views, s.view(r, now))
	}
	return views, nil
}

// ConnectorStats are the last reported statuses of the tenant's sources, for the ingest stats
// (whichever node runs them), their errors redacted; the caller has checked who may read them.
func (s *Service) ConnectorStats(ctx context.Context, tenantID int64) ([]connector.Stats, error) {
	rows, err := s.store.Sources(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	out := []connector.Stats{}
	for _, r := range rows {
		if !r.Enabled || r.Report.ReportedAt.IsZero() {
			continue
		}
		st := r.Report.Stats
		if st.Source == "" {
			st.Source = r.Type + ":" + r.Name
		}
		if r.Report.BuildError != "" {
			st.LastError, st.LastErrorAt = r.Report.BuildError, r.Report.ReportedAt
		}
		st.LastError, st.LastSkip = connector.RedactText(st.LastError), connector.RedactText(st.LastSkip)
		out = append(out, st)
	}
	return out, nil
}

func (s *Service) view(r Source, now time.Time) View {
	var every time.Duration
	if s.interval != nil {
		every = s.interval(r.Type, r.Config)
	}
	health := Assess(r, every, now)
	r.Config = MaskCredentials(r.Config)
	return View{Source: r, Health: health}
}

// owned returns the tenant's source id; another tenant's does not exist for the caller.
func (s *Service) owned(ctx context.Context, a authz.Actor, id int64) (Source, error) {
	if err := authz.CanManageSources(a, a.TenantID); err != nil {
		return Source{}, err
	}
	r, err := s.store.Source(ctx, id)
	if err != nil || r.TenantID != a.TenantID {
		return Source{}, problem.NotFound("The source was not found.")
	}
	return r, nil
}

// Get returns one of the tenant's sources.
func (s *Service) Get(ctx context.Context, a authz.Actor, id int64) (View, error) {
	r, err := s.owned(ctx, a, id)
	if err != nil {
		return View{}, err
	}
	return s.view(r, s.now()), nil
}

// Create adds a source; enabled unless the input says otherwise.
func (s *Service) Create(ctx context.Context, a authz.Actor, in Input) (View, error) {
	if err := authz.CanManageSources(a, a.TenantID); err != nil {
		return View{}, err
	}
	r := Source{TenantID: a.TenantID, Enabled: true, Config: json.RawMessage(`{}`)}
	if in.Type == nil || strings.TrimSpace(*in.Type) == "" {
		return View{}, problem.InvalidField("type", "Choose the type of source.")
	}
	apply(&r, in)
	if err := s.validate(r); err != nil {
		return View{}, err
	}
	now := s.now().UTC()
	r.CreatedAt, r.UpdatedAt = now, now
	if err := s.store.CreateSource(ctx, &r, auditEntry(a, 0, "created", "", describe(r))); errors.Is(err, ErrSourceLimitReached) {
		return View{}, problem.LimitExceeded(MsgSourceLimitTitle, MsgSourceLimitDescription)
	} else if err != nil {
		return View{}, nameTaken(err, r.Name)
	}
	s.changed()
	return s.view(r, now), nil
}

// Update edits a source: an edited or newly enabled source fetches at once.
func (s *Service) Update(ctx context.Context, a authz.Actor, id int64, in Input) (View, error) {
	r, err := s.owned(ctx, a, id)
	if err != nil {
		return View{}, err
	}
	before := r
	apply(&r, in)
	if err := s.validate(r); err != nil {
		return View{}, err
	}
	r.UpdatedAt = s.now().UTC()
	if !r.UpdatedAt.After(before.UpdatedAt) {
		r.UpdatedAt = before.UpdatedAt.Add(time.Millisecond)
	}
	action := "updated"
	if before.Enabled != r.Enabled && in.Type == nil && in.Name == nil && in.Config == nil {
		action = map[bool]string{true: "enabled", false: "disabled"}[r.Enabled]
	}
	if err := s.store.UpdateSource(ctx, r, auditEntry(a, r.ID, action, describe(before), describe(r))); err != nil {
		return View{}, nameTaken(err, r.Name)
	}
	s.changed()
	return s.view(r, s.now()), nil
}

// Delete removes a source; it stops at once on this node, within a tick on another.
func (s *Service) Delete(ctx context.Context, a authz.Actor, id int64) error {
	r, err := s.owned(ctx, a, id)
	if err != nil {
		return err
	}
	if err := s.store.DeleteSource(ctx, id, auditEntry(a, r.ID, "deleted", describe(r), "")); err != nil {
		return err
	}
	s.changed()
	return nil
}

// Preview is what a test fetch found: the posts that would be stored, or why none.
type Preview struct {
	OK    bool        `json:"ok"`
	Error string      `json:"error,omitempty"`
	Items []post.Post `json:"items"`
}

// TestPanicMessage is a test fetch's error when the source panicked.
const TestPanicMessage = "The test fetch stopped on an internal error (the server's log has the details)."

// maxPreview bounds the posts a test fetch returns.
const maxPreview = 20

// Test fetches a source once, from no cursor, and returns what it would store; nothing is
// stored. With id, the saved source is tested with in's changes over it.
func (s *Service) Test(ctx context.Context, a authz.Actor, id int64, in Input) (Preview, error) {
	r := Source{TenantID: a.TenantID, Enabled: true, Config: json.RawMessage(`{}`), Name: "test"}
	if id != 0 {
		var err error
		if r, err = s.owned(ctx, a, id); err != nil {
			return Preview{}, err
		}
	} else if err := authz.CanManageSources(a, a.TenantID); err != nil {
		return Preview{}, err
	}
	if id == 0 && (in.Type == nil || strings.TrimSpace(*in.Type) == "") {
		return Preview{}, problem.InvalidField("type", "Choose the type of source.")
	}
	apply(&r, in)
	if strings.TrimSpace(r.Name) == "" {
		r.Name = "test"
	}
	srcs, err := s.build(r, noCursors{}, "test:")
	if err != nil {
		return Preview{}, invalid(err)
	}
	return fetchOnce(ctx, supervise(srcs), s.testTimeout), nil
}

// fetchOnce runs the sources until each has finished a round (or maxPreview posts arrived, or
// timeout), collecting what they emit.
func fetchOnce(ctx context.Context, srcs []connector.Source, timeout time.Duration) Preview {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var mu sync.Mutex
	items := []post.Post{}
	full := make(chan struct{})
	emit := func(ctx context.Context, p post.Post) error {
		mu.Lock()
		defer mu.Unlock()
		if len(items) < maxPreview {
			items = append(items, p)
			if len(items) == maxPreview {
				close(full)
			}
		}
		return nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = Run(ctx, srcs, emit)
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var quietSince time.Time
	lastCount := int64(-1)
	preview := Preview{}
wait:
	for {
		select {
		case <-ctx.Done():
			break wait
		case <-full:
			break wait
		case <-tick.C:
		}
		st := total(srcs)
		if st.Failures > 0 {
			preview.Error = st.LastError
			if preview.Error == connector.PanicMessage {
				preview.Error = TestPanicMessage
			}
			break
		}
		if st.Count != lastCount {
			lastCount, quietSince = st.Count, time.Now()
			continue
		}
		// A round finished: a success recorded and nothing more emitted for a moment.
		if !st.LastSuccess.IsZero() && time.Since(quietSince) > 300*time.Millisecond {
			break
		}
	}
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	preview.Items = items
	preview.OK = preview.Error == ""
	if preview.OK && len(items) == 0 && total(srcs).LastSuccess.IsZero() {
		preview.OK, preview.Error = false, "The source answered nothing within "+timeout.String()+"."
	}
	return preview
}

// Run runs every source until ctx ends.
func Run(ctx context.Context, srcs []connector.Source, emit connector.EmitFunc) error {
	var wg sync.WaitGroup
	errs := make([]error, len(srcs))
	for i, src := range srcs {
		wg.Go(func() { errs[i] = src.Run(ctx, emit) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// supervise runs each source under connector.Supervise: one that panics reports a generic
// error and restarts after a backoff, and neither the others nor the process stop.
func supervise(srcs []connector.Source) []connector.Source {
	out := make([]connector.Source, len(srcs))
	for i, src := range srcs {
		out[i] = connector.Supervise(src)
	}
	return out
}

// total sums the statuses of a row's sources (usually one).
func total(srcs []connector.Source) connector.Stats {
	var t connector.Stats
	for _, src := range srcs {
		r, ok := src.(connector.Reporter)
		if !ok {
			continue
		}
		st := r.Stats()
		if t.Source == "" {
			t.Source = st.Source
		}
		t.Count += st.Count
		t.Skipped += st.Skipped
		t.Retries += st.Retries
		if st.LastSkip != "" {
			t.LastSkip = st.LastSkip
		}
		if st.LastSuccess.After(t.LastSuccess) {
			t.LastSuccess = st.LastSuccess
		}
		if st.LastErrorAt.After(t.LastErrorAt) {
			t.LastErrorAt, t.LastError = st.LastErrorAt, st.LastError
		}
		if st.Failures > t.Failures {
			t.Failures, t.Unreachable = st.Failures, st.Unreachable
		}
		if st.NewestPublished.After(t.NewestPublished) {
			t.NewestPublished = st.NewestPublished
		}
		t.LagSeconds = max(t.LagSeconds, st.LagSeconds)
	}
	return t
}

// noCursors starts every source from nothing and keeps nothing: a test fetch leaves no trace.
type noCursors struct{}

func (noCursors) Load(context.Context, string) (string, error) { return "", nil }
func (noCursors) Save(context.Context, string, string) error   { return nil }

func apply(r *Source, in Input) {
	if in.Type != nil {
		r.Type = strings.TrimSpace(*in.Type)
	}
	if in.Name != nil {
		r.Name = strings.TrimSpace(*in.Name)
	}
	if in.Config != nil {
		r.Config = KeepCredentials(*in.Config, r.Config)
	}
	if in.Enabled != nil {
		r.Enabled = *in.Enabled
	}
}

func (s *Service) validate(r Source) error {
	if r.Name == "" {
		return problem.InvalidField("name", "Give the source a name.")
	}
	if utf8.RuneCountInString(r.Name) > MaxNameLength {
		return problem.InvalidField("name", "A source's name has at most "+strconv.Itoa(MaxNameLength)+" characters.")
	}
	if _, err := s.build(r, noCursors{}, "validate:"); err != nil {
		return invalid(err)
	}
	if s.check != nil {
		if err := s.check(r.Type, r.Config); err != nil {
			return invalid(err)
		}
	}
	return nil
}

// invalid turns a build error into a 422 naming the field at fault.
func invalid(err error) error {
	var fe interface{ SettingsField() string }
	if errors.As(err, &fe) {
		return problem.InvalidField(fe.SettingsField(), err.Error())
	}
	if _, ok := problem.As(err); ok {
		return err
	}
	return problem.InvalidField("config", err.Error())
}

func nameTaken(err error, name string) error {
	if problem.Is(err, problem.KindConflict) {
		return problem.InvalidField("name", "A source named "+strconv.Quote(name)+" exists already.")
	}
	return err
}

func describe(r Source) string {
	b, _ := json.Marshal(map[string]any{"type": r.Type, "name": r.Name, "config": MaskCredentials(r.Config), "enabled": r.Enabled})
	return string(b)
}

// auditEntry is the audit entry of a change to a source; id 0 leaves the ModelID to the store
// (the source created).
func auditEntry(a authz.Actor, id int64, action, prev, next string) account.AuditEntry {
	e := account.AuditEntry{TenantID: a.TenantID, OrganizationID: a.OrganizationID, UserID: a.UserID,
		Model: "source", Action: action, PreviousValue: prev, NewValue: next}
	if id != 0 {
		e.ModelID = strconv.FormatInt(id, 10)
	}
	return e
}

// Seed creates the seeds for the tenant once; later starts leave the rows as operators left
// them. Seeds that cannot run are skipped with their error.
func (s *Service) Seed(ctx context.Context, tenantID int64, seeds []Seed) (bool, error) {
	var good []Seed
	var errs []error
	for _, sd := range seeds {
		if _, err := s.build(Source{Type: sd.Type, Name: sd.Name, Config: sd.Config}, noCursors{}, "validate:"); err != nil {
			errs = append(errs, errors.New(sd.Name+": "+err.Error()))
			continue
		}
		good = append(good, sd)
	}
	seeded, err := s.store.SeedSources(ctx, tenantID, good, s.now())
	return seeded, errors.Join(append(errs, err)...)
}
