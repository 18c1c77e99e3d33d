package evidence

// SetLimits lowers what the browser's requests and streams may add to a record, for tests of
// the limits.
func SetLimits(s *Service, browserRecords int, browserBytes int64, streamFiles int, streamBytes int64) {
	s.limits = limits{browserRecords: browserRecords, browserBytes: browserBytes, streamFiles: streamFiles, streamBytes: streamBytes}
}
