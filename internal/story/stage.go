package story

import (
	"slices"
	"sync"
	"time"

	"github.com/sightline/sightline/internal/post"
)

// Stage is the pipeline's stories stage: it gives each post of a batch its story, in the
// stream's order, before the batch is stored. It is safe for concurrent use.
type Stage struct {
	mu sync.Mutex
	c  *Clusterer
}

// NewStage returns a stage with an empty window; Seed fills it from the store at start.
func NewStage() *Stage { return &Stage{c: New()} }

// Since is how far back the posts that rebuild the window at start go.
func Since(now time.Time) time.Time { return now.Add(-Window) }

// Seed puts stored posts, which carry their story, back into the window, oldest first, so that
// a restart gives the next posts the stories they would have had.
func (s *Stage) Seed(posts []post.Post) {
	slices.SortStableFunc(posts, func(a, b post.Post) int { return a.PublishedAt.Compare(b.PublishedAt) })
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range posts {
		story := posts[i].StoryID
		if story == "" {
			story = posts[i].ID // stored before stories existed
		}
		s.c.Seed(&posts[i], story)
	}
}

// Assign sets the StoryID of each post.
func (s *Stage) Assign(posts []post.Post) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range posts {
		posts[i].StoryID = s.c.Add(&posts[i])
	}
}
