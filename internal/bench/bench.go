// Package bench holds Sightline's performance benchmarks, the ones `sightline bench percolate`,
// `bench ingest` and `bench live` run: each takes a config, runs against real components (the
// percolator, the embedded stream, the store, a whole node) and returns its figures, which print
// as text or JSON. docs/performance.md explains each workload and records the figures.
package bench

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"syscall"
	"time"
)

// percentiles are the median, 99th percentile and maximum of samples, which it sorts.
func percentiles(samples []float64) (p50, p99, highest float64) {
	n := len(samples)
	if n == 0 {
		return 0, 0, 0
	}
	slices.Sort(samples)
	return samples[n/2], samples[min(n-1, n*99/100)], samples[n-1]
}

// percentile is the p-th percentile of samples (nearest rank), 0 without any.
func percentile(samples []float64, p int) float64 {
	if len(samples) == 0 {
		return 0
	}
	sorted := slices.Sorted(slices.Values(samples))
	return sorted[min(len(sorted)-1, len(sorted)*p/100)]
}

// millis is d in milliseconds, with microsecond precision.
func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

type memory struct{ heap, stack uint64 }

// liveMemory is the live heap and the goroutine stacks after a collection.
func liveMemory() memory {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return memory{heap: m.HeapAlloc, stack: m.StackInuse}
}

// RaiseFileLimit lifts the open-file limit to at least want, as far as the process may.
func RaiseFileLimit(want int) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	if lim.Max < uint64(want) {
		raised := syscall.Rlimit{Cur: uint64(want), Max: uint64(want)}
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised) == nil {
			return nil
		}
	}
	lim.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	if lim.Cur < uint64(want) {
		return fmt.Errorf("the open-file limit is %d, below the %d this benchmark needs; lower --clients", lim.Cur, want)
	}
	return nil
}

// startCPUProfile writes a CPU profile to path until stop is called; "" profiles nothing.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
