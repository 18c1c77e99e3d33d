package ingest_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/stream"
)

func newService(t *testing.T) *ingest.Service {
	return ingest.NewService(openStream(t, 0), nil, 0)
}

// openStream opens an embedded stream (of at most maxBytes when not 0) whose posts wait for the
// storage stage, which the test may run or not.
func openStream(t *testing.T, maxBytes int64) *stream.Stream {
	t.Helper()
	st, err := stream.Open(context.Background(), stream.Config{DataDir: t.TempDir(), MaxBytes: maxBytes,
		Consumers: []string{ingest.StoreDurable}}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st
}

// ndjson repeats line until the body would pass size bytes.
func ndjson(size int, line func(i int) string) []byte {
	var b bytes.Buffer
	for i := 1; ; i++ {
		l := line(i) + "\n"
		if b.Len()+len(l) > size {
			return b.Bytes()
		}
		b.WriteString(l)
	}
}

func validPost(i int) string {
	fresh := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	return fmt.Sprintf(`{"provider":"reddit","native_id":"n%d","content_text":"post %d %s","published_at":"%s"}`,
		i, i, strings.Repeat("lorem ipsum ", 80), fresh)
}

// heapGrowth runs fn and reports how far the heap (live objects and garbage not yet swept) rose
// above where it was before, at its peak while fn ran, sampled every few milliseconds, and how
// much the memory the runtime took from the system grew.
func heapGrowth(fn func()) (peak, sys uint64) {
	heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}}
	read := func() (uint64, uint64) {
		metrics.Read(heap)
		return heap[0].Value.Uint64(), heap[1].Value.Uint64()
	}
	runtime.GC()
	heapBefore, sysBefore := read()
	done := make(chan struct{})
	sampled := make(chan uint64)
	go func() {
		top := heapBefore
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			h, _ := read()
			top = max(top, h)
			select {
			case <-done:
				sampled <- top
				return
			case <-tick.C:
			}
		}
	}()
	fn()
	close(done)
	top := <-sampled
	h, sysAfter := read()
	return max(top, h) - heapBefore, max(sysAfter, sysBefore) - sysBefore
}

// A submission is processed as it is read: a body at the size bound, or one of a million empty
// objects, costs bounded memory, lists at most the first 1,000 rejections and counts them all.
func TestSubmitIsBounded(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		name          string
		body          []byte
		accepted      int
		rejectedCount int
		tooLarge      bool
		maxGrowth     uint64
	}{
		// Before streaming, 1 MiB of {} lines took +478 MB of heap.
		{"1 MiB of empty objects", ndjson(mb, func(int) string { return "{}" }), 0, ingest.MaxItems, true, 64 * mb},
		{"32 MiB of posts", nil, -1, 0, false, 256 * mb},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.body == nil {
				if testing.Short() {
					t.Skip("32 MiB through the whole submission: make test runs it")
				}
				tt.body = ndjson(ingest.MaxBody, validPost)
			}
			svc := newService(t)
			var res ingest.Result
			var err error
			peak, sys := heapGrowth(func() {
				res, err = svc.Submit(context.Background(), bytes.NewReader(tt.body), ingest.OriginOf(1, "feed", 1, 1))
			})
			t.Logf("%d bytes: heap peak +%d MB, memory from the system +%d MB; %d accepted, %d rejected",
				len(tt.body), peak/mb, sys/mb, res.Accepted, res.RejectedCount)
			if peak > tt.maxGrowth || sys > tt.maxGrowth {
				t.Errorf("heap peak +%d MB, memory from the system +%d MB; want both under %d MB", peak/mb, sys/mb, tt.maxGrowth/mb)
			}
			if problem.Is(err, problem.KindTooLarge) != tt.tooLarge {
				t.Errorf("err = %v, want too large: %v", err, tt.tooLarge)
			}
			if tt.accepted >= 0 && res.Accepted != tt.accepted {
				t.Errorf("accepted %d, want %d", res.Accepted, tt.accepted)
			}
			if tt.accepted < 0 && (res.Accepted == 0 || res.Accepted != bytes.Count(tt.body, []byte("\n"))) {
				t.Errorf("accepted %d of %d", res.Accepted, bytes.Count(tt.body, []byte("\n")))
			}
			if res.RejectedCount != tt.rejectedCount || len(res.Rejected) != min(tt.rejectedCount, ingest.MaxRejectionsListed) {
				t.Errorf("%d rejected, %d listed; want %d", res.RejectedCount, len(res.Rejected), tt.rejectedCount)
			}
		})
	}
}

