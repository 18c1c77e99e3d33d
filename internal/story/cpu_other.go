//go:build !linux

package story

import "time"

var processStart = time.Now()

// threadCPU falls back to the wall clock where the thread's CPU clock is not read: on a shared
// machine it counts the waits too.
func threadCPU() time.Duration { return time.Since(processStart) }
