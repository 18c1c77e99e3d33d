package evidence

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sightline/sightline/internal/outbound"
)

// Run runs the node's capture workers until ctx ends, woken by a request on this node and every
// poll interval for those made on other nodes or left by a node that stopped.
func (s *Service) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for range s.Workers {
		wg.Go(func() {
			for {
				worked, err := s.RunOnce(ctx)
				if err != nil && ctx.Err() == nil {
					s.Logger.Error("evidence worker", "err", err)
				}
				if worked && err == nil {
					continue
				}
				select {
				case <-ctx.Done():
					return
				case <-s.wake:
				case <-time.After(s.poll):
				}
			}
		})
	}
	wg.Wait()
}

// RunOnce claims one waiting capture and runs it; worked is false when none was waiting.
func (s *Service) RunOnce(ctx context.Context) (worked bool, err error) {
	raw := make([]byte, 12)
	rand.Read(raw)
	claim := hex.EncodeToString(raw)
	now := s.Now()
	r, found, err := s.Store.ClaimEvidence(ctx, claim, now, now.Add(s.lease))
	if err != nil || !found {
		return false, err
	}
	return true, s.run(ctx, r, claim)
}

func (s *Service) run(ctx context.Context, r Record, claim string) error {
	capture, cancel := context.WithTimeout(ctx, CaptureTimeout)
	defer cancel()
	// When the fetching began: what the record shows was online then.
	r.CapturedAt = s.Now().UTC()
	files, stamps, errs := s.capture(capture, r, claim)
	if ctx.Err() != nil {
		// Stopping: hand the record back so that the next start, or another node, runs it again.
		return s.Store.ReleaseEvidence(context.WithoutCancel(ctx), r.ID, claim)
	}
	r.Errors, r.Progress, r.Step = errs, 100, ""
	r.State = outcome(r.Plan, files, errs)
	held, err := s.Store.FinishEvidence(ctx, r, files, stamps, claim)
	if err != nil || !held {
		return err
	}
	s.publish(ctx, r)
	return nil
}

// outcome is a finished capture's state: done without errors, failed when nothing planned could
// be fetched, partial otherwise.
func outcome(plan Plan, files []File, errs []string) string {
	if len(errs) == 0 {
		return StateDone
	}
	for _, f := range files {
		if f.Name != "capture.json" {
			return StatePartial
		}
	}
	if len(plan.Pages)+len(plan.Media) == 0 {
		return StatePartial
	}
	return StateFailed
}

func (s *Service) publish(ctx context.Context, r Record) {
	if s.Live == nil || r.UserID == 0 {
		return
	}
	u := Updated{ID: strconv.FormatInt(r.ID, 10), State: r.State, Progress: r.Progress, Step: r.Step}
	if err := s.Live.PublishToUser(ctx, r.UserID, EventUpdated, u); err != nil {
		s.Logger.Warn("evidence: live event", "evidence", r.ID, "err", err)
	}
}

// progress records how far the capture got and tells the user.
func (s *Service) progress(ctx context.Context, r *Record, claim string, pct int, step string) {
	r.Progress, r.Step, r.State = pct, step, StateRunning
	if _, err := s.Store.SetEvidenceProgress(ctx, r.ID, claim, pct, step); err != nil {
		s.Logger.Warn("evidence: progress", "evidence", r.ID, "err", err)
	}
	s.publish(ctx, *r)
}

