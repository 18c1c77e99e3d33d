package alerts_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/mail/mailtest"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// BenchmarkBatchAlert10000 sends one batch alert covering 10,000 matches: the matches read as
// the owner sees them, the e-mail rendered (100 listed, a link to the rest) and handed to a real
// SMTP server on loopback. Target (issue 13): under 5 s.
func BenchmarkBatchAlert10000(b *testing.B) {
	ctx := context.Background()
	s := storetest.Open(b, store.SQLite)
	u, err := account.NewService(s).CreateUser(ctx, account.NewUser{Organization: "Acme", Email: "bench@acme.test",
		Password: "correct-horse-9", Role: account.RoleOwner})
	if err != nil {
		b.Fatal(err)
	}
	actor := auth.Identity{User: u, Role: account.RoleOwner}.Actor()
	matches := monitor.NewService(monitor.Deps{Store: s, Inbox: s})
	home, err := s.UncategorizedGroup(ctx, u.OrganizationID, u.ID)
	if err != nil {
		b.Fatal(err)
	}
	m, err := matches.CreateSearch(ctx, actor, monitor.SearchInput{GroupID: home.ID, Name: "Harbour",
		Keywords: "harbour OR strike", Providers: []string{"reddit"}})
	if err != nil {
		b.Fatal(err)
	}
	const n = 10_000
	now := time.Now().UTC().Truncate(time.Millisecond)
	var ids []int64
	for start := 0; start < n; start += 1000 {
		var posts []post.Post
		var rows []monitor.Match
		for i := start; i < start+1000; i++ {
			id := fmt.Sprint("bench-", i)
			at := now.Add(-time.Duration(i) * time.Second)
			posts = append(posts, post.Post{ID: id, Provider: "reddit", NativeID: id, Type: post.TypeThreadPost,
				AuthorName: fmt.Sprint("Docker ", i%300), ContentText: fmt.Sprintf("The harbour strike enters hour %d; "+
					"pickets at the container terminal gates say the strike holds until the talks resume.", i),
				PostLink: "https://reddit.example/" + id, PublishedAt: at, DiscoveredAt: at})
			rows = append(rows, monitor.Match{SearchID: m.ID, OrganizationID: u.OrganizationID, PostID: id,
				PublishedAt: at, DiscoveredAt: at, Provider: "reddit"})
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			b.Fatal(err)
		}
		created, err := s.InsertMatches(ctx, rows)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range created {
			ids = append(ids, c.ID)
		}
	}
	smtp := mailtest.Start(b)
	sender, err := mail.NewSMTP(smtp.URL(), "alerts@sightline.test")
	if err != nil {
		b.Fatal(err)
	}
	svc := alerts.NewService(alerts.Deps{Store: s, Matches: matches, Channels: alerts.Channels(alerts.ChannelDeps{Store: s, Mail: sender}), PublicURL: "https://sightline.example",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		// Each round a delivery of its own destination, so that the same matches may be covered.
		d := alerts.Delivery{SearchID: m.ID, OrganizationID: u.OrganizationID, Type: monitor.AlertBatch,
			Destination: monitor.Destination{Type: "email", Address: fmt.Sprintf("desk%d@acme.test", i)},
			MatchCount:  n, Status: alerts.StatusPending, NextAttemptAt: time.Now(), CreatedAt: time.Now()}
		if ok, err := s.CreateDelivery(ctx, &d, ids); err != nil || !ok {
			b.Fatal(ok, err)
		}
		b.StartTimer()
		if err := svc.SendDue(ctx); err != nil {
			b.Fatal(err)
		}
		if got := len(smtp.Messages()); got != i+1 {
			b.Fatalf("%d messages after %d rounds", got, i+1)
		}
	}
}
