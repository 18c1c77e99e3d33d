package connector

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
)

func TestSeen(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC)
	var s Seen
	for _, tc := range []struct {
		key   string
		at    time.Time
		fresh bool
	}{
		{"a", t0, true},
		{"b", t0.Add(time.Minute), true},
		{"a", t0, false},                              // emitted
		{"c", t0.Add(-time.Hour), true},               // late but within the window
		{"d", t0.Add(-SeenWindow - time.Hour), false}, // older than the window
	} {
		if got := s.Fresh(tc.key, tc.at); got != tc.fresh {
			t.Errorf("Fresh(%s) = %v, want %v", tc.key, got, tc.fresh)
		}
		if tc.fresh {
			s.Add(tc.key, tc.at)
		}
	}
	b, _ := json.Marshal(s)
	var back Seen
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Fresh("a", t0) || back.Fresh("b", t0) || !back.Fresh("e", t0) || !back.Newest.Equal(t0.Add(time.Minute)) {
		t.Errorf("after a round trip: %+v", back)
	}
	for i := range maxSeenKeys + 10 {
		back.Add(string(rune('A'+i%26))+time.Duration(i).String(), t0)
	}
	if len(back.Keys) != maxSeenKeys {
		t.Errorf("kept %d keys", len(back.Keys))
	}
}

func TestListingsOf(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC)
	cur := Listings{}
	cur.Of("posts").Add("a", t0)
	if cur.Of("posts").Fresh("a", t0) || !cur.Of("comments").Fresh("a", t0) {
		t.Fatal("a listing's Seen is not its own, or not kept")
	}
	b, _ := json.Marshal(cur)
	var back Listings
	if err := json.Unmarshal(b, &back); err != nil || back.Of("posts").Fresh("a", t0) {
		t.Fatalf("the cursor %s does not survive a restart: %v", b, err)
	}
}

func TestDecodeAndSendFresh(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC)
	type item struct {
		ID   string `json:"id"`
		Time int64  `json:"t"`
	}
	toPost := func(it item) (post.Post, error) {
		if it.ID == "" {
			return post.Post{}, errors.New("an item without an id")
		}
		return post.Post{Provider: "news", Type: post.TypeNewsPost, NativeID: it.ID, ContentText: "text " + it.ID,
			PublishedAt: t0.Add(time.Duration(it.Time) * time.Minute)}, nil
	}
	items := []json.RawMessage{
		json.RawMessage(`{"id":"a","t":1}`),
		json.RawMessage(`not json`),
		json.RawMessage(`{"id":"b","t":2}`),
		json.RawMessage(`{"t":3}`),
		json.RawMessage(`{"id":"a","t":1}`), // listed again
		json.RawMessage(`{"id":"c","t":4}`),
	}
	tests := []struct {
		name      string
		refuse    string // the native id the pipeline fails to take
		wantSent  []string
		wantSeen  []string
		wantError bool
	}{
		{"every fresh post once, in order", "", []string{"a", "b", "c"}, []string{"a", "b", "c"}, false},
		{"a post not taken stops the page and stays fresh", "b", []string{"a"}, []string{"a"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status := NewStatus("listing")
			var seen Seen
			var sent []string
			emit := func(_ context.Context, p post.Post) error {
				if p.NativeID == tt.refuse {
					return errors.New("the stream is down")
				}
				sent = append(sent, p.NativeID)
				return nil
			}
			err := SendFresh(context.Background(), status, emit, &seen, Decode(status, "page 1", items, toPost))
			if (err != nil) != tt.wantError || !slices.Equal(sent, tt.wantSent) || !slices.Equal(seen.Keys, tt.wantSeen) {
				t.Fatalf("err %v, sent %v, seen %v; want sent %v, seen %v", err, sent, seen.Keys, tt.wantSent, tt.wantSeen)
			}
		})
	}
	status := NewStatus("listing")
	for range Decode(status, "page 1", items, toPost) {
	}
	if st := status.Stats(); st.Skipped != 2 || st.LastSkip != "malformed reply: page 1: an item without an id" {
		t.Fatalf("skipped %d (%q), want the item that is not JSON and the one without an id", st.Skipped, st.LastSkip)
	}
}
