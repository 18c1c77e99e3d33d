package auth

import "time"

// SetClock makes the service read the time from now, for tests that move through time.
func (s *Service) SetClock(now func() time.Time) { s.now = now }
