package connector

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/wait"
)

// flaky panics on its first runs, then succeeds once and waits for the end.
type flaky struct {
	status *Status
	runs   atomic.Int64
	panics int64
	ran    chan struct{}
}

func (f *flaky) Name() string { return "flaky" }
func (f *flaky) Stats() Stats { return f.status.Stats() }
func (f *flaky) Run(ctx context.Context, _ EmitFunc) error {
	if f.runs.Add(1) <= f.panics {
		panic("boom at https://feeds.example.org/tok3n")
	}
	f.status.Succeeded()
	close(f.ran)
	<-ctx.Done()
	return nil
}

// A supervised source that panics is counted as failing with the generic message, started again
// after a backoff, and once it succeeds its health is its own again; the panics stay counted
// as retries.
func TestSuperviseRestartsAPanickingSource(t *testing.T) {
	inner := &flaky{status: NewStatus("flaky"), panics: 2, ran: make(chan struct{})}
	src := Supervise(inner)
	src.(*supervised).backoff = Backoff{Initial: Duration(time.Millisecond), Max: Duration(time.Millisecond)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- src.Run(ctx, func(context.Context, post.Post) error { return nil }) }()
	wait.Receive(t, "the source started again after its panics", inner.ran)
	st := src.(Reporter).Stats()
	if inner.runs.Load() != 3 || st.Retries != 2 || st.Failures != 0 || st.LastError != "" {
		t.Errorf("after recovering: %d runs, stats %+v", inner.runs.Load(), st)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run = %v", err)
	}

	// While it keeps panicking, its last error is the generic message and its failures count.
	stuck := &flaky{status: NewStatus("stuck"), panics: 1 << 60, ran: make(chan struct{})}
	src = Supervise(stuck)
	src.(*supervised).backoff = Backoff{Initial: Duration(time.Millisecond), Max: Duration(time.Millisecond)}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	go func() { done <- src.Run(ctx, nil) }()
	wait.For(t, "the panics counted", func() bool { return src.(Reporter).Stats().Failures >= 3 })
	if st := src.(Reporter).Stats(); st.LastError != PanicMessage || st.LastErrorAt.IsZero() {
		t.Errorf("while panicking: %+v", st)
	}
	cancel()
	<-done
}
