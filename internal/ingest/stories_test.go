package ingest_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"

	"github.com/sightline/sightline/internal/enrich"
	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/story"
	"github.com/sightline/sightline/internal/stream"
	"github.com/sightline/sightline/internal/wait"
)

// storyTexts are the posts of the stories tests: copies of a warehouse fire, and two look-alike
// ransomware attacks (one template, two cities) with their copies.
var storyTexts = map[string]string{
	"fire1":   "Firefighters battled a large blaze at a warehouse in Rotterdam on Tuesday night, sending thick smoke over the port, officials said.",
	"fire2":   "Firefighters battled a huge blaze at a warehouse in Rotterdam on Tuesday night, sending thick smoke over the port, officials said.",
	"fire3":   "FIREFIGHTERS battled a large blaze at a warehouse in Rotterdam on Tuesday night - sending thick smoke over the port, officials said",
	"fire4":   "Firefighters battled a big blaze at a warehouse in Rotterdam on Tuesday night, sending thick smoke over the port, officials said.",
	"fire5":   "Firefighters battled a huge blaze at a warehouse in Rotterdam on Tuesday night, sending thick smoke over the port, officials said!",
	"dallas1": "Ransomware attack knocks city services offline in Dallas, officials say.",
	"dallas2": "RANSOMWARE ATTACK KNOCKS CITY SERVICES OFFLINE IN DALLAS, officials say",
	"dallas3": "Ransomware attack knocks city services offline in Dallas - officials say",
	"denver1": "Ransomware attack knocks city services offline in Denver, officials say.",
	"denver2": "RANSOMWARE ATTACK KNOCKS CITY SERVICES OFFLINE IN DENVER, officials say",
	"denver3": "Ransomware attack knocks city services offline in Denver - officials say",
}

// storyWant is the story each post must end in: its event's first post.
var storyWant = map[string]string{
	"fire1": "fire1", "fire2": "fire1", "fire3": "fire1", "fire4": "fire1", "fire5": "fire1",
	"dallas1": "dallas1", "dallas2": "dallas1", "dallas3": "dallas1",
	"denver1": "denver1", "denver2": "denver1", "denver3": "denver1",
}

// storyStep either opens a node (open) or has one node alone consume the posts it sends.
type storyStep struct {
	open, node string
	posts      []string
}

// storyNode is one node's storage stage: its store connections, its stream connection and its
// pipeline with its stories window.
type storyNode struct {
	store    *store.Store
	stream   *stream.Stream
	pipeline *ingest.Pipeline
}

// runStoryScenario runs the steps, each node alone in turn, so that each post is consumed on the
// node its step names, and checks the story every post was stored with. Posts are enriched
// without places: the gazetteer would stay in the test binary's memory and raise the garbage
// collector's target for TestSubmitIsBounded's heap bound. The look-alikes are told apart by
// their names (Dallas, Denver), as docs/stories.md says.
func runStoryScenario(t *testing.T, steps []storyStep, open func(name string) *storyNode) {
	t.Helper()
	ctx := context.Background()
	nodes := map[string]*storyNode{}
	var latest *storyNode // the node opened last, which reads the stories at the end
	start := time.Now().Add(-2 * time.Hour).UTC().Truncate(time.Second)
	sent := 0
	for _, st := range steps {
		if st.open != "" {
			nodes[st.open] = open(st.open)
			latest = nodes[st.open]
			continue
		}
		n := nodes[st.node]
		run, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- n.pipeline.Run(run) }()
		items := make([]ingest.Item, len(st.posts))
		for i, key := range st.posts {
			sent++
			items[i] = ingest.Item{Line: i + 1, Post: post.Post{Provider: "news", NativeID: key, ContentText: storyTexts[key],
				PublishedAt: start.Add(time.Duration(sent) * time.Minute)}}
		}
		if res := ingest.NewService(n.stream, enrich.New(nil), 0).Accept(ctx, items); res.Accepted != len(items) {
			t.Fatalf("accepted %d of %d posts: %v", res.Accepted, len(items), res.Rejected)
		}
		wait.ForNil(t, "node "+st.node+" storing "+st.posts[0], func() error {
			for _, key := range st.posts {
				if _, err := n.store.Post(ctx, post.NewID("news", key), 0); err != nil {
					return err
				}
			}
			return nil
		})
		// Acknowledged too, so that nothing of this step comes back to the next node.
		wait.For(t, "node "+st.node+" acknowledging its posts", func() bool {
			lag, err := n.stream.Pending(ctx, ingest.StoreDurable)
			return err == nil && lag == 0
		})
		stop()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for key, want := range storyWant {
		p, err := latest.store.Post(ctx, post.NewID("news", key), 0)
		if err != nil {
			t.Fatal(err)
		}
		if p.StoryID != post.NewID("news", want) {
			t.Errorf("%s is in story %q, want %s's (%q)", key, p.StoryID, want, post.NewID("news", want))
		}
	}
}

