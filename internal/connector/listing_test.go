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
