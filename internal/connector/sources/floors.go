package sources

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/sightline/sightline/internal/connector"
)

// Floors are the least waits of each type of source, so that no row (nor many rows together)
// hammers a provider: how often it polls (interval), how long it pauses between two requests of
// one round (pause) and how soon it retries a failed round (backoff.initial, every type). A row
// is refused below them when saved (SettingsError naming the setting), and a row stored before
// they existed runs at the floor instead (RowConfig). docs/connectors.md has the table.
var Floors = map[string]Floor{
	"rss":        {Interval: time.Minute},
	"html":       {Interval: 5 * time.Minute},
	"onion":      {Interval: 5 * time.Minute},
	"mastodon":   {Interval: 30 * time.Second},
	"hackernews": {Interval: 15 * time.Second},
	"reddit":     {Interval: 30 * time.Second},
	"lemmy":      {Interval: 30 * time.Second},
	"telegram":   {Interval: time.Minute, Pause: time.Second},
	"imageboard": {Interval: 30 * time.Second, Pause: time.Second},
	"gdelt":      {Interval: 5 * time.Minute, Pause: 5 * time.Second},
	// Bluesky streams; its profile lookups are spaced as the AppView's rate limit asks.
	"bluesky": {ProfileLookup: 250 * time.Millisecond},
	// Nostr streams from relays: only its backoff has a floor.
	"nostr": {},
}

// Floor is one type's least waits; zero is no floor.
type Floor struct {
	Interval      time.Duration
	Pause         time.Duration
	ProfileLookup time.Duration
}

// MinBackoff is the least first wait after a failed round, for every type.
const MinBackoff = time.Second

// setting is one wait of a row's configuration: where it is, its floor, and whether zero means
// "the section's value" (an item's own interval) rather than no wait at all.
type setting struct {
	field       string
	value       *connector.Duration
	floor       time.Duration
	zeroIsUnset bool
}

// waits lists the waits of the row's configuration (cfg as rowConfig made it) with their floors.
func waits(typ string, cfg *Config) []setting {
	f := Floors[typ]
	var out []setting
	add := func(field string, v *connector.Duration, floor time.Duration, zeroIsUnset bool) {
		if floor > 0 {
			out = append(out, setting{field, v, floor, zeroIsUnset})
		}
	}
	backoff := func(b *connector.Backoff) {
		// A zero initial backoff takes the default (connector.Backoff.Delay): only a set one is held.
		add("config.backoff.initial", &b.Initial, MinBackoff, true)
	}
	switch typ {
	case "rss":
		// A row is one feed: its interval is the feed's.
		add("config.interval", &cfg.RSS.Feeds[0].Interval, f.Interval, true)
		backoff(&cfg.RSS.Backoff)
	case "html":
		for i := range cfg.HTML.Pages {
			add("config.pages["+strconv.Itoa(i)+"].interval", &cfg.HTML.Pages[i].Interval, f.Interval, true)
		}
		add("config.interval", &cfg.HTML.Interval, f.Interval, false)
		backoff(&cfg.HTML.Backoff)
	case "onion":
		for i := range cfg.Onion.Sites {
			add("config.sites["+strconv.Itoa(i)+"].interval", &cfg.Onion.Sites[i].Interval, f.Interval, true)
		}
		add("config.interval", &cfg.Onion.Interval, f.Interval, false)
		backoff(&cfg.Onion.Backoff)
	case "mastodon":
		add("config.interval", &cfg.Mastodon.Interval, f.Interval, false)
		backoff(&cfg.Mastodon.Backoff)
	case "hackernews":
		add("config.interval", &cfg.HackerNews.Interval, f.Interval, false)
		backoff(&cfg.HackerNews.Backoff)
	case "reddit":
		add("config.interval", &cfg.Reddit.Interval, f.Interval, false)
		backoff(&cfg.Reddit.Backoff)
	case "lemmy":
		add("config.interval", &cfg.Lemmy.Interval, f.Interval, false)
		backoff(&cfg.Lemmy.Backoff)
	case "telegram":
		add("config.interval", &cfg.Telegram.Interval, f.Interval, false)
		add("config.pause", &cfg.Telegram.Pause, f.Pause, false)
		backoff(&cfg.Telegram.Backoff)
	case "imageboard":
		add("config.interval", &cfg.Imageboard.Interval, f.Interval, false)
		add("config.pause", &cfg.Imageboard.Pause, f.Pause, false)
		backoff(&cfg.Imageboard.Backoff)
	case "gdelt":
		add("config.interval", &cfg.GDELT.Interval, f.Interval, false)
		add("config.pause", &cfg.GDELT.Pause, f.Pause, false)
		backoff(&cfg.GDELT.Backoff)
	case "bluesky":
		add("config.profileLookupEvery", &cfg.Bluesky.ProfileLookupEvery, f.ProfileLookup, false)
		backoff(&cfg.Bluesky.Backoff)
	case "nostr":
		backoff(&cfg.Nostr.Backoff)
	}
	return out
}

// under reports whether the setting is below its floor.
func (s setting) under() bool {
	if s.zeroIsUnset && *s.value == 0 {
		return false
	}
	return time.Duration(*s.value) < s.floor
}

// raiseToFloors sets every wait of cfg below its floor to the floor: how a row saved before
// the floors existed runs.
func raiseToFloors(typ string, cfg *Config) {
	for _, s := range waits(typ, cfg) {
		if s.under() {
			*s.value = connector.Duration(s.floor)
		}
	}
}

// CheckFloors refuses a row's settings with a wait below its type's floor, naming the setting;
// settings that cannot run at all are refused as BuildRow would.
func CheckFloors(typ string, settings json.RawMessage) error {
	cfg, err := rowConfig(typ, "check", settings)
	if err != nil {
		return err
	}
	for _, s := range waits(typ, &cfg) {
		if s.under() {
			return &SettingsError{Field: s.field, Message: fmt.Sprintf("A %s source waits at least %s here: %s must be %s or more.",
				typ, formatWait(s.floor), s.field, formatWait(s.floor))}
		}
	}
	return nil
}

// formatWait writes a floor as the settings do: "1m", "30s", "250ms".
func formatWait(d time.Duration) string {
	switch {
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}
