package assistant

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
)

// Limits bound the assistant's work (questions and analyses together) on this node, on top of
// the per-user search limit the API applies to both.
type Limits struct {
	// OrgPerHour is each organization's quota: a bucket of that many refilled over an hour
	// (0: DefaultOrgPerHour; negative: no quota).
	OrgPerHour int
	// Concurrent is how many questions and analyses the node works on at once: retrieval and
	// the engine, which is a language model server's call or the embedded engine's CPU
	// (0: DefaultLLMConcurrent with a language model, else the number of cores).
	Concurrent int
	// Wait is how long a request waits for a free place before it is refused (0: DefaultWait).
	Wait time.Duration
}

// Defaults: 600 questions and analyses an hour per organization; 4 language-model calls at once
// per node (a model server answers a few at a time; more only queue there); a 10-second wait.
const (
	DefaultOrgPerHour    = 600
	DefaultLLMConcurrent = 4
	DefaultWait          = 10 * time.Second
)

// Messages of a refusal (429 with Retry-After).
const (
	MsgBusy  = "The assistant is busy. Try again in a moment."
	MsgQuota = "Your organization has used its assistant questions for this hour. Try again in %d minutes."
)

// busyRetry is the Retry-After of MsgBusy.
const busyRetry = 5 * time.Second

// limiter holds the quota buckets and the places of work.
type limiter struct {
	perHour int
	wait    time.Duration
	places  chan struct{}
	mu      sync.Mutex
	orgs    map[int64]*rate.Limiter
	now     func() time.Time
}

func newLimiter(l Limits, engine Engine) *limiter {
	if l.OrgPerHour == 0 {
		l.OrgPerHour = DefaultOrgPerHour
	}
	if l.Concurrent <= 0 {
		l.Concurrent = runtime.NumCPU()
		if engine.Model() != ExtractiveModel {
			l.Concurrent = DefaultLLMConcurrent
		}
	}
	if l.Wait <= 0 {
		l.Wait = DefaultWait
	}
	return &limiter{perHour: l.OrgPerHour, wait: l.Wait, places: make(chan struct{}, l.Concurrent),
		orgs: map[int64]*rate.Limiter{}, now: time.Now}
}

// begin takes a place of work, waiting up to the limiter's wait (or, with wait false, as long
// as ctx lets it: background work such as alerts' summaries queues instead of failing). The
// returned func gives it back.
func (l *limiter) begin(ctx context.Context, bounded bool) (func(), error) {
	select {
	case l.places <- struct{}{}:
		return func() { <-l.places }, nil
	default:
	}
	var timeout <-chan time.Time
	if bounded {
		t := time.NewTimer(l.wait)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case l.places <- struct{}{}:
		return func() { <-l.places }, nil
	case <-timeout:
		return nil, problem.RateLimited(MsgBusy, busyRetry)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// charge takes one question or analysis from the organization's quota, or refuses it without
// taking anything.
func (l *limiter) charge(organizationID int64) error {
	if l.perHour < 0 {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.orgs[organizationID]
	if b == nil {
		b = rate.NewLimiter(rate.Limit(float64(l.perHour)/3600), l.perHour)
		l.orgs[organizationID] = b
	}
	if missing := 1 - b.TokensAt(now); missing > 0 {
		wait := time.Duration(math.Ceil(missing/float64(b.Limit()))) * time.Second
		return problem.RateLimited(fmt.Sprintf(MsgQuota, int(math.Ceil(wait.Minutes()))), wait)
	}
	b.AllowN(now, 1)
	return nil
}

// boundEngine is the engine for work outside the assistant's requests (alerts' daily
// summaries): each call takes a place of work like a question does, waiting as long as its
// context allows.
type boundEngine struct {
	Engine
	limit *limiter
}

func (b boundEngine) Answer(ctx context.Context, question string, history []Turn, posts []post.Post) (Answer, error) {
	done, err := b.limit.begin(ctx, false)
	if err != nil {
		return Answer{}, err
	}
	defer done()
	return b.Engine.Answer(ctx, question, history, posts)
}

func (b boundEngine) Summarize(ctx context.Context, posts []post.Post, n int) (Answer, error) {
	done, err := b.limit.begin(ctx, false)
	if err != nil {
		return Answer{}, err
	}
	defer done()
	return b.Engine.Summarize(ctx, posts, n)
}
