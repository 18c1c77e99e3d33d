package story

import (
	"runtime"
	"sync"
	"time"

	"github.com/sightline/sightline/internal/post"
)

// Stage is the pipeline's stories stage: it gives each post of a batch its story, in the
// stream's order, before the batch is stored. It is safe for concurrent use.
type Stage struct {
	mu      sync.Mutex
	c       *Clusterer
	observe func(posts []post.Post, cpu time.Duration)
}

// NewStage returns a stage with an empty window; Seed fills it from the store at start.
func NewStage() *Stage { return &Stage{c: New()} }

// Since is how far back the posts that rebuild the window at start go.
func Since(now time.Time) time.Time { return now.Add(-Window) }

// Seed puts a stored post, which carries its story, back into the window. Given the posts of
// the last Window oldest first, it makes a restart give the next posts the stories they would
// have had.
func (s *Stage) Seed(p *post.Post) {
	story := p.StoryID
	if story == "" {
		story = p.ID // stored before stories existed
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.c.Seed(p, story)
}

// Assign sets the StoryID of each post.
func (s *Stage) Assign(posts []post.Post) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.observe == nil {
		s.assign(posts)
		return
	}
	// The thread's CPU clock counts this batch's work only while the goroutine stays on it.
	runtime.LockOSThread()
	start := threadCPU()
	s.assign(posts)
	cpu := threadCPU() - start
	runtime.UnlockOSThread()
	s.observe(posts, cpu)
}

func (s *Stage) assign(posts []post.Post) {
	for i := range posts {
		posts[i].StoryID = s.c.Add(&posts[i])
	}
}

// Observe has fn called after each batch with its posts, which carry their stories, and the CPU
// time the stage spent on them (the thread's, on Linux): what benchmarks report. fn runs inside
// the stage, so it must be quick; nil stops observing.
func (s *Stage) Observe(fn func(posts []post.Post, cpu time.Duration)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.observe = fn
}
