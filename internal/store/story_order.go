package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/sightline/sightline/internal/post"
)

// The stories of a cluster (docs/stories.md, "Where the state lives"). Every node keeps the
// stories' window in memory; on PostgreSQL, which the nodes of a cluster share, a node stores
// each batch under one cluster-wide lock, and before it gives the batch its stories it folds in
// the posts the other nodes stored since its last batch. Every node's window then holds every
// post stored before its batch, in one order that all of them agree on: a copy consumed on
// another node than its original joins its story as it would on one node.

// storyLockSQL takes the advisory lock a batch is stored under on PostgreSQL (726248, per
// database; the migrations' is 726247) for the transaction, with the transaction bounded
// against a client that is gone: idle in it for 20 seconds, or not answering keepalives for
// about 20.
const storyLockSQL = `SET LOCAL idle_in_transaction_session_timeout = '20s';
	SET LOCAL tcp_keepalives_idle = 10; SET LOCAL tcp_keepalives_interval = 5; SET LOCAL tcp_keepalives_count = 2;
	SELECT pg_advisory_xact_lock(726248)`

// SharesStories reports whether several nodes may store posts in this store (PostgreSQL), so
// that batches must be stored in story order (InsertPostsInStoryOrder). SQLite is one node's.
func (s *Store) SharesStories() bool { return s.dialect == Postgres }

// StoryCursor is the number of the last post stored in story order: read before a window is
// rebuilt from the store, it is where the first batch's fold starts, so that what other nodes
// store while the window is rebuilt is folded in too (the window skips what it has).
func (s *Store) StoryCursor(ctx context.Context) (int64, error) {
	if s.dialect != Postgres {
		return 0, nil
	}
	var last int64
	err := s.read.QueryRowContext(ctx, `SELECT COALESCE(MAX(story_seq), 0) FROM posts`).Scan(&last)
	return last, err
}

// The positions of a post's document and story in postRow.args on PostgreSQL.
var (
	docArg   = slices.Index(pgPostColumns, "doc")
	storyArg = slices.Index(pgPostColumns, "story_id")
)

// InsertPostsInStoryOrder stores posts as InsertPosts does, one batch of the cluster at a time
// (PostgreSQL). It calls fold with each post stored since after (a StoryCursor, or what the
// last call returned), in the order they were stored, then, under the cluster-wide lock, with
// those stored meanwhile, then assign on the batch, which gives each post its StoryID, and
// stores the batch, numbered after every post stored before. It returns the number of the last
// post it stored or folded (after when none) and how many posts were new. The posts are encoded
// (full-text vector and all) before the lock; under it only their documents are encoded again
// with their stories.
func (s *Store) InsertPostsInStoryOrder(ctx context.Context, posts []post.Post, after int64,
	fold func(p *post.Post), assign func(posts []post.Post)) (int64, int, error) {
	if s.dialect != Postgres {
		return after, 0, errors.New("store: posts are stored in story order on PostgreSQL only")
	}
	if len(posts) == 0 {
		return after, 0, nil
	}
	if err := s.ensurePartitionsFor(ctx, posts); err != nil {
		return after, 0, err
	}
	rows := make([]postRow, len(posts))
	parallel(len(posts), func(i int) { rows[i] = s.rowOf(posts[i]) })
	for i, row := range rows {
		if row.err != nil {
			return after, 0, fmt.Errorf("encode post %s: %w", posts[i].ID, row.err)
		}
	}
	// What is stored already is folded in before the lock, so that the lock is held for what the
	// other nodes store meanwhile only: numbers are taken under the lock, so once a number is
	// seen committed, every lower one that will ever be is committed too.
	after, err := s.foldCommitted(ctx, after, fold)
	if err != nil {
		return after, 0, err
	}
	last, inserted, err := s.storyOrdered(ctx, posts, rows, after, fold, assign)
	if isMissingPartition(err) {
		// Another node's retention dropped a day this store remembered: learn the days again.
		// The batch's stories are kept: assigning a post again gives it the story it has.
		s.partitions.Clear()
		if err := s.ensurePartitionsFor(ctx, posts); err != nil {
			return after, 0, err
		}
		last, inserted, err = s.storyOrdered(ctx, posts, rows, after, fold, assign)
	}
	if err != nil {
		return after, 0, err
	}
	s.noteInserted(posts)
	return last, inserted, nil
}