// openStoryNode opens a node's storage stage on a store and a stream; its window is rebuilt from
// the store as the server's is at start.
func openStoryNode(t *testing.T, dsn string, sc stream.Config) *storyNode {
	t.Helper()
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	sc.Consumers = []string{ingest.StoreDurable}
	st, err := stream.Open(ctx, sc, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	p := ingest.NewPipeline(st, s, log)
	if err := p.LoadStories(ctx, story.NewStage(), s, story.Since(time.Now())); err != nil {
		t.Fatal(err)
	}
	return &storyNode{store: s, stream: st, pipeline: p}
}

// On a cluster (two nodes on one PostgreSQL database and one NATS server), copies of one event
// consumed on different nodes are one story, look-alike events stay two, and a node started
// later (a restart) carries on: every node's window holds what the others stored.
func TestStoriesAcrossNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a NATS server and two nodes on PostgreSQL")
	}
	dsn := storetest.Migrated(t)
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, JetStream: true,
		StoreDir: t.TempDir(), NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	t.Cleanup(ns.Shutdown)
	if !ns.ReadyForConnections(30 * time.Second) {
		t.Fatal("NATS did not start")
	}
	runStoryScenario(t, []storyStep{
		{open: "a"},
		{open: "b"},
		{node: "a", posts: []string{"fire1", "dallas1"}},
		// b's window has none of a's posts but what it folds in from the store.
		{node: "b", posts: []string{"fire2", "dallas2", "denver1"}},
		{node: "a", posts: []string{"fire3", "denver2"}},
		// c starts (a restart) from the store; b stores more after c's window was rebuilt.
		{open: "c"},
		{node: "b", posts: []string{"fire4"}},
		{node: "c", posts: []string{"fire5", "dallas3", "denver3"}},
	}, func(string) *storyNode {
		return openStoryNode(t, dsn, stream.Config{URL: ns.ClientURL()})
	})
}

// On one node (SQLite and the embedded stream) batches are stored as before, with no lock and
// nothing to fold: copies are one story, look-alikes two, and a restart keeps them.
func TestStoriesOnOneNode(t *testing.T) {
	dsn := storetest.MigratedSQLite(t)
	dir := t.TempDir()
	var last *storyNode
	runStoryScenario(t, []storyStep{
		{open: "a"},
		{node: "a", posts: []string{"fire1", "dallas1"}},
		{node: "a", posts: []string{"fire2", "dallas2", "denver1"}},
		{node: "a", posts: []string{"fire3", "denver2"}},
		{open: "restarted"},
		{node: "restarted", posts: []string{"fire4", "fire5", "dallas3", "denver3"}},
	}, func(string) *storyNode {
		if last != nil {
			// A restart: the embedded server and the store are closed and opened again.
			last.stream.Close()
			last.store.Close()
		}
		last = openStoryNode(t, dsn, stream.Config{DataDir: dir})
		if last.store.SharesStories() {
			t.Fatal("a SQLite store says other nodes share it")
		}
		return last
	})
}
