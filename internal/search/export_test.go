package search

import "time"

// SetClock lets tests run the service's time budgets on a clock of their own.
func SetClock(s *Service, now func() time.Time) { s.now = now }

// SetReadTimeout changes how long one read of candidates may take, until the test ends.
func SetReadTimeout(t interface{ Cleanup(func()) }, d time.Duration) {
	old := readTimeout
	readTimeout = d
	t.Cleanup(func() { readTimeout = old })
}

// SetBudgets changes how long analytics reads the newest matches and the sample of the older
// ones, and how long it takes in all, until the test ends.
func SetBudgets(t interface{ Cleanup(func()) }, newest, sample, total time.Duration) {
	oldNewest, oldSample, oldTotal := newestBudget, sampleBudget, totalBudget
	newestBudget, sampleBudget, totalBudget = newest, sample, total
	t.Cleanup(func() { newestBudget, sampleBudget, totalBudget = oldNewest, oldSample, oldTotal })
}

// SetSampleSize changes how many candidates the sample of the older matches aims at, until
// the test ends.
func SetSampleSize(t interface{ Cleanup(func()) }, n int) {
	old := sampleSize
	sampleSize = n
	t.Cleanup(func() { sampleSize = old })
}
