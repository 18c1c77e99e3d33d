package search

import (
	"context"
	"fmt"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
)

// MarkService keeps what a user did to Beacon results besides flagging them: read them, marked them
// unread again, deleted them (search-side.md section 4: "unread to read (mark selected as
// read) ... deleted (irreversible)"). They are the user's own, kept on the server like flags.
type MarkService struct{ store MarkStore }

// A Mark is one state a user sets on a post.
type Mark string

const (
	MarkRead    Mark = "read"
	MarkDeleted Mark = "deleted"
)

// Marks is a user's state of one post. A post without marks is unread and not deleted.
type Marks struct {
	Read    bool `json:"read"`
	Deleted bool `json:"deleted"`
}

// MarkStore keeps users' marks.
type MarkStore interface {
	// Post loads a stored post a user of the tenant may see.
	Post(ctx context.Context, id string, tenant int64) (post.Post, error)
	MarkPost(ctx context.Context, userID int64, p post.Post, mark Mark) error
	MarkUnread(ctx context.Context, userID int64, postIDs []string) error
	// PostMarks returns the user's marks of the named posts; a post without any is left out.
	PostMarks(ctx context.Context, userID int64, postIDs []string) (map[string]Marks, error)
}

func NewMarks(s MarkStore) *MarkService { return &MarkService{store: s} }

// MaxMarked bounds the posts one call names: a page of results.
const MaxMarked = 500

var msgTooMany = fmt.Sprintf("Name at most %d posts.", MaxMarked)

func checkIDs(postIDs []string) error {
	if len(postIDs) == 0 {
		return problem.InvalidField("postIds", "Name at least one post.")
	}
	if len(postIDs) > MaxMarked {
		return problem.InvalidField("postIds", msgTooMany)
	}
	return nil
}

// Mark marks the posts read or deleted for the user. Each must be stored and from a data source
// the user's subscriptions reach; otherwise nothing is marked.
func (m *MarkService) Mark(ctx context.Context, userID int64, e provider.Entitlements, mark Mark, postIDs []string) error {
	if err := checkIDs(postIDs); err != nil {
		return err
	}
	posts := make([]post.Post, 0, len(postIDs))
	for _, id := range postIDs {
		p, err := reachable(ctx, m.store, e, id)
		if err != nil {
			return err
		}
		posts = append(posts, p)
	}
	for _, p := range posts {
		if err := m.store.MarkPost(ctx, userID, p, mark); err != nil {
			return err
		}
	}
	return nil
}

// MarkUnread marks the posts unread again; a deleted post stays deleted.
func (m *MarkService) MarkUnread(ctx context.Context, userID int64, postIDs []string) error {
	if err := checkIDs(postIDs); err != nil {
		return err
	}
	return m.store.MarkUnread(ctx, userID, postIDs)
}

// Of returns the user's marks of the named posts (the results a screen shows).
func (m *MarkService) Of(ctx context.Context, userID int64, postIDs []string) (map[string]Marks, error) {
	if len(postIDs) > MaxMarked {
		return nil, problem.InvalidField("postIds", msgTooMany)
	}
	return m.store.PostMarks(ctx, userID, postIDs)
}
