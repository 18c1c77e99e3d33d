package store

import "context"

// RawString reads one text value as stored, bypassing any unsealing, for tests that look at
// what a copy of the database would hold.
func (s *Store) RawString(ctx context.Context, query string, args ...any) (string, error) {
	var v string
	err := s.read.QueryRowContext(ctx, query, args...).Scan(&v)
	return v, err
}
