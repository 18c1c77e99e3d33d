package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
)

// InsertMatches stores matches that are not stored yet and returns the new ones with their ids.
// A (search, post) pair already stored is left alone, so a post that arrives twice is matched once.
func (s *Store) InsertMatches(ctx context.Context, matches []monitor.Match) ([]monitor.Match, error) {
	var created []monitor.Match
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		created = created[:0]
		now := time.Now().UTC()
		for chunk := range slices.Chunk(matches, matchRowsPerInsert) {
			made, err := s.insertMatchRows(ctx, tx, chunk, now)
			if err != nil {
				return err
			}
			created = append(created, made...)
		}
		return s.countMatches(ctx, tx, created)
	})
	return created, err
}

// StoredMatches returns those of the given matches that are stored already and were created
// at or after since, each with its id and creation time. The percolator asks after a batch
// whose matches existed: a batch run again after its node died.
func (s *Store) StoredMatches(ctx context.Context, matches []monitor.Match, since time.Time) ([]monitor.Match, error) {
	type key struct {
		search int64
		post   string
	}
	var found []monitor.Match
	for chunk := range slices.Chunk(matches, matchRowsPerInsert) {
		q := []byte(`SELECT id, search_id, post_id, created_at FROM monitor_matches WHERE created_at >= `)
		q = strconv.AppendInt(q, millis(since), 10)
		q = append(q, ` AND (search_id, post_id) IN (VALUES `...)
		args := make([]any, 0, len(chunk))
		wanted := make(map[key]monitor.Match, len(chunk))
		for i, m := range chunk {
			if i > 0 {
				q = append(q, ", "...)
			}
			args = append(args, m.PostID)
			q = append(q, '(')
			q = strconv.AppendInt(q, m.SearchID, 10)
			q = append(q, ", "+s.sql.param(len(args))+")"...)
			wanted[key{m.SearchID, m.PostID}] = m
		}
		q = append(q, ") ORDER BY id"...)
		rows, err := s.read.QueryContext(ctx, string(q), args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id, createdAt int64
			var k key
			if err := rows.Scan(&id, &k.search, &k.post, &createdAt); err != nil {
				rows.Close()
				return nil, err
			}
			m := wanted[k]
			m.ID, m.CreatedAt = id, fromMillis(createdAt)
			found = append(found, m)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	return found, nil
}

// matchRowsPerInsert rows go in one statement: one statement for many rows is what makes a busy
// stream's matches cheap to store.
const matchRowsPerInsert = 200

// insertMatchRows inserts rows with one statement and returns the new ones in the given order.
// Numbers and booleans are written inline, only the two text columns are bound: the SQLite
// driver's binding cost grows with the square of a statement's parameters.
func (s *Store) insertMatchRows(ctx context.Context, tx *sql.Tx, rows []monitor.Match, now time.Time) ([]monitor.Match, error) {
	q := []byte(`INSERT INTO monitor_matches (search_id, organization_id, published_at, discovered_at,
		created_at, threat_score, has_images, has_videos, has_location, backfilled, post_id, provider) VALUES `)
	args := make([]any, 0, 2*len(rows))
	type key struct {
		search int64
		post   string
	}
	position := make(map[key]int, len(rows))
	for i, m := range rows {
		if i > 0 {
			q = append(q, ", "...)
		}
		q = append(q, '(')
		for _, n := range []int64{m.SearchID, m.OrganizationID, millis(m.PublishedAt), millis(m.DiscoveredAt), millis(now), int64(m.ThreatScore)} {
			q = strconv.AppendInt(q, n, 10)
			q = append(q, ", "...)
		}
		for _, b := range []bool{m.HasImages, m.HasVideos, m.HasLocation, m.Backfilled} {
			q = append(q, strings.ToUpper(strconv.FormatBool(b))...)
			q = append(q, ", "...)
		}
		args = append(args, m.PostID, m.Provider)
		q = append(q, s.sql.param(len(args)-1)+", "+s.sql.param(len(args))+")"...)
		if _, seen := position[key{m.SearchID, m.PostID}]; !seen {
			position[key{m.SearchID, m.PostID}] = i
		}
	}
	q = append(q, ` ON CONFLICT (search_id, post_id) DO NOTHING RETURNING id, search_id, post_id`...)
	result, err := tx.QueryContext(ctx, string(q), args...)
	if err != nil {
		return nil, err
	}
	defer result.Close()
	ids := make(map[int]int64, len(rows)) // position → new id
	for result.Next() {
		var id int64
		var k key
		if err := result.Scan(&id, &k.search, &k.post); err != nil {
			return nil, err
		}
		ids[position[k]] = id
	}
	if err := result.Err(); err != nil {
		return nil, err
	}
	created := make([]monitor.Match, 0, len(ids))
	for i, m := range rows {
		if id, ok := ids[i]; ok {
			m.ID, m.CreatedAt = id, now
			created = append(created, m)
		}
	}
	return created, nil
}

// inboxSelection is a MatchQuery as SQL: FROM and WHERE with their arguments.
func (s *Store) inboxSelection(q monitor.MatchQuery) (from string, where []string, args []any) {
	return s.matchFilter(q, true)
}

// matchSelection is inboxSelection without the posts, unless the text filter reads them.
func (s *Store) matchSelection(q monitor.MatchQuery) (from string, where []string, args []any) {
	return s.matchFilter(q, strings.TrimSpace(q.Text) != "")
}

func (s *Store) matchFilter(q monitor.MatchQuery, withPosts bool) (from string, where []string, args []any) {
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	postJoin := s.sql.postJoin("m")
	from = `monitor_matches m`
	if withPosts {
		from += ` JOIN posts p ON ` + postJoin
	}
	from += ` LEFT JOIN monitor_match_states st ON st.match_id = m.id AND st.user_id = ` + arg(q.UserID)
	where = append(where, "m.search_id IN ("+idList(q.SearchIDs)+")")
	if !q.IncludeDeleted {
		where = append(where, "COALESCE(st.is_deleted, FALSE) = FALSE")
	}
	if q.Images {
		where = append(where, "m.has_images")
	}
	if q.Video {
		where = append(where, "m.has_videos")
	}
	if q.Location {
		where = append(where, "m.has_location")
	}
	if q.Unread {
		where = append(where, "COALESCE(st.is_read, FALSE) = FALSE")
	}
	if !q.UpTo.IsZero() {
		where = append(where, "m.created_at <= "+arg(millis(q.UpTo)))
	}
	if !q.Since.IsZero() {
		where = append(where, "m.created_at > "+arg(millis(q.Since)))
	}
	if q.Flagged {
		where = append(where, "COALESCE(st.is_flagged, FALSE) = TRUE")
	}
	if q.StoryID != "" {
		// The story's posts by the posts_story index (whose condition is written out so that
		// SQLite uses it), and a post stored before stories, which is a story of its own.
		story := arg(q.StoryID)
		where = append(where, "m.post_id IN (SELECT id FROM posts WHERE story_id = "+story+" AND story_id <> ''"+
			" UNION ALL SELECT id FROM posts WHERE id = "+story+" AND story_id = '')")
	}
	if len(q.Providers) > 0 {
		in := make([]string, len(q.Providers))
		for i, p := range q.Providers {
			in[i] = arg(p)
		}
		where = append(where, "m.provider IN ("+strings.Join(in, ", ")+")")
	}
	if text := strings.TrimSpace(q.Text); text != "" {
		in := q.SearchIn
		if len(in) == 0 {
			in = []string{monitor.InTitleText, monitor.InAuthorName, monitor.InAuthorScreenName}
		}
		var any []string
		for _, field := range in {
			switch field {
			case monitor.InTitleText:
				tokens := query.Tokens(text)
				if len(tokens) == 0 {
					continue
				}
				any = append(any, s.sql.allTokens(tokens, arg))
			case monitor.InAuthorName:
				any = append(any, "LOWER(p.author_name) LIKE "+arg("%"+likeEscape(strings.ToLower(text))+"%")+" ESCAPE '\\'")
			case monitor.InAuthorScreenName:
				any = append(any, "LOWER(p.author_screen_name) LIKE "+arg("%"+likeEscape(strings.ToLower(strings.TrimPrefix(text, "@")))+"%")+" ESCAPE '\\'")
			}
		}
		if len(any) > 0 {
			where = append(where, "("+strings.Join(any, " OR ")+")")
		}
	}
	return from, where, args
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Inbox returns a page of a user's matches with their posts, and how many the query selects.
func (s *Store) Inbox(ctx context.Context, q monitor.MatchQuery) ([]monitor.InboxItem, int64, error) {
	if len(q.SearchIDs) == 0 {
		return nil, 0, nil
	}
	var total int64
	if !q.SkipTotal {
		var err error
		if total, err = s.inboxTotal(ctx, q); err != nil {
			return nil, 0, fmt.Errorf("count inbox: %w", err)
		}
	}
	ids, err := s.inboxPage(ctx, q)
	if err != nil || len(ids) == 0 {
		return nil, total, err
	}
	items, err := s.inboxByID(ctx, q.UserID, ids)
	if err != nil {
		return nil, 0, err
	}
	at := make(map[int64]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	slices.SortFunc(items, func(a, b monitor.InboxItem) int { return at[a.ID] - at[b.ID] })
	return items, total, nil
}

// inboxTotal counts what a query selects. Kept counts answer the common views without reading
// the matches: MatchCounts the plain inbox and its unread view, the dashboard's hourly counts
// (less the user's deleted matches) a choice of data sources. Other filters count the matches,
// joined to their posts only when the text filter needs them.
func (s *Store) inboxTotal(ctx context.Context, q monitor.MatchQuery) (int64, error) {
	// The kept counts are of every match made so far; a bound in time counts the matches.
	media := q.Images || q.Video || q.Location || q.Flagged || strings.TrimSpace(q.Text) != "" || !q.UpTo.IsZero() || !q.Since.IsZero() ||
		q.StoryID != ""
	switch {
	case !media && len(q.Providers) == 0 && !(q.Unread && q.IncludeDeleted):
		counts, err := s.MatchCounts(ctx, q.UserID, q.SearchIDs, nil)
		if err != nil {
			return 0, err
		}
		var total int64
		for _, c := range counts {
			switch {
			case q.Unread:
				total += c.UnreadCount
			case q.IncludeDeleted:
				total += c.TotalCount + c.DeletedCount
			default:
				total += c.TotalCount
			}
		}
		return total, nil
	case !media && len(q.Providers) > 0 && !q.Unread:
		return s.providerTotal(ctx, q)
	}
	from, where, args := s.matchSelection(q)
	var total int64
	err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+from+` WHERE `+strings.Join(where, " AND "), args...).Scan(&total)
	return total, err
}

// providerTotal counts the matches of the query's data sources from monitor_match_hours, less
// those the user deleted unless the query includes them.
func (s *Store) providerTotal(ctx context.Context, q monitor.MatchQuery) (int64, error) {
	var args []any
	in := make([]string, len(q.Providers))
	for i, p := range q.Providers {
		args = append(args, p)
		in[i] = "$" + strconv.Itoa(len(args))
	}
	providers := strings.Join(in, ", ")
	user := ""
	if !q.IncludeDeleted {
		args = append(args, q.UserID)
		user = "$" + strconv.Itoa(len(args))
	}
	var total int64
	for ids := range slices.Chunk(q.SearchIDs, idsPerStatement) {
		chunk := idList(ids)
		count := `SELECT COALESCE((SELECT SUM(match_count) FROM monitor_match_hours
			WHERE search_id IN (` + chunk + `) AND provider IN (` + providers + `)), 0)`
		if user != "" {
			count += ` - (SELECT COUNT(*) FROM monitor_match_states st JOIN monitor_matches m ON m.id = st.match_id
				WHERE st.user_id = ` + user + ` AND st.search_id IN (` + chunk + `) AND st.is_deleted
				AND m.provider IN (` + providers + `))`
		}
		var n int64
		if err := s.read.QueryRowContext(ctx, count, args...).Scan(&n); err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// searchesPerUnion bounds the per-search reads in one statement (SQLite allows 500).
const searchesPerUnion = 100

// inboxPage returns the ids of a page of matches in the query's order. Each search's matches
// are read from its own (search_id, time) index, offset+limit of them at most, and the
// searches merged here: one ORDER BY over all the chosen searches would sort every match.
func (s *Store) inboxPage(ctx context.Context, q monitor.MatchQuery) ([]int64, error) {
	column, direction, before := "published_at", "DESC", "<"
	switch q.Sort {
	case post.SortPublishedAsc:
		direction, before = "ASC", ">"
	case post.SortDiscoveredDesc:
		column = "discovered_at"
	case post.SortDiscoveredAsc:
		column, direction, before = "discovered_at", "ASC", ">"
	}
	from, where, args := s.matchSelection(monitor.MatchQuery{UserID: q.UserID, Images: q.Images, Video: q.Video,
		Location: q.Location, Unread: q.Unread, Flagged: q.Flagged, Providers: q.Providers, Text: q.Text,
		SearchIn: q.SearchIn, StoryID: q.StoryID, IncludeDeleted: q.IncludeDeleted})
	where = where[1:] // the selection's search list: each read names its one search
	if q.After != nil {
		args = append(args, millis(q.After.At), q.After.ID)
		// A row value comparison, which both databases read as one range on the index.
		where = append(where, fmt.Sprintf("(m.%s, m.id) %s ($%d, $%d)", column, before, len(args)-1, len(args)))
	}
	filter := ""
	if len(where) > 0 {
		filter = " AND " + strings.Join(where, " AND ")
	}
	type row struct{ id, at int64 }
	var merged []row
	n := q.Offset + q.Limit
	for chunk := range slices.Chunk(q.SearchIDs, searchesPerUnion) {
		reads := make([]string, len(chunk))
		for i, id := range chunk {
			reads[i] = fmt.Sprintf(`SELECT * FROM (SELECT m.id, m.%s FROM %s WHERE m.search_id = %d%s
				ORDER BY m.%s %s, m.id %s LIMIT %d) r%d`, column, from, id, filter, column, direction, direction, n, i)
		}
		rows, err := s.read.QueryContext(ctx, strings.Join(reads, " UNION ALL "), args...)
		if err != nil {
			return nil, fmt.Errorf("inbox: %w", err)
		}
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.id, &r.at); err != nil {
				rows.Close()
				return nil, err
			}
			merged = append(merged, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(merged, func(a, b row) int {
		c := cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.id, b.id))
		if direction == "DESC" {
			return -c
		}
		return c
	})
	merged = merged[min(q.Offset, len(merged)):min(n, len(merged))]
	ids := make([]int64, len(merged))
	for i, r := range merged {
		ids[i] = r.id
	}
	return ids, nil
}

const inboxColumns = `m.id, m.search_id, m.organization_id, m.post_id, m.published_at, m.discovered_at, m.created_at,
	m.has_images, m.has_videos, m.has_location, m.provider, COALESCE(st.is_read, FALSE),
	COALESCE(st.is_flagged, FALSE), COALESCE(st.is_deleted, FALSE), p.doc`

func (s *Store) inboxRows(ctx context.Context, q string, args ...any) ([]monitor.InboxItem, error) {
	rows, err := s.read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("inbox: %w", err)
	}
	defer rows.Close()
	var out []monitor.InboxItem
	for rows.Next() {
		var it monitor.InboxItem
		var published, discovered, created int64
		var doc string
		if err := rows.Scan(&it.ID, &it.SearchID, &it.OrganizationID, &it.PostID, &published, &discovered, &created,
			&it.HasImages, &it.HasVideos, &it.HasLocation, &it.Provider, &it.State.IsRead, &it.State.IsFlagged,
			&it.State.IsDeleted, &doc); err != nil {
			return nil, err
		}
		it.PublishedAt, it.DiscoveredAt, it.CreatedAt = fromMillis(published), fromMillis(discovered), fromMillis(created)
		if err := json.Unmarshal([]byte(doc), &it.Post); err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, s.hideRemovedInboxPlaces(ctx, out)
}

// InboxByIDs returns the given matches (of the given searches only) with the user's state.
func (s *Store) InboxByIDs(ctx context.Context, userID int64, searchIDs, matchIDs []int64) ([]monitor.InboxItem, error) {
	if len(searchIDs) == 0 || len(matchIDs) == 0 {
		return nil, nil
	}
	items, err := s.inboxByID(ctx, userID, matchIDs)
	if err != nil {
		return nil, err
	}
	items = slices.DeleteFunc(items, func(it monitor.InboxItem) bool { return !slices.Contains(searchIDs, it.SearchID) })
	slices.SortFunc(items, func(a, b monitor.InboxItem) int { return cmp.Compare(a.ID, b.ID) })
	return items, nil
}

// inboxByID reads matches by id with their posts and the user's state. The caller keeps them to
// the searches it may show: a search list in the statement would lead SQLite to walk those
// searches' index instead of looking the ids up.
func (s *Store) inboxByID(ctx context.Context, userID int64, ids []int64) ([]monitor.InboxItem, error) {
	postJoin := s.sql.postJoin("m")
	var out []monitor.InboxItem
	for chunk := range slices.Chunk(ids, idsPerStatement) {
		items, err := s.inboxRows(ctx, `SELECT `+inboxColumns+` FROM monitor_matches m JOIN posts p ON `+postJoin+`
			LEFT JOIN monitor_match_states st ON st.match_id = m.id AND st.user_id = $1
			WHERE m.id IN (`+idList(chunk)+`)`, userID)
		if err != nil {
			return nil, err
		}
		out = append(out, items...)
	}
	return out, nil
}

// InboxStories groups the matches a query selects by the story of their posts (a post stored
// before stories existed is a story of its own): a page of stories, the one with the newest
// match first, with their count of selected matches and newest match; and how many stories.
func (s *Store) InboxStories(ctx context.Context, q monitor.MatchQuery) ([]monitor.StoryRow, int64, error) {
	if len(q.SearchIDs) == 0 {
		return nil, 0, nil
	}
	from, where, args := s.matchFilter(q, true)
	grouped := `FROM ` + from + ` WHERE ` + strings.Join(where, " AND ") + ` GROUP BY COALESCE(NULLIF(p.story_id, ''), p.id)`
	var total int64
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 `+grouped+`) g`, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count inbox stories: %w", err)
	}
	args = append(args, q.Limit, q.Offset)
	rows, err := s.read.QueryContext(ctx, `SELECT COALESCE(NULLIF(p.story_id, ''), p.id), COUNT(*), MAX(m.id) `+grouped+
		fmt.Sprintf(` ORDER BY 3 DESC LIMIT $%d OFFSET $%d`, len(args)-1, len(args)), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("inbox stories: %w", err)
	}
	defer rows.Close()
	var out []monitor.StoryRow
	for rows.Next() {
		var r monitor.StoryRow
		if err := rows.Scan(&r.StoryID, &r.MatchCount, &r.NewestID); err != nil {
			return nil, 0, err
		}
		out = append(out, r)
	}
	return out, total, rows.Err()
}

// MatchIDs lists the ids of the matches a query selects (for the "all" actions), with the
// search each belongs to.
func (s *Store) MatchIDs(ctx context.Context, q monitor.MatchQuery) (map[int64]int64, error) {
	if len(q.SearchIDs) == 0 {
		return nil, nil
	}
	from, where, args := s.matchSelection(q)
	rows, err := s.read.QueryContext(ctx, `SELECT m.id, m.search_id FROM `+from+` WHERE `+strings.Join(where, " AND "), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]int64{}
	for rows.Next() {
		var id, search int64
		if err := rows.Scan(&id, &search); err != nil {
			return nil, err
		}
		out[id] = search
	}
	return out, rows.Err()
}

// idsPerStatement bounds the id lists written into one statement.
const idsPerStatement = 500

// MatchSearches returns the search of each of the given matches.
func (s *Store) MatchSearches(ctx context.Context, matchIDs []int64) (map[int64]int64, error) {
	out := map[int64]int64{}
	for chunk := range slices.Chunk(matchIDs, idsPerStatement) {
		rows, err := s.read.QueryContext(ctx, `SELECT id, search_id FROM monitor_matches WHERE id IN (`+idList(chunk)+`)`)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id, search int64
			if err := rows.Scan(&id, &search); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = search
		}
		rows.Close()
	}
	return out, nil
}

// SetMatchState sets one state field (monitor.FieldRead, FieldFlagged or FieldDeleted) of the
// matches for the user and returns how many changed.
func (s *Store) SetMatchState(ctx context.Context, userID int64, matchIDs []int64, field string, value bool) (int64, error) {
	switch field {
	case monitor.FieldRead, monitor.FieldFlagged, monitor.FieldDeleted:
	default:
		return 0, fmt.Errorf("store: unknown match state field %q", field)
	}
	var changed int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		now := millis(time.Now())
		for chunk := range slices.Chunk(matchIDs, idsPerStatement) {
			// The state carries its match's search, for the triggers that keep monitor_state_counts.
			res, err := tx.ExecContext(ctx, `INSERT INTO monitor_match_states (match_id, user_id, search_id, `+field+`, updated_at)
				SELECT id, $1, search_id, $2, $3 FROM monitor_matches WHERE id IN (`+idList(chunk)+`)
				ON CONFLICT (match_id, user_id) DO UPDATE SET `+field+` = excluded.`+field+`,
				updated_at = excluded.updated_at WHERE monitor_match_states.`+field+` <> excluded.`+field,
				userID, value, now)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			changed += n
		}
		return nil
	})
	return changed, err
}

// MatchCounts returns the user's counts for each of the searches that has matches; the caller
// has chosen the searches the user may see. Given providers, it counts their matches only (a
// user whose subscriptions do not reach every provider).
func (s *Store) MatchCounts(ctx context.Context, userID int64, searchIDs []int64, providers []string) (map[int64]monitor.Counts, error) {
	out := map[int64]monitor.Counts{}
	if len(searchIDs) == 0 {
		return out, nil
	}
	if len(providers) > 0 {
		return s.providerCounts(ctx, userID, searchIDs, providers)
	}
	// Totals come from the dashboard's hourly counts, kept as matches are stored and expired (a
	// few thousand rows a search, where counting read one index entry a match); the user's
	// read, deleted and flagged matches from monitor_state_counts, one row a search.
	for ids := range slices.Chunk(searchIDs, idsPerStatement) {
		chunk := idList(ids)
		rows, err := s.read.QueryContext(ctx, `SELECT search_id, SUM(match_count) FROM monitor_match_hours
			WHERE search_id IN (`+chunk+`) GROUP BY search_id HAVING SUM(match_count) > 0`)
		if err != nil {
			return nil, err
		}
		if err := readTotals(rows, out); err != nil {
			return nil, err
		}
		rows, err = s.read.QueryContext(ctx, `SELECT search_id, read_count, deleted_count, flagged_count
			FROM monitor_state_counts WHERE user_id = $1 AND search_id IN (`+chunk+`)`, userID)
		if err != nil {
			return nil, err
		}
		if err := applyStateCounts(rows, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readTotals puts the totals per search (rows of search_id, total) in out, all unread until
// applyStateCounts says otherwise, and closes rows.
func readTotals(rows *sql.Rows, out map[int64]monitor.Counts) error {
	defer rows.Close()
	for rows.Next() {
		var id int64
		var c monitor.Counts
		if err := rows.Scan(&id, &c.TotalCount); err != nil {
			return err
		}
		c.UnreadCount = c.TotalCount
		out[id] = c
	}
	return rows.Err()
}

// applyStateCounts takes a user's read, deleted and flagged counts per search (rows of
// search_id, read, deleted, flagged) off the totals in out, and closes rows.
func applyStateCounts(rows *sql.Rows, out map[int64]monitor.Counts) error {
	defer rows.Close()
	for rows.Next() {
		var id, read, deleted, flagged int64
		if err := rows.Scan(&id, &read, &deleted, &flagged); err != nil {
			return err
		}
		c := out[id]
		c.TotalCount -= deleted
		c.UnreadCount = c.TotalCount - read
		c.DeletedCount, c.FlaggedCount = deleted, flagged
		out[id] = c
	}
	return rows.Err()
}

// providerCounts is MatchCounts over some providers' matches: totals from the hourly counts of
// those providers, the user's states from their matches' rows (the kept per-search state counts
// do not say which provider a state's match is of).
func (s *Store) providerCounts(ctx context.Context, userID int64, searchIDs []int64, providers []string) (map[int64]monitor.Counts, error) {
	out := map[int64]monitor.Counts{}
	// The providers are $1 to $n in the first statement, $2 to $n+1 after the user in the second.
	names := make([]any, len(providers))
	inFirst, inSecond := make([]string, len(providers)), make([]string, len(providers))
	for i, p := range providers {
		names[i] = p
		inFirst[i], inSecond[i] = "$"+strconv.Itoa(i+1), "$"+strconv.Itoa(i+2)
	}
	for ids := range slices.Chunk(searchIDs, idsPerStatement) {
		chunk := idList(ids)
		rows, err := s.read.QueryContext(ctx, `SELECT search_id, SUM(match_count) FROM monitor_match_hours
			WHERE search_id IN (`+chunk+`) AND provider IN (`+strings.Join(inFirst, ", ")+`)
			GROUP BY search_id HAVING SUM(match_count) > 0`, names...)
		if err != nil {
			return nil, err
		}
		if err := readTotals(rows, out); err != nil {
			return nil, err
		}
		rows, err = s.read.QueryContext(ctx, `SELECT st.search_id,
			SUM(CASE WHEN st.is_read AND NOT st.is_deleted THEN 1 ELSE 0 END),
			SUM(CASE WHEN st.is_deleted THEN 1 ELSE 0 END),
			SUM(CASE WHEN st.is_flagged AND NOT st.is_deleted THEN 1 ELSE 0 END)
			FROM monitor_match_states st JOIN monitor_matches m ON m.id = st.match_id
			WHERE st.user_id = $1 AND st.search_id IN (`+chunk+`) AND m.provider IN (`+strings.Join(inSecond, ", ")+`)
			GROUP BY st.search_id`, append([]any{userID}, names...)...)
		if err != nil {
			return nil, err
		}
		if err := applyStateCounts(rows, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DeleteMatchesBefore removes matches of posts published before the UTC day of cutoff, in short
// transactions, and the dashboard's day and hour counts of those days with them.
func (s *Store) DeleteMatchesBefore(ctx context.Context, cutoff time.Time) (int64, error) {
	day := millis(cutoff) / dayMillis
	n, err := s.deleteInChunks(ctx, `DELETE FROM monitor_matches WHERE id IN
		(SELECT id FROM monitor_matches WHERE published_at < $1 LIMIT $2)`, day*dayMillis)
	if err != nil {
		return n, err
	}
	return n, s.forgetCountsBefore(ctx, day)
}

// deleteInChunks runs a delete of at most $2 rows older than $1 until it deletes fewer than a
// chunk, each in its own short transaction.
func (s *Store) deleteInChunks(ctx context.Context, query string, cutoff int64) (int64, error) {
	var total int64
	for {
		res, err := s.write.ExecContext(ctx, query, cutoff, retentionChunk)
		if err != nil {
			return total, err
		}
		n, _ := res.RowsAffected()
		total += n
		if n < retentionChunk {
			return total, nil
		}
	}
}

// ThreadPosts returns the stored posts of a thread that a user of the tenant may see, oldest
// first.
func (s *Store) ThreadPosts(ctx context.Context, threadID string, tenant int64, limit int) ([]post.Post, error) {
	thread, err := postDocs(s.read.QueryContext(ctx, `SELECT doc FROM posts WHERE thread_id = $1 AND tenant_id IN (0, $2)
		ORDER BY published_at, id LIMIT $3`, threadID, tenant, limit))
	if err != nil {
		return nil, err
	}
	return thread, s.hideRemovedPlaces(ctx, tenant, pointers(thread)...)
}

// SearchAudience loads the facts of a search's audience.
func (s *Store) SearchAudience(ctx context.Context, searchID int64) (monitor.Audience, error) {
	a := monitor.Audience{GroupShares: map[int64]string{}, ShareRoles: map[int64]string{}, Detached: map[int64]bool{},
		GroupGone: map[int64]bool{}, Streaming: map[int64]bool{}}
	var err error
	if a.Search, err = s.Search(ctx, searchID); err != nil {
		return a, err
	}
	if a.Group, err = s.Group(ctx, a.Search.GroupID); err != nil {
		return a, err
	}
	rows, err := s.read.QueryContext(ctx, `SELECT u.id, u.is_inbox_streaming_enabled FROM memberships m
		JOIN users u ON u.id = m.user_id WHERE m.organization_id = $1`, a.Search.OrganizationID)
	if err != nil {
		return a, err
	}
	for rows.Next() {
		var id int64
		var streaming bool
		if err := rows.Scan(&id, &streaming); err != nil {
			rows.Close()
			return a, err
		}
		a.Members = append(a.Members, id)
		a.Streaming[id] = streaming
	}
	rows.Close()
	for _, q := range []struct {
		sql  string
		args []any
		role map[int64]string
		flag map[int64]bool
	}{
		{`SELECT user_id, role FROM monitor_group_shares WHERE group_id = $1`, []any{a.Group.ID}, a.GroupShares, nil},
		{`SELECT user_id, role FROM monitor_search_shares WHERE search_id = $1`, []any{searchID}, a.ShareRoles, nil},
		{`SELECT user_id, '' FROM monitor_detachments WHERE kind = 'search' AND item_id = $1`, []any{searchID}, nil, a.Detached},
		{`SELECT user_id, '' FROM monitor_detachments WHERE kind = 'group' AND item_id = $1`, []any{a.Group.ID}, nil, a.GroupGone},
	} {
		rows, err := s.read.QueryContext(ctx, q.sql, q.args...)
		if err != nil {
			return a, err
		}
		for rows.Next() {
			var id int64
			var role string
			if err := rows.Scan(&id, &role); err != nil {
				rows.Close()
				return a, err
			}
			if q.role != nil {
				q.role[id] = role
			} else {
				q.flag[id] = true
			}
		}
		rows.Close()
	}
	return a, nil
}

// SetSearchLimitFlags records that a search exceeded its streaming or firehose limit.
func (s *Store) SetSearchLimitFlags(ctx context.Context, searchID int64, streamingLower, streamingUpper, gnipLower, gnipUpper bool) error {
	_, err := s.write.ExecContext(ctx, `UPDATE monitor_searches SET streaming_lower_limit_exceeded = $1,
		streaming_upper_limit_exceeded = $2, gnip_lower_limit_exceeded = $3, gnip_upper_limit_exceeded = $4
		WHERE id = $5`, streamingLower, streamingUpper, gnipLower, gnipUpper, searchID)
	return err
}
