package connector

import (
	"encoding/json"
	"testing"
	"time"
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