// The bounds of a submission: past them reading stops with a 413-kind problem that says, and
// carries, what was accepted until then; a JSON array is read element by element like NDJSON.
func TestSubmitLimits(t *testing.T) {
	svc := newService(t)
	fresh := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	one := func(i int) string {
		return fmt.Sprintf(`{"provider":"reddit","native_id":"x%d","content_text":"x","published_at":"%s"}`, i, fresh)
	}
	var array strings.Builder
	array.WriteString("[")
	for i := 1; i <= 1200; i++ {
		if i > 1 {
			array.WriteString(",")
		}
		if i%2 == 0 {
			array.WriteString(`{"provider":"nosuchnetwork"}`)
		} else {
			array.WriteString(one(i))
		}
	}
	array.WriteString("]")
	tooMany := func() []byte {
		return ndjson(64<<20, func(i int) string {
			if i > ingest.MaxItems+10 {
				return strings.Repeat("x", 64<<20) // ends the body
			}
			if i <= 3 {
				return one(i)
			}
			return "7"
		})
	}
	tooBig := func() []byte {
		return ndjson(ingest.MaxBody+10_000, func(i int) string {
			if i == 1 {
				return one(i)
			}
			return `{"provider":"nosuchnetwork","content_text":"` + strings.Repeat("y", 4000) + `"}`
		})
	}
	tests := []struct {
		name          string
		body          func() []byte
		atTheBound    bool // reads up to a real bound: make test runs it, -short does not
		accepted      int
		rejectedCount int
		listed        int
		tooLarge      string
	}{
		{"array, half rejected", func() []byte { return []byte(array.String()) }, false, 600, 600, 600, ""},
		{"more items than allowed", tooMany, true, 3, ingest.MaxItems - 3, ingest.MaxRejectionsListed, "more than 100000 posts"},
		{"a body over the bound", tooBig, true, 1, -1, ingest.MaxRejectionsListed, "larger than 32 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.atTheBound && testing.Short() {
				t.Skip("reads up to a bound of the real size")
			}
			res, err := svc.Submit(context.Background(), bytes.NewReader(tt.body()), ingest.OriginOf(1, "feed", 1, 1))
			if tt.tooLarge == "" && err != nil {
				t.Fatal(err)
			}
			if tt.tooLarge != "" {
				p, ok := problem.As(err)
				if !ok || p.Kind != problem.KindTooLarge || !strings.Contains(p.Message, tt.tooLarge) ||
					!strings.Contains(p.Message, fmt.Sprintf("%d accepted", tt.accepted)) || p.Extra["accepted"] != tt.accepted {
					t.Fatalf("err = %#v, want too large (%s) saying %d accepted", err, tt.tooLarge, tt.accepted)
				}
			}
			if res.Accepted != tt.accepted || (tt.rejectedCount >= 0 && res.RejectedCount != tt.rejectedCount) ||
				len(res.Rejected) != tt.listed {
				t.Errorf("accepted %d, rejected %d (%d listed); want %d, %d (%d)", res.Accepted, res.RejectedCount,
					len(res.Rejected), tt.accepted, tt.rejectedCount, tt.listed)
			}
			for i := 1; i < len(res.Rejected); i++ {
				if res.Rejected[i].Line <= res.Rejected[i-1].Line {
					t.Fatalf("rejections out of line order at %d: %v", i, res.Rejected[i-1:i+1])
				}
			}
		})
	}
}

