package connector

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// CursorSaver saves a streaming source's cursor without writing on every event: Save writes at
// most once per Every, Flush whenever the cursor moved since the last write. A failed write is
// reported in Status and tried again next time.
type CursorSaver struct {
	Store  CursorStore
	Source string
	Status *Status
	Every  time.Duration
	saved  string
	last   time.Time
}

// NewCursorSaver returns a saver for a cursor that was loaded as saved.
func NewCursorSaver(store CursorStore, source string, status *Status, every time.Duration, saved string) *CursorSaver {
	return &CursorSaver{Store: store, Source: source, Status: status, Every: every, saved: saved}
}

// Save writes cursor if the last write is older than Every.
func (c *CursorSaver) Save(ctx context.Context, cursor string) {
	if time.Since(c.last) >= c.Every {
		c.Flush(ctx, cursor)
	}
}

// Flush writes cursor if it changed, even when ctx has just ended.
func (c *CursorSaver) Flush(ctx context.Context, cursor string) {
	if cursor == c.saved {
		return
	}
	if err := c.Store.Save(context.WithoutCancel(ctx), c.Source, cursor); err != nil {
		c.Status.Failed(fmt.Errorf("saving the cursor: %w", err))
		return
	}
	c.saved, c.last = cursor, time.Now()
}

// LoadCursor reads source's cursor, kept as JSON, into cur, and returns it as stored; cur is
// left as it is when the source has none yet.
func LoadCursor(ctx context.Context, store CursorStore, source string, cur any) (string, error) {
	saved, err := store.Load(ctx, source)
	if err != nil {
		return "", fmt.Errorf("%s: loading the cursor: %w", source, err)
	}
	if saved != "" {
		if err := json.Unmarshal([]byte(saved), cur); err != nil {
			return "", fmt.Errorf("%s: cursor is not readable: %w", source, err)
		}
	}
	return saved, nil
}

// RunWithCursor runs p's rounds with a cursor kept as JSON: cur is loaded before the first
// round and written after every round that changed it, one that failed part-way too, since
// what that round emitted is already in cur.
func (p Poller) RunWithCursor(ctx context.Context, store CursorStore, source string, cur any, round func(context.Context) error) error {
	saved, err := LoadCursor(ctx, store, source, cur)
	if err != nil {
		return err
	}
	saver := NewCursorSaver(store, source, p.Status, 0, saved)
	return p.Run(ctx, func(ctx context.Context) error {
		defer func() {
			b, _ := json.Marshal(cur)
			saver.Flush(ctx, string(b))
		}()
		return round(ctx)
	})
}
