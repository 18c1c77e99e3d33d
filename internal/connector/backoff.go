package connector

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"
)

// Duration is a time.Duration written in configuration as "30s", "5m" or "1h30m".
type Duration time.Duration

func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration is a string such as \"30s\": %w", err)
	}
	parsed, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if parsed < 0 {
		return fmt.Errorf("duration %q is negative", s)
	}
	*d = Duration(parsed)
	return nil
}

// Backoff is an exponential backoff with jitter and a cap: the nth retry waits between half
// and all of min(Initial * 2^(n-1), Max). The jitter keeps many sources that failed together
// from retrying together.
type Backoff struct {
	Initial Duration `json:"initial"`
	Max     Duration `json:"max"`
}

// DefaultBackoff suits public APIs: quick first retries, at most five minutes apart.
var DefaultBackoff = Backoff{Initial: Duration(time.Second), Max: Duration(5 * time.Minute)}

// Delay is how long to wait before retry number attempt (1 for the first retry).
func (b Backoff) Delay(attempt int) time.Duration {
	initial, limit := time.Duration(b.Initial), time.Duration(b.Max)
	if initial <= 0 {
		initial = time.Duration(DefaultBackoff.Initial)
	}
	if limit < initial {
		limit = initial
	}
	d := initial
	for i := 1; i < attempt && d < limit; i++ {
		d *= 2
	}
	d = min(d, limit)
	return d/2 + rand.N(d/2+1)
}
