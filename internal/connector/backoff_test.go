package connector

import (
	"encoding/json"
	"testing"
	"time"
)

func TestBackoffDelay(t *testing.T) {
	b := Backoff{Initial: Duration(time.Second), Max: Duration(time.Minute)}
	tests := []struct {
		attempt int
		ceiling time.Duration
	}{
		{1, time.Second},
		{2, 2 * time.Second},
		{3, 4 * time.Second},
		{6, 32 * time.Second},
		{7, time.Minute},
		{100, time.Minute}, // capped, and no overflow
	}
	for _, tt := range tests {
		for range 200 {
			d := b.Delay(tt.attempt)
			if d < tt.ceiling/2 || d > tt.ceiling {
				t.Fatalf("Delay(%d) = %v, want within [%v, %v]", tt.attempt, d, tt.ceiling/2, tt.ceiling)
			}
		}
	}
}

func TestBackoffIsJittered(t *testing.T) {
	b := Backoff{Initial: Duration(time.Second), Max: Duration(time.Minute)}
	seen := map[time.Duration]bool{}
	for range 50 {
		seen[b.Delay(4)] = true
	}
	if len(seen) < 10 {
		t.Fatalf("50 delays took only %d values: no jitter", len(seen))
	}
}

func TestBackoffZeroValueUsesDefaults(t *testing.T) {
	if d := (Backoff{}).Delay(1); d < 500*time.Millisecond || d > time.Second {
		t.Fatalf("zero Backoff first delay %v, want the default's", d)
	}
}

func TestDurationJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Duration
		wantErr bool
	}{
		{`"30s"`, 30 * time.Second, false},
		{`"1h30m"`, 90 * time.Minute, false},
		{`"-1s"`, 0, true},
		{`30`, 0, true},
		{`"soon"`, 0, true},
	}
	for _, tt := range tests {
		var d Duration
		err := json.Unmarshal([]byte(tt.in), &d)
		if (err != nil) != tt.wantErr || time.Duration(d) != tt.want {
			t.Errorf("unmarshal %s = %v, %v; want %v, error %v", tt.in, time.Duration(d), err, tt.want, tt.wantErr)
		}
	}
	out, _ := json.Marshal(Duration(90 * time.Second))
	if string(out) != `"1m30s"` {
		t.Errorf("marshal = %s", out)
	}
}
