package bench

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// MaxLoadPerCore is the one-minute load average per core above which a benchmark's figures say
// more about the machine's other work than about Sightline: `sightline bench` refuses to report
// figures measured above it unless told to (--allow-load).
const MaxLoadPerCore = 1.5

// Load is the machine's load around one benchmark run, printed with its figures.
type Load struct {
	Cores int `json:"cores"`
	// Before and After are the one-minute load averages at the start and the end of the run.
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	// Own is how many cores the benchmark itself kept busy on average: its CPU time, with its
	// child processes', over the run's wall time. After includes it; the rest is other work.
	Own float64 `json:"own"`
	// Limit is MaxLoadPerCore for all the cores.
	Limit float64 `json:"limit"`
	// Allowed says the figures are reported although the load was over the limit.
	Allowed bool `json:"allowed,omitempty"`
}

// Excess says why the figures of a run under this load are not to be trusted, "" when they
// are: the machine was busy before the run, or other work than the benchmark's own kept it
// busy during it.
func (l Load) Excess() string {
	switch {
	case l.Before > l.Limit:
		return fmt.Sprintf("the load average was %.2f before the run", l.Before)
	case l.After-l.Own > l.Limit:
		return fmt.Sprintf("the load average was %.2f after the run, %.2f of it other work than this benchmark's", l.After, l.After-l.Own)
	}
	return ""
}

// String is the load's line in a benchmark's report.
func (l Load) String() string {
	s := fmt.Sprintf("load average %.2f before, %.2f after (this benchmark's own %.2f) on %d cores; limit %.2f (%.1f a core)",
		l.Before, l.After, l.Own, l.Cores, l.Limit, MaxLoadPerCore)
	if l.Allowed && l.Excess() != "" {
		s += ": over it, reported because of --allow-load"
	}
	return s
}

// LoadWatch measures the load around one run: WatchLoad at its start, Finish at its end.
type LoadWatch struct {
	start time.Time
	cpu   time.Duration
	load  Load
	err   error
}

// WatchLoad reads the load average as a run starts.
func WatchLoad() *LoadWatch {
	cores := runtime.NumCPU()
	w := &LoadWatch{start: time.Now(), cpu: ownCPUTime(), load: Load{Cores: cores, Limit: MaxLoadPerCore * float64(cores)}}
	w.load.Before, w.err = loadAverage()
	return w
}

// Busy returns an error when the machine is already over the limit: the run would be refused.
func (w *LoadWatch) Busy() error {
	if w.err != nil {
		return w.err
	}
	if why := w.load.Excess(); why != "" {
		return refusal(w.load, why)
	}
	return nil
}

// Finish reads the load at the end of the run. It returns an error, with the load, when the
// figures were measured over the limit, unless allow.
func (w *LoadWatch) Finish(allow bool) (Load, error) {
	l := w.load
	if wall := time.Since(w.start); wall > 0 {
		l.Own = float64(ownCPUTime()-w.cpu) / float64(wall)
	}
	after, err := loadAverage()
	if err == nil {
		err = w.err // the load before could not be read either
	}
	if err != nil && !allow {
		return l, err
	}
	l.After = after
	why := l.Excess()
	l.Allowed = allow && why != ""
	if why != "" && !allow {
		return l, refusal(l, why)
	}
	return l, nil
}

func refusal(l Load, why string) error {
	return fmt.Errorf("%s, over %.2f (%.1f for each of %d cores): figures measured so would say more about the "+
		"machine's other work than about Sightline, so none are reported. Run it on a quieter machine, "+
		"or add --allow-load to report them anyway, marked so", why, l.Limit, MaxLoadPerCore, l.Cores)
}

// loadAverage is the machine's one-minute load average.
func loadAverage() (float64, error) {
	b, err := os.ReadFile("/proc/loadavg")
	if err == nil {
		one, _, _ := strings.Cut(string(b), " ")
		var v float64
		if v, err = strconv.ParseFloat(one, 64); err == nil {
			return v, nil
		}
	}
	return 0, fmt.Errorf("the load average cannot be read here (%v); add --allow-load to run without the check", err)
}

// ownCPUTime is the CPU time of this process and of the child processes it has waited for.
func ownCPUTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var u syscall.Rusage
		if syscall.Getrusage(who, &u) == nil {
			total += time.Duration(u.Utime.Nano() + u.Stime.Nano())
		}
	}
	return total
}