// Posts pushed through the ingest API carry their source, and their ids are their token's:
// neither a connector's id for the same provider and native id nor another token's.
func TestSubmitProvenance(t *testing.T) {
	connectorID := post.NewID("reddit", "n1")
	a := post.NewIngestID("ingest:1", "reddit", "n1")
	b := post.NewIngestID("ingest:2", "reddit", "n1")
	if a == connectorID || b == connectorID || a == b {
		t.Fatalf("ids collide: connector %s, token 1 %s, token 2 %s", connectorID, a, b)
	}
	if o := ingest.OriginOf(0, "", 7, 1); o.Namespace != "ingest:user-7" || o.Source != ingest.SessionSource {
		t.Errorf("a signed-in user's origin: %+v", o)
	}
}

// panicky is an enricher that panics on posts that say "boom".
type panicky struct{}

func (panicky) Enrich(p *post.Post) {
	if strings.Contains(p.ContentText, "boom") {
		panic("enricher bug")
	}
}

// A post the enrichment panics on is refused by itself: a connector's Emit gets a final
// refusal (the source skips it and goes on) and a submission lists its line as rejected, while
// the posts around it are accepted.
func TestEnrichPanicRefusesThePost(t *testing.T) {
	st, err := stream.Open(context.Background(), stream.Config{DataDir: t.TempDir()}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	svc := ingest.NewService(st, panicky{}, 0)
	fresh := time.Now().Add(-time.Hour)

	err = svc.Emit(context.Background(), post.Post{Provider: "reddit", NativeID: "b1", ContentText: "boom", PublishedAt: fresh})
	if !connector.IsRejected(err) {
		t.Fatalf("Emit of a post the enrichment panics on: %v, want a final refusal", err)
	}
	if err := svc.Emit(context.Background(), post.Post{Provider: "reddit", NativeID: "ok1", ContentText: "fine", PublishedAt: fresh}); err != nil {
		t.Fatalf("Emit of a good post: %v", err)
	}

	body := validPost(1) + "\n" + strings.Replace(validPost(2), "post 2", "boom", 1) + "\n" + validPost(3) + "\n"
	res, err := svc.Submit(context.Background(), strings.NewReader(body), ingest.Origin{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Accepted != 2 || res.RejectedCount != 1 || res.Rejected[0].Line != 2 || !strings.Contains(res.Rejected[0].Message, "internal error") {
		t.Fatalf("submission: %+v", res)
	}
}

// When the stream is full, a submission stops with a 503-kind problem that says, and carries,
// what was accepted until then; the refused posts are rejected as not accepted, and nothing
// already on the stream is dropped to make room.
func TestSubmitToAFullStream(t *testing.T) {
	st := openStream(t, 256<<10)
	svc := ingest.NewService(st, nil, 0)
	body := ndjson(2<<20, validPost)
	res, err := svc.Submit(context.Background(), bytes.NewReader(body), ingest.OriginOf(1, "feed", 1, 1))
	p, ok := problem.As(err)
	if !ok || p.Kind != problem.KindUnavailable || !strings.Contains(p.Message, "queue of posts waiting to be stored is full") ||
		p.Extra["accepted"] != res.Accepted {
		t.Fatalf("err = %#v, want unavailable: the queue is full, with the result so far", err)
	}
	if res.Accepted == 0 || res.RejectedCount == 0 || res.Accepted+res.RejectedCount >= bytes.Count(body, []byte("\n")) {
		t.Fatalf("accepted %d, rejected %d of %d; want some accepted, then reading stopped", res.Accepted,
			res.RejectedCount, bytes.Count(body, []byte("\n")))
	}
	for _, r := range res.Rejected {
		if !strings.Contains(r.Message, "queue of posts waiting to be stored is full") {
			t.Fatalf("rejection %+v, want the full queue", r)
		}
	}
	info, err := st.JetStream().Stream(context.Background(), stream.PostsStream)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.CachedInfo().State; got.Msgs != uint64(res.Accepted) || got.FirstSeq != 1 {
		t.Errorf("the stream holds %d posts from %d; want the %d accepted from the first", got.Msgs, got.FirstSeq, res.Accepted)
	}
}
