package bench

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/evidence"
	"github.com/sightline/sightline/internal/evidence/evidencetest"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/story"
)

// Targets of issue 32: a capture's p95, from the request to the finished record.
const (
	EvidencePlainTarget   = 15 * time.Second
	EvidenceBrowserTarget = 120 * time.Second
)

// EvidenceConfig sizes `sightline bench evidence`.
type EvidenceConfig struct {
	// Plain is how many captures without the browser, Browser how many with it (none when
	// the machine has no Chromium).
	Plain, Browser int
	// DB is a postgres:// URL; "" uses SQLite in a temporary directory.
	DB string
}

// EvidenceResult is what the benchmark measured.
type EvidenceResult struct {
	Store string `json:"store"`
	// Plain and WithBrowser are the captures' durations, milliseconds, request to finished
	// record; Ratio is p95 over the target (below 1 meets it).
	Plain       Latency `json:"plain"`
	WithBrowser Latency `json:"withBrowser"`
	BrowserPath string  `json:"browserPath"`
	// Verified is how many of the bundles `evidence verify` passed (every capture's).
	Verified int `json:"verified"`
	// Files and Bytes are the average record's.
	Files int   `json:"filesPerRecord"`
	Bytes int64 `json:"bytesPerRecord"`
}

// Latency is a set of durations' summary.
type Latency struct {
	Count  int     `json:"count"`
	P50    float64 `json:"p50Ms"`
	P95    float64 `json:"p95Ms"`
	Max    float64 `json:"maxMs"`
	Target float64 `json:"targetMs"`
	Ratio  float64 `json:"p95OverTarget"`
}

func latency(samples []float64, target time.Duration) Latency {
	if len(samples) == 0 {
		return Latency{Target: millis(target)}
	}
	p50, _, highest := percentiles(samples)
	p95 := percentile(samples, 95)
	return Latency{Count: len(samples), P50: p50, P95: p95, Max: highest, Target: millis(target), Ratio: p95 / millis(target)}
}

// Evidence captures a post of a local site (a page with a stylesheet and a picture, and the
// post's picture) through the whole service: the request, the worker's fetch through the
// outbound guard, the WARC, the hashes, a local RFC 3161 authority and the store; then with
// headless Chromium for the screenshot and PDF. Each bundle is verified.
func Evidence(cfg EvidenceConfig) (EvidenceResult, error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "sightline-bench-evidence-")
	if err != nil {
		return EvidenceResult{}, err
	}
	defer os.RemoveAll(dir)
	s, err := server.OpenStore(ctx, server.Config{DataDir: dir, DB: cfg.DB})
	if err != nil {
		return EvidenceResult{}, err
	}
	defer s.Close()
	res := EvidenceResult{Store: string(s.Dialect())}
	email := fmt.Sprintf("bench-%d@evidence.test", time.Now().UnixNano())
	u, err := account.NewService(s).CreateUser(ctx, account.NewUser{Organization: "Bench " + email, Email: email,
		Password: "bench-password-1", Role: account.RoleOwner})
	if err != nil {
		return res, err
	}
	actor := auth.Identity{User: u, Role: account.RoleOwner}.Actor()
	site := evidencetest.NewSite()
	defer site.Close()
	tsa, err := evidencetest.NewTSA()
	if err != nil {
		return res, err
	}
	defer tsa.Close()
	svc := evidence.NewService(evidence.Deps{Store: s, Posts: s, Matches: monitor.NewService(monitor.Deps{Store: s, Inbox: s}),
		Stories: story.NewService(s), Users: s, Fetch: outbound.New(outbound.Options{AllowPrivate: true,
			Logger: slog.New(slog.DiscardHandler)}), TSA: []string{tsa.URL}})
	run := func(n int, browser string) ([]float64, error) {
		svc.Browser = browser
		var samples []float64
		for i := range n {
			start := time.Now()
			r, err := svc.Request(ctx, actor, evidence.Input{URL: fmt.Sprintf("%s/post/%d", site.URL, i)})
			if err != nil {
				return nil, err
			}
			if _, err := svc.RunOnce(ctx); err != nil {
				return nil, err
			}
			samples = append(samples, millis(time.Since(start)))
			id := r.Payload().ID
			got, err := svc.Get(ctx, actor, id)
			if err != nil {
				return nil, err
			}
			if got.State != evidence.StateDone {
				return nil, fmt.Errorf("capture %s: %s %v", id, got.State, got.Errors)
			}
			var buf bytes.Buffer
			if err := svc.WriteBundle(ctx, actor, id, &buf); err != nil {
				return nil, err
			}
			zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			if err != nil {
				return nil, err
			}
			if !evidence.Verify(zr, nil).OK() {
				return nil, fmt.Errorf("capture %s does not verify", id)
			}
			res.Verified++
			res.Files = len(got.Files)
			res.Bytes = 0
			for _, f := range got.Files {
				res.Bytes += f.Size
			}
		}
		return samples, nil
	}
	plain, err := run(cfg.Plain, "")
	if err != nil {
		return res, err
	}
	res.Plain = latency(plain, EvidencePlainTarget)
	if res.BrowserPath = evidence.FindBrowser(); res.BrowserPath != "" && cfg.Browser > 0 {
		withBrowser, err := run(cfg.Browser, res.BrowserPath)
		if err != nil {
			return res, err
		}
		res.WithBrowser = latency(withBrowser, EvidenceBrowserTarget)
	} else {
		res.WithBrowser = latency(nil, EvidenceBrowserTarget)
	}
	return res, nil
}

// WriteText prints the result for people.
func (r EvidenceResult) WriteText(w io.Writer) {
	fmt.Fprintf(w, "evidence capture on %s (local site, local RFC 3161 authority; every bundle verified: %d)\n", r.Store, r.Verified)
	line := func(name string, l Latency) {
		if l.Count == 0 {
			fmt.Fprintf(w, "  %-13s not measured (no Chromium on this machine, or none asked for)\n", name)
			return
		}
		fmt.Fprintf(w, "  %-13s %d captures: p50 %.0f ms, p95 %.0f ms, max %.0f ms; p95 is %.4f of the %.0f s target\n",
			name, l.Count, l.P50, l.P95, l.Max, l.Ratio, l.Target/1000)
	}
	line("plain page", r.Plain)
	line("with browser", r.WithBrowser)
	fmt.Fprintf(w, "  last record: %d files, %d bytes\n", r.Files, r.Bytes)
}
