package connector

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

	"github.com/sightline/sightline/internal/post"
)

// Decode yields the post of each item of a listing: the item decoded as a T, then converted by
// toPost. An item that fails either is counted as skipped, malformed (where names the
// listing), and left out, so the rest of the page goes on.
func Decode[T any](status *Status, where string, items []json.RawMessage, toPost func(T) (post.Post, error)) iter.Seq[post.Post] {
	return func(yield func(post.Post) bool) {
		for _, raw := range items {
			var item T
			err := json.Unmarshal(raw, &item)
			var p post.Post
			if err == nil {
				p, err = toPost(item)
			}
			if err != nil {
				status.Skipped(fmt.Errorf("%w: %s: %v", ErrMalformed, where, err))
				continue
			}
			if !yield(p) {
				return
			}
		}
	}
}

// SendFresh sends, in order, the posts seen does not hold yet (by native id) and adds each one
// sent to it. It stops at the first post the pipeline did not take, which stays fresh.
func SendFresh(ctx context.Context, status *Status, emit EmitFunc, seen *Seen, posts iter.Seq[post.Post]) error {
	for p := range posts {
		if !seen.Fresh(p.NativeID, p.PublishedAt) {
			continue
		}
		if err := Send(ctx, status, emit, p); err != nil {
			return err
		}
		seen.Add(p.NativeID, p.PublishedAt)
	}
	return nil
}
