package connector

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// countingStore serves loaded and records the cursors written, or fails when told to.
type countingStore struct {
	loaded string
	writes []string
	fail   bool
}

func (s *countingStore) Load(context.Context, string) (string, error) { return s.loaded, nil }

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

func TestRunWithCursor(t *testing.T) {
	tests := []struct {
		name    string
		loaded  string
		rounds  []int // what each round sets the cursor to; the round after the last ends the run
		writes  []string
		wantErr string
	}{
		{"a new source starts from nothing", "", []int{0, 3}, []string{"0", "3"}, ""},
		{"a loaded cursor is resumed and written only when it moves", "5", []int{5, 7, 7, 9}, []string{"7", "9"}, ""},
		{"an unreadable cursor stops the source", "five", nil, nil, "stream: cursor is not readable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := &countingStore{loaded: tt.loaded}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var cur, round int
			var resumed []int
			poller := Poller{Status: NewStatus("stream"), Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
			err := poller.RunWithCursor(ctx, store, "stream", &cur, func(context.Context) error {
				resumed = append(resumed, cur)
				if round == len(tt.rounds) {
					cancel()
					return nil
				}
				cur = tt.rounds[round]
				round++
				return errors.New("a round that fails is saved too")
			})
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !slices.Equal(store.writes, tt.writes) {
				t.Fatalf("err %v, writes %q, want %q", err, store.writes, tt.writes)
			}
			if tt.loaded != "" && resumed[0] != 5 {
				t.Fatalf("the first round saw cursor %d, want the loaded 5", resumed[0])
			}
		})
	}
}
