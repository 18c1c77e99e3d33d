package connector

import (
	"context"
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
