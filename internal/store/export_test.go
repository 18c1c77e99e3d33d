package store

// SetWalk sets how many rows a PostgreSQL search reads in time order before it leaves the rest
// to the full-text index, so that tests reach the second step with a few posts.
func (s *Store) SetWalk(n int) { s.walk = n }