// storyOrdered is one attempt of InsertPostsInStoryOrder, in one transaction that holds the lock.
func (s *Store) storyOrdered(ctx context.Context, posts []post.Post, rows []postRow, after int64,
	fold func(p *post.Post), assign func(posts []post.Post)) (int64, int, error) {
	last, inserted := after, 0
	err := s.inPgxTx(ctx, func(tx pgx.Tx) error {
		// A transaction's lock ends with it, and so with the connection when the node dies. A
		// node whose machine vanishes closes no connection: the server ends the transaction
		// once it idles 20 seconds in it, or once the keepalives find no one there (the COPY waits for
		// the client while it runs), so that the other nodes do not wait hours for the lock.
		if _, err := tx.Exec(ctx, storyLockSQL); err != nil {
			return err
		}
		// The previous holder committed before it let go of the lock: its posts are read here.
		var err error
		if last, err = foldStored(ctx, tx, after, fold); err != nil {
			return err
		}
		assign(posts)
		parallel(len(posts), func(i int) {
			doc, err := json.Marshal(posts[i])
			rows[i].args[docArg], rows[i].args[storyArg], rows[i].err = string(doc), posts[i].StoryID, err
		})
		for i, row := range rows {
			if row.err != nil {
				return fmt.Errorf("encode post %s: %w", posts[i].ID, row.err)
			}
		}
		if err := stageRows(ctx, tx, rows); err != nil {
			return err
		}
		// Numbered in the staging table's order, the batch's: a freshly emptied table is read
		// in the order it was written.
		var top int64
		if err := tx.QueryRow(ctx, `WITH stored AS (INSERT INTO posts (`+pgIncomingColumns+`, story_seq) SELECT `+
			pgIncomingValues+`, nextval('posts_story_seq') FROM posts_incoming ON CONFLICT DO NOTHING RETURNING story_seq)
			SELECT COUNT(*), COALESCE(MAX(story_seq), 0) FROM stored`).Scan(&inserted, &top); err != nil {
			return err
		}
		last = max(last, top)
		return nil
	})
	if err != nil {
		return after, 0, err
	}
	return last, inserted, nil
}

// foldSQL reads the posts numbered after $1, in order.
const foldSQL = `SELECT story_seq, doc FROM posts WHERE story_seq > $1 ORDER BY story_seq`

// foldCommitted calls fold with each committed post numbered after after, in order, and
// returns the last number read (after when none).
func (s *Store) foldCommitted(ctx context.Context, after int64, fold func(p *post.Post)) (int64, error) {
	rows, err := s.read.QueryContext(ctx, foldSQL, after)
	if err != nil {
		return after, err
	}
	defer rows.Close()
	return foldRows(rows, after, fold)
}

// foldStored is foldCommitted inside the transaction that holds the lock.
func foldStored(ctx context.Context, tx pgx.Tx, after int64, fold func(p *post.Post)) (int64, error) {
	rows, err := tx.Query(ctx, foldSQL, after)
	if err != nil {
		return after, err
	}
	defer rows.Close()
	return foldRows(rows, after, fold)
}

// seqDocRows are foldSQL's rows, through database/sql or pgx.
type seqDocRows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

func foldRows(rows seqDocRows, after int64, fold func(p *post.Post)) (int64, error) {
	last := after
	for rows.Next() {
		var seq int64
		var doc string
		if err := rows.Scan(&seq, &doc); err != nil {
			return last, err
		}
		if err := foldDoc(seq, doc, fold); err != nil {
			return last, err
		}
		last = seq
	}
	return last, rows.Err()
}

func foldDoc(seq int64, doc string, fold func(p *post.Post)) error {
	var p post.Post
	if err := json.Unmarshal([]byte(doc), &p); err != nil {
		return fmt.Errorf("fold post %d: %w", seq, err)
	}
	fold(&p)
	return nil
}
