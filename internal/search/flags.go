package search

import (
	"context"
	"fmt"
	"strings"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
)

// Flags are the posts a user flagged in Beacon to export them (the Flagged tab). They are the
// user's own, kept on the server so they follow the user from one browser to another.
type Flags struct{ store FlagStore }

// FlagStore keeps users' flags.
type FlagStore interface {
	// Post loads a stored post a user of the tenant may see.
	Post(ctx context.Context, id string, tenant int64) (post.Post, error)
	// FlagPost flags a post for the user; flagging it again changes nothing.
	FlagPost(ctx context.Context, userID int64, p post.Post) error
	UnflagPost(ctx context.Context, userID int64, postID string) error
	ClearFlags(ctx context.Context, userID int64) error
	CountFlags(ctx context.Context, userID int64) (int, error)
	// FlaggedPosts lists the user's flagged posts that are still stored and that a user of the
	// tenant may see, most recently flagged first.
	FlaggedPosts(ctx context.Context, userID, tenant int64, limit int) ([]post.Post, error)
}

func NewFlags(s FlagStore) *Flags { return &Flags{store: s} }

// MaxFlags bounds a user's flags: an export holds at most 50,000 posts a day, and the Flagged
// tab lists them all at once.
const MaxFlags = 5000

// Messages of the flag calls.
var MsgFlagLimit = fmt.Sprintf("You can flag at most %d posts. Clear some flags first.", MaxFlags)

const MsgPostNotFound = "The post was not found."

// Flag flags the posts for the user. Each must be stored and from a data source the user's
// subscriptions reach; otherwise nothing is flagged.
func (f *Flags) Flag(ctx context.Context, userID int64, e provider.Entitlements, postIDs []string) error {
	if len(postIDs) == 0 {
		return problem.InvalidField("postIds", "Name at least one post to flag.")
	}
	if len(postIDs) > MaxFlags {
		return problem.InvalidField("postIds", MsgFlagLimit)
	}
	posts := make([]post.Post, 0, len(postIDs))
	for _, id := range postIDs {
		p, err := reachable(ctx, f.store, e, id)
		if err != nil {
			return err
		}
		posts = append(posts, p)
	}
	n, err := f.store.CountFlags(ctx, userID)
	if err != nil {
		return err
	}
	if n+len(posts) > MaxFlags {
		return problem.InvalidField("postIds", MsgFlagLimit)
	}
	for _, p := range posts {
		if err := f.store.FlagPost(ctx, userID, p); err != nil {
			return err
		}
	}
	return nil
}

// postLoader loads a stored post a user of the tenant may see.
type postLoader interface {
	Post(ctx context.Context, id string, tenant int64) (post.Post, error)
}

// reachable loads a post the user may see.
func reachable(ctx context.Context, s postLoader, e provider.Entitlements, id string) (post.Post, error) {
	id = strings.TrimSpace(id)
	p, err := s.Post(ctx, id, e.Tenant)
	if problem.Is(err, problem.KindNotFound) || (err == nil && !e.Reaches(p.Provider)) {
		return post.Post{}, problem.NotFound(MsgPostNotFound)
	}
	return p, err
}

// Unflag removes one flag; a post that was not flagged is not an error.
func (f *Flags) Unflag(ctx context.Context, userID int64, postID string) error {
	return f.store.UnflagPost(ctx, userID, postID)
}

// Clear removes all of the user's flags ("Clear all flags").
func (f *Flags) Clear(ctx context.Context, userID int64) error {
	return f.store.ClearFlags(ctx, userID)
}

// List returns the user's flagged posts that the subscriptions still reach, most recently
// flagged first.
func (f *Flags) List(ctx context.Context, userID int64, e provider.Entitlements) ([]post.Post, error) {
	posts, err := f.store.FlaggedPosts(ctx, userID, e.Tenant, MaxFlags)
	if err != nil {
		return nil, err
	}
	out := posts[:0]
	for _, p := range posts {
		if e.Reaches(p.Provider) {
			out = append(out, p)
		}
	}
	return out, nil
}
