package search

import "time"

// SetClock lets tests run the service's time budgets on a clock of their own.
func SetClock(s *Service, now func() time.Time) { s.now = now }

// SetCountBudget changes how long analytics may count candidates, until the test ends.
func SetCountBudget(t interface{ Cleanup(func()) }, d time.Duration) {
	old := countBudget
	countBudget = d
	t.Cleanup(func() { countBudget = old })
}

// SetReadTimeout changes how long one read of candidates may take, until the test ends.
func SetReadTimeout(t interface{ Cleanup(func()) }, d time.Duration) {
	old := readTimeout
	readTimeout = d
	t.Cleanup(func() { readTimeout = old })
}
