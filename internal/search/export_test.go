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