// capture fetches what r plans and returns the files to add (capture.json last), the
// timestamps over the record's SHA256SUMS and what failed.
func (s *Service) capture(ctx context.Context, r Record, claim string) ([]File, []Stamp, []string) {
	var files []File
	var errs []string
	budget := int64(MaxBytes)
	for _, f := range r.Files {
		budget -= f.Size
	}
	keep := func(f File) {
		if f.Size > budget {
			errs = append(errs, fmt.Sprintf("%s: left out, the record would pass %d MiB", f.Name, MaxBytes>>20))
			return
		}
		budget -= f.Size
		files = append(files, f)
	}
	archive := newWARC(s.Now())
	if len(r.Plan.Pages) > 0 {
		s.progress(ctx, &r, claim, 10, "page")
	}
	for _, u := range r.Plan.Pages {
		if err := s.fetchInto(ctx, archive, u); err != nil {
			errs = append(errs, "page "+outbound.RedactURL(u)+": "+err.Error())
		}
	}
	if len(r.Plan.Media) > 0 {
		s.progress(ctx, &r, claim, 30, "media")
	}
	for i, u := range r.Plan.Media {
		ex, err := s.fetch(ctx, u)
		if err != nil {
			errs = append(errs, "media "+outbound.RedactURL(u)+": "+err.Error())
			continue
		}
		archive.add(ex)
		keep(NewFile(fmt.Sprintf("media/%02d%s", i+1, extension(ex)), ex.body))
	}
	if archive.exchanges > 0 {
		keep(NewFile("page.warc", archive.bytes()))
	}
	browsed := false
	if s.Browser != "" && len(r.Plan.Pages) > 0 {
		s.progress(ctx, &r, claim, 50, "browser")
		shot, pdf, err := s.render(ctx, r.Plan.Pages[0])
		if err != nil {
			errs = append(errs, "browser: "+err.Error())
		}
		if len(shot) > 0 {
			keep(NewFile("screenshot.png", shot))
			browsed = true
		}
		if len(pdf) > 0 {
			keep(NewFile("page.pdf", pdf))
		}
	}
	meta := captureDoc{Format: "sightline-capture/1", ID: strconv.FormatInt(r.ID, 10), Kind: r.Kind, Target: r.Target,
		CapturedBy: r.CapturedBy, RequestedAt: r.CreatedAt, CapturedAt: r.CapturedAt, Pages: r.Plan.Pages,
		Media: r.Plan.Media, Browser: browsed, TSA: s.TSA, Errors: errs}
	if meta.Pages == nil {
		meta.Pages = []string{}
	}
	if meta.Media == nil {
		meta.Media = []string{}
	}
	if meta.TSA == nil {
		meta.TSA = []string{}
	}
	if meta.Errors == nil {
		meta.Errors = []string{}
	}
	if r.PreviousID != 0 {
		meta.PreviousID = strconv.FormatInt(r.PreviousID, 10)
	}
	if r.SearchID != 0 {
		meta.SearchID = strconv.FormatInt(r.SearchID, 10)
	}
	doc, _ := json.MarshalIndent(meta, "", "  ")
	files = append(files, NewFile("capture.json", append(doc, '\n')))
	var stamps []Stamp
	if len(s.TSA) > 0 {
		s.progress(ctx, &r, claim, 85, "timestamp")
		var failed []string
		stamps, failed = s.stamp(ctx, Sums(append(append([]File{}, r.Files...), files...)))
		errs = append(errs, failed...)
	}
	return files, stamps, errs
}

// captureDoc is capture.json: who asked, when, what was fetched and what failed, itself
// covered by the hashes and timestamps.
type captureDoc struct {
	Format      string    `json:"format"`
	ID          string    `json:"id"`
	Kind        string    `json:"kind"`
	Target      string    `json:"target"`
	CapturedBy  string    `json:"capturedBy"`
	SearchID    string    `json:"searchId,omitempty"`
	PreviousID  string    `json:"previousId,omitempty"`
	RequestedAt time.Time `json:"requestedAt"`
	CapturedAt  time.Time `json:"capturedAt"`
	Pages       []string  `json:"pages"`
	Media       []string  `json:"media"`
	Browser     bool      `json:"browser"`
	TSA         []string  `json:"timestampAuthorities"`
	Errors      []string  `json:"errors"`
}

// exchange is one request and the reply to it, as the WARC records them.
type exchange struct {
	request  *http.Request
	response *http.Response
	body     []byte
	at       time.Time
}

// errStatus is a reply that is not a success: kept in the WARC, and reported.
type errStatus struct{ code int }

func (e errStatus) Error() string { return "the server answered " + strconv.Itoa(e.code) }

// fetch requests u through the outbound guard and reads the whole reply.
func (s *Service) fetch(ctx context.Context, u string) (exchange, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return exchange{}, errors.New("not a valid address")
	}
	req.Header.Set("User-Agent", "Sightline evidence capture (+https://github.com/sightline/sightline)")
	req.Header.Set("Accept", "*/*")
	at := s.Now().UTC()
	resp, err := s.Fetch.Do(req)
	if err != nil {
		return exchange{}, outbound.RedactError(err)
	}
	defer resp.Body.Close()
	body, err := outbound.ReadAll(resp.Body, outbound.DefaultMaxBytes)
	if err != nil {
		return exchange{}, outbound.RedactError(err)
	}
	ex := exchange{request: resp.Request, response: resp, body: body, at: at}
	if resp.StatusCode >= 400 {
		return ex, errStatus{resp.StatusCode}
	}
	return ex, nil
}

// fetchInto fetches a page into the archive, keeping an error reply too: it is what was online.
func (s *Service) fetchInto(ctx context.Context, a *warcWriter, u string) error {
	ex, err := s.fetch(ctx, u)
	if ex.response != nil {
		a.add(ex)
	}
	return err
}

// extension is a media file's extension, from its type or else its address.
func extension(ex exchange) string {
	if t, _, err := mime.ParseMediaType(ex.response.Header.Get("Content-Type")); err == nil {
		switch t {
		case "image/jpeg":
			return ".jpg"
		case "image/png", "image/gif", "image/webp", "video/mp4", "video/webm":
			return "." + strings.TrimPrefix(strings.TrimPrefix(t, "image/"), "video/")
		}
	}
	if e := path.Ext(ex.request.URL.Path); len(e) > 1 && len(e) <= 5 && !strings.ContainsAny(e, "/\\") {
		return strings.ToLower(e)
	}
	return ".bin"
}
