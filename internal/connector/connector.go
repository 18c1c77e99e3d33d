// Package connector is the contract every content source follows (the simulator and the real
// connectors in the subpackages) and what they share: cursors, backoff with jitter, polling
// rounds, rate-limit handling and per-source status.
package connector

import (
	"context"
	"errors"
	"time"

	"github.com/sightline/sightline/internal/post"
)

// EmitFunc hands a post to the pipeline. It returns once the pipeline has taken the post (for
// the stream: published); an error means the post was not taken and must be offered again.
type EmitFunc func(context.Context, post.Post) error

// Source produces posts. Run emits until ctx ends and then returns nil; it returns an error
// only when the source cannot run at all. Sources retry their own failures with backoff.
type Source interface {
	Name() string
	Run(ctx context.Context, emit EmitFunc) error
}

// Reporter is implemented by every source in this module: its current status.
type Reporter interface {
	Stats() Stats
}

// CursorStore keeps each source's position so that a restarted source resumes where it
// stopped. Load returns "" for a source that has none yet.
type CursorStore interface {
	Load(ctx context.Context, source string) (string, error)
	Save(ctx context.Context, source, cursor string) error
}

// Send normalizes p and emits it. A post that fails normalization is a malformed item, and a
// post the pipeline rejects (see Rejected) will never be taken: either is counted as skipped and
// dropped, and Send returns nil so the rest of the page goes on. Any other emit failure is
// returned, and the caller must not move its cursor past p.
func Send(ctx context.Context, status *Status, emit EmitFunc, p post.Post) error {
	if err := p.Normalize(time.Now()); err != nil {
		status.Skipped(err)
		return nil
	}
	if err := emit(ctx, p); err != nil {
		var invalid *post.InvalidError
		if IsRejected(err) || errors.As(err, &invalid) {
			status.Skipped(err)
			return nil
		}
		return err
	}
	status.Emitted(p.PublishedAt)
	return nil
}

// Rejected marks err as the pipeline's final refusal of a post (older than the retention
// window, say), as opposed to a failure worth retrying: sources skip such a post instead of
// offering it again forever. The message is err's own.
func Rejected(err error) error {
	return rejectedError{err}
}

// IsRejected reports whether err, or an error it wraps, was marked by Rejected.
func IsRejected(err error) bool {
	var r rejectedError
	return errors.As(err, &r)
}

type rejectedError struct{ error }

func (e rejectedError) Unwrap() error { return e.error }

// DeleteFunc reports that the provider deleted one of its posts: the post's provider and native
// id, as the source emitted it, and when the deletion was seen. The post keeps what was stored
// and is marked deleted (post.Post.DeletedAt); a post never stored is nothing to mark, and no
// error. An error means the report was not recorded.
type DeleteFunc func(ctx context.Context, provider, nativeID string, at time.Time) error

// Deleter is a source whose provider tells of deleted posts (Mastodon's streaming delete event,
// Bluesky's delete commits). The sources manager gives it where to report them before it runs;
// a source given none (a test fetch) ignores deletions.
type Deleter interface {
	OnDelete(DeleteFunc)
}
