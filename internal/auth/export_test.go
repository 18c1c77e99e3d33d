package auth

import "time"

// SetClock makes the service read the time from now, for tests that move through time.
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// SetVerify replaces the password check of s, so tests can count (or hold) the hashes.
func SetVerify(s *Service, verify func(encoded, plain string) (bool, error)) {
	s.throttle.verify = verify
}

// HashSlots is how many password hashes s runs at once.
func HashSlots(s *Service) int { return cap(s.throttle.hashing) }
