package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"

	"github.com/sightline/sightline/internal/monitor"
)

// The dashboard's aggregates (migration 0012): counts per saved search and hour or day, added in
// the transaction that stores the matches and removed with them by retention.

type hourKey struct {
	search, hour int64
	provider     string
}

type threatKey struct {
	search, day int64
	bucket      int
}

type placeKey struct {
	search, day       int64
	name, countryCode string
	lat, lon          float64
}

// threatBucket is the tenth of a score from 0 to 100 the threat widget counts it in; 100 falls
// in the last.
func threatBucket(score int) int {
	return min(max(score, 0), 99) / 10
}

// countMatches adds new matches to the aggregates. Rows are written in key order so that two
// nodes storing matches of the same searches at once take their row locks in the same order.
func (s *Store) countMatches(ctx context.Context, tx *sql.Tx, created []monitor.Match) error {
	if len(created) == 0 {
		return nil
	}
	hours, threats, places := map[hourKey]int64{}, map[threatKey]int64{}, map[placeKey]int64{}
	stored := map[[2]int64]int64{} // search, hour
	quarters := map[quarterKey]int64{}
	for _, m := range created {
		for _, series := range spikeSeriesOf(m) {
			quarters[quarterKey{m.SearchID, series, millis(m.PublishedAt) / quarterMillis}]++
		}
		stored[[2]int64{m.SearchID, millis(m.CreatedAt) / hourMillis}]++
		published := millis(m.PublishedAt)
		day := published / dayMillis
		hours[hourKey{m.SearchID, published / hourMillis, m.Provider}]++
		threats[threatKey{m.SearchID, day, threatBucket(m.ThreatScore)}]++
		for _, p := range m.Places {
			places[placeKey{m.SearchID, day, p.Name, p.CountryCode, p.Point.Lat, p.Point.Lon}]++
		}
	}
	err := upsertCounts(ctx, tx, s, "monitor_match_hours", "search_id, hour, provider", hours,
		func(a, b hourKey) int {
			return cmp.Or(cmp.Compare(a.search, b.search), cmp.Compare(a.hour, b.hour), cmp.Compare(a.provider, b.provider))
		},
		func(k hourKey, arg func(any) string) string {
			return strconv.FormatInt(k.search, 10) + ", " + strconv.FormatInt(k.hour, 10) + ", " + arg(k.provider)
		})
	if err != nil {
		return fmt.Errorf("count matches by hour: %w", err)
	}
	err = upsertCounts(ctx, tx, s, "monitor_match_stored_hours", "search_id, hour", stored,
		func(a, b [2]int64) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) },
		func(k [2]int64, _ func(any) string) string {
			return strconv.FormatInt(k[0], 10) + ", " + strconv.FormatInt(k[1], 10)
		})
	if err != nil {
		return fmt.Errorf("count matches by stored hour: %w", err)
	}
	err = upsertCounts(ctx, tx, s, "monitor_match_threat_days", "search_id, day, bucket", threats,
		func(a, b threatKey) int {
			return cmp.Or(cmp.Compare(a.search, b.search), cmp.Compare(a.day, b.day), cmp.Compare(a.bucket, b.bucket))
		},
		func(k threatKey, _ func(any) string) string {
			return strconv.FormatInt(k.search, 10) + ", " + strconv.FormatInt(k.day, 10) + ", " + strconv.Itoa(k.bucket)
		})
	if err != nil {
		return fmt.Errorf("count matches by threat: %w", err)
	}
	err = upsertCounts(ctx, tx, s, "monitor_match_place_days", "search_id, day, name, country_code, lat, lon", places,
		func(a, b placeKey) int {
			return cmp.Or(cmp.Compare(a.search, b.search), cmp.Compare(a.day, b.day), cmp.Compare(a.name, b.name),
				cmp.Compare(a.countryCode, b.countryCode), cmp.Compare(a.lat, b.lat), cmp.Compare(a.lon, b.lon))
		},
		func(k placeKey, arg func(any) string) string {
			return strconv.FormatInt(k.search, 10) + ", " + strconv.FormatInt(k.day, 10) + ", " + arg(k.name) + ", " +
				arg(k.countryCode) + ", " + arg(k.lat) + ", " + arg(k.lon)
		})
	if err != nil {
		return fmt.Errorf("count matches by place: %w", err)
	}
	return s.countQuarters(ctx, tx, quarters)
}

// countRowsPerStatement bounds a statement's rows and so its bound parameters (six a place row).
const countRowsPerStatement = 150

// upsertCounts adds each key's count to the match_count of table, whose primary key is columns;
// values writes a key's columns, binding text through arg.
func upsertCounts[K comparable](ctx context.Context, tx *sql.Tx, s *Store, table, columns string, counts map[K]int64,
	compare func(a, b K) int, values func(K, func(any) string) string) error {
	keys := make([]K, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compare)
	for chunk := range slices.Chunk(keys, countRowsPerStatement) {
		var args []any
		arg := func(v any) string {
			args = append(args, v)
			return s.sql.param(len(args))
		}
		q := []byte("INSERT INTO " + table + " (" + columns + ", match_count) VALUES ")
		for i, k := range chunk {
			if i > 0 {
				q = append(q, ", "...)
			}
			q = append(q, '(')
			q = append(q, values(k, arg)...)
			q = append(q, ", "...)
			q = strconv.AppendInt(q, counts[k], 10)
			q = append(q, ')')
		}
		q = append(q, " ON CONFLICT ("+columns+") DO UPDATE SET match_count = "+table+".match_count + excluded.match_count"...)
		if _, err := tx.ExecContext(ctx, string(q), args...); err != nil {
			return err
		}
	}
	return nil
}

// forgetCountsBefore removes the aggregates of days before day, which retention has emptied.
func (s *Store) forgetCountsBefore(ctx context.Context, day int64) error {
	for q, before := range map[string]int64{
		`DELETE FROM monitor_match_hours WHERE hour < $1`:       day * 24,
		`DELETE FROM monitor_match_threat_days WHERE day < $1`:  day,
		`DELETE FROM monitor_match_place_days WHERE day < $1`:   day,
		`DELETE FROM monitor_match_quarters WHERE quarter < $1`: day * dayMillis / quarterMillis,
		`DELETE FROM monitor_spikes WHERE end_at < $1`:          day * dayMillis,
	} {
		if _, err := s.write.ExecContext(ctx, q, before); err != nil {
			return fmt.Errorf("forget dashboard counts: %w", err)
		}
	}
	return nil
}
