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
	browserRecords := 0
	// A first page that is a stream's playlist has nothing for the browser to draw.
	streamPage := false
	if len(r.Plan.Pages) > 0 {
		s.progress(ctx, &r, claim, 10, "page")
	}
	streams := &streamBudget{files: s.limits.streamFiles, bytes: s.limits.streamBytes}
	// follow keeps a playlist or manifest (a page's or a medium's) and what it names.
	follow := func(ex exchange, name string) {
		keep(NewFile(name+extension(ex), ex.body))
		more, failed := s.followStream(ctx, archive, ex, name, name, streams)
		for _, f := range more {
			keep(f)
		}
		errs = append(errs, failed...)
	}
	for i, u := range r.Plan.Pages {
		ex, err := s.fetch(ctx, u)
		if ex.response != nil {
			// An error reply is kept: it is what was online.
			archive.add(ex)
		}
		if err != nil {
			errs = append(errs, "page "+outbound.RedactURL(u)+": "+err.Error())
			continue
		}
		if streamKind(ex) != "" {
			follow(ex, fmt.Sprintf("page/%02d", i+1))
			if i == 0 {
				streamPage = true
			}
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
		if streamKind(ex) != "" {
			follow(ex, fmt.Sprintf("media/%02d", i+1))
			continue
		}
		keep(NewFile(fmt.Sprintf("media/%02d%s", i+1, extension(ex)), ex.body))
	}
	browsed := false
	if s.Browser != "" && len(r.Plan.Pages) > 0 && !streamPage {
		s.progress(ctx, &r, claim, 50, "browser")
		page, err := s.render(ctx, r.Plan.Pages[0], budget-int64(archive.size()))
		if err != nil {
			errs = append(errs, "browser: "+err.Error())
		}
		if len(page.shot) > 0 {
			keep(NewFile("screenshot.png", page.shot))
			browsed = true
		}
		if len(page.pdf) > 0 {
			keep(NewFile("page.pdf", page.pdf))
		}
		// The browser's requests follow the fetches in the WARC, as long as the record has room.
		leftOut, leftOutBytes := page.leftOut, page.leftOutBytes
		for i, ex := range page.exchanges {
			if !archive.addWithin(ex, budget) {
				for _, rest := range page.exchanges[i:] {
					leftOut++
					leftOutBytes += int64(len(rest.body))
				}
				break
			}
			browserRecords++
		}
		if leftOut > 0 {
			errs = append(errs, fmt.Sprintf("browser: %d of the page's requests (%d KiB) are not in the WARC: past %d requests, %d KiB, or the record's %d MiB",
				leftOut, (leftOutBytes+1023)>>10, s.limits.browserRecords, s.limits.browserBytes>>10, MaxBytes>>20))
		}
	}
	if archive.exchanges > 0 {
		keep(NewFile("page.warc", archive.bytes()))
	}
	meta := captureDoc{Format: "sightline-capture/1", ID: strconv.FormatInt(r.ID, 10), Kind: r.Kind, Target: r.Target,
		CapturedBy: r.CapturedBy, RequestedAt: r.CreatedAt, CapturedAt: r.CapturedAt, Pages: r.Plan.Pages,
		Media: r.Plan.Media, Browser: browsed, BrowserRequests: browserRecords, TSA: s.TSA, Errors: errs}
	if !browsed && s.Browser == "" && len(r.Plan.Pages) > 0 && !streamPage {
		meta.NoBrowser = MsgNoBrowser
	}
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
	// BrowserRequests is how many of the browser's requests the WARC records, after the fetches.
	BrowserRequests int `json:"browserRequests"`
	// NoBrowser says the server ran no browser, so there is no screenshot or PDF.
	NoBrowser string   `json:"noBrowser,omitempty"`
	TSA       []string `json:"timestampAuthorities"`
	Errors    []string `json:"errors"`
}

// exchange is one request and the reply to it, as the WARC records them; via are the
// redirects that led to it, in order, each an exchange of its own.
type exchange struct {
	request  *http.Request
	response *http.Response
	body     []byte
	at       time.Time
	via      []exchange
}

// errStatus is a reply that is not a success: kept in the WARC, and reported.
type errStatus struct{ code int }

func (e errStatus) Error() string { return "the server answered " + strconv.Itoa(e.code) }

// errRedirects is a chain of redirects longer than the guard follows.
var errRedirects = fmt.Errorf("more than %d redirects", outbound.DefaultMaxRedirects)

// userAgent is what every request of a capture says it is.
const userAgent = "Sightline evidence capture (+https://github.com/sightline/sightline)"

// fetch requests u through the outbound guard, following redirects itself so that each hop is
// an exchange (the returned exchange's via), and reads the whole reply.
func (s *Service) fetch(ctx context.Context, u string) (exchange, error) {
	var via []exchange
	for {
		ex, err := s.fetchOne(ctx, u)
		if ex.response == nil {
			if len(via) > 0 {
				// The last redirect is the reply that was read: the chain stays in the WARC.
				last := via[len(via)-1]
				last.via = via[:len(via)-1]
				return last, fmt.Errorf("the redirect to %s: %w", outbound.RedactURL(u), err)
			}
			return ex, err
		}
		next := redirectTarget(ex)
		if next == "" {
			ex.via = via
			return ex, err
		}
		if len(via) == outbound.DefaultMaxRedirects {
			ex.via = via
			return ex, errRedirects
		}
		via = append(via, ex)
		u = next
	}
}

// redirectTarget is where a redirect reply sends the client (as Go's client follows them), or
// "" when ex is not one.
func redirectTarget(ex exchange) string {
	switch ex.response.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
	default:
		return ""
	}
	loc := ex.response.Header.Get("Location")
	if loc == "" {
		return ""
	}
	next, err := ex.request.URL.Parse(loc)
	if err != nil {
		return ""
	}
	next.Fragment = ""
	return next.String()
}

// fetchOne sends one GET through the outbound guard, which checks its address, without
// following a redirect, and reads the whole reply. An error reply comes with its exchange.
func (s *Service) fetchOne(ctx context.Context, u string) (exchange, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return exchange{}, errors.New("not a valid address")
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "*/*")
	client := *s.Fetch.HTTP()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	at := s.Now().UTC()
	resp, err := client.Do(req)
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

// extension is a media file's extension, from its type or else its address.
func extension(ex exchange) string {
	if t, _, err := mime.ParseMediaType(ex.response.Header.Get("Content-Type")); err == nil {
		switch t {
		case "image/jpeg":
			return ".jpg"
		case "image/png", "image/gif", "image/webp", "video/mp4", "video/webm":
			return "." + strings.TrimPrefix(strings.TrimPrefix(t, "image/"), "video/")
		case "application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl", "audio/x-mpegurl":
			return ".m3u8"
		case "application/dash+xml":
			return ".mpd"
		case "video/mp2t":
			return ".ts"
		}
	}
	if e := path.Ext(ex.request.URL.Path); len(e) > 1 && len(e) <= 5 && !strings.ContainsAny(e, "/\\") {
		return strings.ToLower(e)
	}
	return ".bin"
}
