package search

// NewVerifyingService is NewService verifying every candidate even where the store's index
// answers a search exactly: the reference the exact reading is compared with.
func NewVerifyingService(s Store, o Options) *Service {
	svc := NewService(s, o)
	svc.verifyAll = true
	return svc
}
