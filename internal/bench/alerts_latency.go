package bench

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/sightline/sightline/internal/alerts/channel/webhook"
	"github.com/sightline/sightline/internal/connector/simulator"
	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/server"
)

// LatencyResult is the time from a post's ingest to the notification that tells of it, at a
// webhook receiver and at an SMTP server, for immediate alerts grouped by story.
type LatencyResult struct {
	Searches     int     `json:"searches"`
	Rate         int     `json:"offered_posts_per_sec"`
	Posts        int     `json:"posts"`
	Webhooks     int     `json:"webhooks"`
	WebhookP50ms float64 `json:"ingest_to_webhook_p50_ms"`
	WebhookP99ms float64 `json:"ingest_to_webhook_p99_ms"`
	Mails        int     `json:"mails"`
	MailP50ms    float64 `json:"ingest_to_smtp_p50_ms"`
	MailP99ms    float64 `json:"ingest_to_smtp_p99_ms"`
}

// simID finds the simulator's post ids (their native ids, in every post link) in a message.
var simID = regexp.MustCompile(`sim-[0-9a-z]+-[0-9]+`)

// offered is when each post was offered to the node, by its native id.
type offered struct {
	mu sync.Mutex
	at map[string]time.Time
}

// newest is when the newest of the posts named in body was offered (zero: none is).
func (o *offered) newest(body string) time.Time {
	o.mu.Lock()
	defer o.mu.Unlock()
	var newest time.Time
	for _, id := range simID.FindAllString(body, -1) {
		if t, ok := o.at[id]; ok && t.After(newest) {
			newest = t
		}
	}
	return newest
}

// arrivals keeps the latencies of the messages that arrived at one receiver.
type arrivals struct {
	posts     *offered
	mu        sync.Mutex
	latencies []float64
}

// arrived records a message's latency: from the ingest of the newest post it names.
func (a *arrivals) arrived(body string, at time.Time) {
	newest := a.posts.newest(body)
	a.mu.Lock()
	defer a.mu.Unlock()
	if !newest.IsZero() {
		a.latencies = append(a.latencies, float64(at.Sub(newest).Microseconds())/1000)
	}
}

func (a *arrivals) figures() (int, float64, float64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	p50, p99, _ := percentiles(a.latencies)
	return len(a.latencies), p50, p99
}

// smtpSink is an SMTP server on loopback that records each message's arrival.
type smtpSink struct{ a *arrivals }

func (s smtpSink) NewSession(*smtp.Conn) (smtp.Session, error) { return sinkSession(s), nil }

type sinkSession struct{ a *arrivals }

func (sinkSession) Mail(string, *smtp.MailOptions) error { return nil }
func (sinkSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s sinkSession) Data(r io.Reader) error {
	body, err := io.ReadAll(r)
	at := time.Now()
	// Quoted-printable breaks long lines with "=" and a line end; the ids hold no "=".
	s.a.arrived(strings.NewReplacer("=\r\n", "", "=\n", "").Replace(string(body)), at)
	return err
}
func (sinkSession) Reset()        {}
func (sinkSession) Logout() error { return nil }

// alertLatency runs a whole node whose searches each have a webhook and an e-mail alert
// grouped by story, offers it posts at a steady rate and times the notifications.
func alertLatency(cfg AlertsConfig, searches []percolate.SavedSearch) (LatencyResult, error) {
	res := LatencyResult{Searches: len(searches), Rate: cfg.LatencyRate}
	dir, err := os.MkdirTemp("", "sightline-bench-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	posts := &offered{at: map[string]time.Time{}}
	hooks, mails := &arrivals{posts: posts}, &arrivals{posts: posts}
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		hooks.arrived(string(body), time.Now())
	}))
	defer receiver.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return res, err
	}
	sink := smtp.NewServer(smtpSink{a: mails})
	sink.Domain, sink.AllowInsecureAuth = "localhost", true
	go sink.Serve(ln)
	defer sink.Close()

	node, stop, err := startNodeWith(dir, "", func(c *server.Config) {
		c.SMTPURL, c.MailFrom = "smtp://"+ln.Addr().String(), "Sightline <alerts@bench.example>"
		c.AllowPrivateWebhooks = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	})
	if err != nil {
		return res, err
	}
	defer stop()
	ctx := context.Background()
	owner, err := node.Store.UserByEmail(ctx, benchAdmin)
	if err != nil {
		return res, err
	}
	key := make([]byte, 32)
	rand.Read(key)
	if err := node.Store.SetWebhookSecret(ctx, owner.OrganizationID, webhook.SecretPrefix+base64.StdEncoding.EncodeToString(key)); err != nil {
		return res, err
	}
	setUp := time.Now().Add(-time.Minute).Unix()
	settings, err := json.Marshal([]monitor.NotificationSetting{
		{Type: monitor.AlertWebhook, Grouping: monitor.GroupingStory, LastUpdatedAt: &setUp,
			Destinations: []monitor.Destination{{Type: "webhook", Address: receiver.URL + "/hook"}}},
		{Type: monitor.AlertBatch, Interval: 60, Grouping: monitor.GroupingStory, LastUpdatedAt: &setUp,
			Destinations: []monitor.Destination{{Type: "email", Address: benchAdmin}}},
	})
	if err != nil {
		return res, err
	}
	if err := saveSearchesWith(ctx, node, owner, searches, settings); err != nil {
		return res, err
	}

	gen := simulator.NewGenerator(cfg.Seed + 100)
	const tick = 50 * time.Millisecond
	perTick := max(1, cfg.LatencyRate*int(tick)/int(time.Second))
	total := int(cfg.LatencySeconds * float64(cfg.LatencyRate))
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	for i := 0; i < total; i += perTick {
		<-ticker.C
		items := make([]ingest.Item, 0, perTick)
		t := time.Now()
		posts.mu.Lock()
		for j := i; j < min(i+perTick, total); j++ {
			p := gen.Next(t)
			posts.at[p.NativeID] = t
			items = append(items, ingest.Item{Line: j + 1, Post: p})
		}
		posts.mu.Unlock()
		go node.Ingest.Accept(ctx, items)
		if cfg.Progress != nil && i%(cfg.LatencyRate*5) < perTick {
			n, _, _ := hooks.figures()
			fmt.Fprintf(cfg.Progress, "\roffered %d of %d posts; %d webhooks", i, total, n)
		}
	}
	time.Sleep(8 * time.Second) // the last notices: settle, collect, send
	if cfg.Progress != nil {
		fmt.Fprintln(cfg.Progress)
	}
	res.Posts = total
	res.Webhooks, res.WebhookP50ms, res.WebhookP99ms = hooks.figures()
	res.Mails, res.MailP50ms, res.MailP99ms = mails.figures()
	return res, nil
}
