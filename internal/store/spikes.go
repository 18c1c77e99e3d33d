package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/spike"
)

// Spikes (migration 0037, docs/spikes.md): matches counted per quarter hour of publication and
// series, and the spikes found in them.

const quarterMillis = int64(spike.Slot / time.Millisecond)

type quarterKey struct {
	search  int64
	series  string
	quarter int64
}

// spikeSeriesOf are the series a match counts in: its search, its data source, its places.
func spikeSeriesOf(m monitor.Match) []string {
	out := []string{spike.SeriesSearch, spike.ProviderSeries(m.Provider)}
	seen := map[string]bool{}
	for _, p := range m.Places {
		if s := spike.PlaceSeries(p.Name, p.CountryCode); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func (s *Store) countQuarters(ctx context.Context, tx *sql.Tx, quarters map[quarterKey]int64) error {
	err := upsertCounts(ctx, tx, s, "monitor_match_quarters", "search_id, series, quarter", quarters,
		func(a, b quarterKey) int {
			return cmp.Or(cmp.Compare(a.search, b.search), cmp.Compare(a.series, b.series), cmp.Compare(a.quarter, b.quarter))
		},
		func(k quarterKey, arg func(any) string) string {
			return strconv.FormatInt(k.search, 10) + ", " + arg(k.series) + ", " + strconv.FormatInt(k.quarter, 10)
		})
	if err != nil {
		return fmt.Errorf("count matches by quarter hour: %w", err)
	}
	return nil
}

// SpikeSeries are the search's counts per quarter hour from since to now, by series; each
// series spans the whole stretch, quarters without matches counting 0.
func (s *Store) SpikeSeries(ctx context.Context, searchID int64, since, now time.Time) (map[string]spike.Series, error) {
	first, last := millis(since)/quarterMillis, millis(now)/quarterMillis
	// The history starts when the search was saved or with its oldest counted post, whichever
	// is earlier (a backfill's posts are history): before that, quarters are unknown, not quiet.
	var created int64
	var oldest sql.NullInt64
	if err := s.read.QueryRowContext(ctx, `SELECT created_at, (SELECT MIN(quarter) FROM monitor_match_quarters
		WHERE search_id = $1 AND series = '') FROM monitor_searches WHERE id = $1`, searchID).Scan(&created, &oldest); err != nil {
		return nil, fmt.Errorf("spike series: %w", notFound(err, "search"))
	}
	known := created / quarterMillis
	if oldest.Valid {
		known = min(known, oldest.Int64)
	}
	first = max(first, known)
	out := map[string]spike.Series{}
	if first > last {
		return out, nil
	}
	err := s.each(ctx, `SELECT series, quarter, match_count FROM monitor_match_quarters
		WHERE search_id = $1 AND quarter >= $2 AND quarter <= $3`, []any{searchID, first, last}, func(r *sql.Rows) error {
		var series string
		var q, n int64
		if err := r.Scan(&series, &q, &n); err != nil {
			return err
		}
		ser, ok := out[series]
		if !ok {
			ser = spike.Series{Start: fromMillis(first * quarterMillis), Counts: make([]int64, last-first+1)}
		}
		ser.Counts[q-first] += n
		out[series] = ser
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("spike series: %w", err)
	}
	return out, nil
}

// SpikePosts are up to limit of the search's matched posts of a series published in
// [from, to), newest first. A place's posts are picked from the search's newest postsRead.
func (s *Store) SpikePosts(ctx context.Context, searchID int64, series string, from, to time.Time, limit int) ([]post.Post, error) {
	q := `SELECT p.doc FROM monitor_matches m JOIN posts p ON ` + s.sql.postJoin("m") + `
		WHERE m.search_id = $1 AND m.published_at >= $2 AND m.published_at < $3`
	args := []any{searchID, millis(from), millis(to)}
	if kind, name := spike.Describe(series); kind == "provider" {
		q += ` AND m.provider = $4`
		args = append(args, name)
	}
	q += ` ORDER BY m.published_at DESC LIMIT ` + strconv.Itoa(limit)
	posts, err := postDocs(s.read.QueryContext(ctx, q, args...))
	if err != nil {
		return nil, fmt.Errorf("spike posts: %w", err)
	}
	kept := posts[:0]
	for _, p := range posts {
		if spike.InSeries(p, series) {
			kept = append(kept, p)
		}
	}
	return kept, nil
}

// SaveSpikes adds new spikes and updates known ones (same search, series and start); it
// returns the new ones with their ids.
func (s *Store) SaveSpikes(ctx context.Context, spikes []spike.Spike) ([]spike.Spike, error) {
	var added []spike.Spike
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		added = nil
		for _, sp := range spikes {
			if sp.StoryIDs == nil {
				sp.StoryIDs = []string{}
			}
			if sp.Samples == nil {
				sp.Samples = []spike.Sample{}
			}
			stories, err := json.Marshal(sp.StoryIDs)
			if err != nil {
				return err
			}
			samples, err := json.Marshal(sp.Samples)
			if err != nil {
				return err
			}
			var id int64
			err = tx.QueryRowContext(ctx, `SELECT id FROM monitor_spikes WHERE search_id = $1 AND series = $2 AND start_at = $3`,
				sp.SearchID, sp.Series, millis(sp.Start)).Scan(&id)
			switch {
			case err == nil:
				_, err = tx.ExecContext(ctx, `UPDATE monitor_spikes SET end_at = $1, match_count = $2, expected = $3, low = $4,
					high = $5, score = $6, story_ids = $7, samples = $8 WHERE id = $9`, millis(sp.End), sp.Count, sp.Expected,
					sp.Low, sp.High, sp.Score, string(stories), string(samples), id)
			case err == sql.ErrNoRows:
				err = tx.QueryRowContext(ctx, `INSERT INTO monitor_spikes (search_id, series, start_at, end_at, match_count,
					expected, low, high, score, story_ids, samples, detected_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
					RETURNING id`, sp.SearchID, sp.Series, millis(sp.Start), millis(sp.End), sp.Count, sp.Expected, sp.Low, sp.High,
					sp.Score, string(stories), string(samples), millis(sp.DetectedAt)).Scan(&sp.ID)
				added = append(added, sp)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("save spikes: %w", err)
	}
	return added, nil
}

const spikeColumns = `id, search_id, series, start_at, end_at, match_count, expected, low, high, score, story_ids, samples, detected_at`

// Spikes are the search's spikes overlapping [from, to), by start.
func (s *Store) Spikes(ctx context.Context, searchID int64, from, to time.Time) ([]spike.Spike, error) {
	return s.spikes(ctx, `WHERE search_id = $1 AND end_at > $2 AND start_at < $3 ORDER BY start_at, id`,
		searchID, millis(from), millis(to))
}

// Spike is one stored spike.
func (s *Store) Spike(ctx context.Context, id int64) (spike.Spike, error) {
	list, err := s.spikes(ctx, `WHERE id = $1`, id)
	if err != nil {
		return spike.Spike{}, err
	}
	if len(list) == 0 {
		return spike.Spike{}, notFound(sql.ErrNoRows, "spike")
	}
	return list[0], nil
}

func (s *Store) spikes(ctx context.Context, where string, args ...any) ([]spike.Spike, error) {
	out := []spike.Spike{}
	err := s.each(ctx, `SELECT `+spikeColumns+` FROM monitor_spikes `+where, args, func(r *sql.Rows) error {
		var sp spike.Spike
		var start, end, detected int64
		var stories, samples string
		if err := r.Scan(&sp.ID, &sp.SearchID, &sp.Series, &start, &end, &sp.Count, &sp.Expected, &sp.Low, &sp.High,
			&sp.Score, &stories, &samples, &detected); err != nil {
			return err
		}
		sp.Start, sp.End, sp.DetectedAt = fromMillis(start), fromMillis(end), fromMillis(detected)
		if err := json.Unmarshal([]byte(stories), &sp.StoryIDs); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(samples), &sp.Samples); err != nil {
			return err
		}
		out = append(out, sp)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("spikes: %w", err)
	}
	return out, nil
}

// dashboardSpikes lists the searches' spikes of the last days, newest first.
func (s *Store) dashboardSpikes(ctx context.Context, d *monitor.Dashboard, sc dashboardScope) error {
	since := millis(sc.now.Add(-monitor.DashboardSpikeDays * 24 * time.Hour))
	err := s.each(ctx, `SELECT id, search_id, series, start_at, end_at, match_count, expected, score FROM monitor_spikes
		WHERE search_id IN (`+sc.searches+`) AND end_at >= $1 ORDER BY start_at DESC, id DESC LIMIT `+
		strconv.Itoa(monitor.DashboardSpikes), []any{since}, func(r *sql.Rows) error {
		var sp monitor.DashboardSpike
		var series string
		if err := r.Scan(&sp.ID, &sp.MonitorSearchID, &series, &sp.Start, &sp.End, &sp.Count, &sp.Expected, &sp.Score); err != nil {
			return err
		}
		sp.Kind, sp.Name = spike.Describe(series)
		sp.Start, sp.End = sp.Start/1000, sp.End/1000
		d.Spikes = append(d.Spikes, sp)
		return nil
	})
	if err != nil {
		return fmt.Errorf("dashboard spikes: %w", err)
	}
	return nil
}
