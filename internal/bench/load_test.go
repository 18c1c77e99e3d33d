package bench

import (
	"strings"
	"testing"
	"time"
)

// A run's figures are refused when the machine was busy before it, or when other work than the
// benchmark's own kept it busy during it.
func TestLoadExcess(t *testing.T) {
	for _, tt := range []struct {
		name               string
		before, after, own float64
		refused            string
	}{
		{"quiet", 0.4, 2.1, 1.9, ""},
		{"at the limit", 3.0, 3.0, 0, ""},
		{"busy before", 3.2, 2.0, 1.0, "3.20 before"},
		{"its own work only", 1.0, 4.5, 2.0, ""},
		{"other work during the run", 1.0, 5.5, 2.0, "3.50 of it other work"},
	} {
		l := Load{Cores: 2, Limit: 2 * MaxLoadPerCore, Before: tt.before, After: tt.after, Own: tt.own}
		got := l.Excess()
		if (got == "") != (tt.refused == "") || !strings.Contains(got, tt.refused) {
			t.Errorf("%s: Excess() = %q, want %q", tt.name, got, tt.refused)
		}
	}
}

// The load is read at the start and the end of a run, and the run's own CPU counted.
func TestLoadWatch(t *testing.T) {
	w := WatchLoad()
	for start := cpuTime(); cpuTime()-start < 50*time.Millisecond; { // some CPU of its own
	}
	l, err := w.Finish(true)
	if err != nil {
		t.Fatal(err)
	}
	if l.Cores < 1 || l.Limit != MaxLoadPerCore*float64(l.Cores) || l.Before < 0 || l.After < 0 || l.Own <= 0 {
		t.Errorf("load %+v", l)
	}
	if !strings.Contains(l.String(), "before") {
		t.Errorf("the report line %q", l)
	}
}
