package connector

import (
	"context"
	"errors"
	"testing"
	"time"
)

// countingStore records the cursors written, or fails when told to.
type countingStore struct {
	writes []string
	fail   bool
}

func (s *countingStore) Load(context.Context, string) (string, error) { return "", nil }

func (s *countingStore) Save(_ context.Context, _, cursor string) error {
	if s.fail {
		return errors.New("disk full")
	}
	s.writes = append(s.writes, cursor)
	return nil
}

func TestCursorSaver(t *testing.T) {
	store := &countingStore{}
	status := NewStatus("stream")
	saver := NewCursorSaver(store, "stream", status, time.Hour, "10")
	ctx, cancel := context.WithCancel(context.Background())

	saver.Flush(ctx, "10") // unchanged since it was loaded
	saver.Save(ctx, "11")  // first write: nothing written yet this hour
	saver.Save(ctx, "12")  // throttled
	saver.Save(ctx, "13")  // throttled
	cancel()
	saver.Flush(ctx, "13") // written even though the context has ended
	saver.Flush(ctx, "13") // unchanged
	if got := store.writes; len(got) != 2 || got[0] != "11" || got[1] != "13" {
		t.Fatalf("writes %v, want [11 13]", got)
	}

	store.fail = true
	saver.Flush(context.Background(), "14")
	if st := status.Stats(); st.LastError != "saving the cursor: disk full" {
		t.Fatalf("a failed write was not reported: %+v", st)
	}
	store.fail = false
	saver.Flush(context.Background(), "14")
	if got := store.writes[len(store.writes)-1]; got != "14" {
		t.Fatalf("the failed write was not tried again: %v", store.writes)
	}
}
