package bench

import (
	"bytes"
	"flag"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
)

// clientsProcessEnv marks this test binary, run again by TestLiveSmoke, as the live clients.
const clientsProcessEnv = "SIGHTLINE_BENCH_TEST_CLIENTS"

func TestMain(m *testing.M) {
	flag.Parse()
	if os.Getenv(clientsProcessEnv) == "1" {
		clients, _ := strconv.Atoi(flag.Arg(1))
		if err := LiveClients(flag.Arg(0), os.Getenv(LiveSecretEnv), os.Getenv(LiveProtocolEnv), clients); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	streamingSample = 2_000 // a tenth: 3 s of CPU less in each test that makes searches
	os.Exit(m.Run())
}

// Each benchmark runs at a tiny size: it must finish, and its figures must say it did the work.
// The sizes that measure belong to `sightline bench`; these test its code (issue 26: fewer posts,
// searches and clients than they had, the same checks).

func TestPercolateSmoke(t *testing.T) {
	res, err := Percolate(PercolateConfig{Searches: 300, Posts: 300, Sample: 100, Seed: 3, Peer: "bleve", PeerSample: 20})
	if err != nil {
		t.Fatal(err)
	}
	if !res.AgreesWithBruteForce || !res.AgreesWithOracle || res.OracleSample != 100 {
		t.Fatalf("the index disagrees with brute force or the oracle: %+v", res)
	}
	if res.MatchesPerPost == 0 || res.CandidatesPerPost == 0 || res.PostsPerSec == 0 ||
		res.AnalysisCPUPerPostMicros <= 0 || res.CPUOverAnalysis <= 0 {
		t.Fatalf("a workload where nothing matches proves nothing: %+v", res)
	}
	if b := res.Bleve; b == nil || b.Posts != 20 || b.Searches == 0 || b.PostsPerSec == 0 || b.Ratio == 0 {
		t.Fatalf("the Bleve peer did not run: %+v", b)
	}
	checkText(t, res, "peer: Bleve")
	checkText(t, res, "CPU per post / analysis")
}

func TestIngestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole pipeline on an embedded stream and store")
	}
	res, err := Ingest(IngestConfig{Posts: 1000, Searches: 200, Queries: 10, Analytics: 2, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if res.StoredPosts != 1000 || res.PostsPerSec == 0 || res.Searches != 200 || res.MatchesTotal == 0 ||
		res.Queries == 0 || res.Analytics == 0 || res.RawPostsPerSec <= 0 || res.ShareOfRaw <= 0 ||
		res.FTSP99ms <= 0 || res.SearchP99OverFTS <= 0 || res.FTSTotalP99ms < res.FTSP99ms || res.SearchP99OverFTSTotal <= 0 ||
		res.UnsuggestedP99ms <= 0 {
		t.Fatalf("the run did not do the work: %+v", res)
	}
	checkText(t, res, "ingested")
	checkText(t, res, "the pipeline's share")
	checkText(t, res, "search p99 / full-text p99")
	checkText(t, res, "search p99 / that")
}

func TestLiveSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("starts client processes")
	}
	t.Setenv(clientsProcessEnv, "1") // for the client process only: TestMain has run here
	res, err := Live(LiveConfig{Clients: 5, Searches: 10, Rate: 50, Seconds: 1, Peer: "centrifuge",
		ClientCommand: func(url string, clients int) []string {
			return []string{os.Args[0], "-test.run=^$", url, strconv.Itoa(clients)}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Delivered != 5 || res.KBPerConn <= 0 || res.Pipeline == nil || res.Pipeline.Posts != 50 {
		t.Fatalf("the run did not do the work: %+v", res)
	}
	if res.Pipeline.StoryP99ms <= 0 {
		t.Errorf("no post's time to its story was measured: %+v", res.Pipeline)
	}
	if (res.Pipeline.Matched > 0) != (res.PipelineOverDelivery > 0) {
		t.Errorf("%d posts reached the owner's socket, yet the ratio to the delivery p99 is %.2f", res.Pipeline.Matched, res.PipelineOverDelivery)
	}
	if res.Pipeline.Matched > 0 {
		// A post on the socket was stamped at every point of its way (its ingest call, an
		// enrichment and a synced publish, takes more than a microsecond).
		if got := res.Pipeline.Segments; len(got) != len(segmentNames) || got[0].Maxms <= 0 {
			t.Errorf("the way of the matched posts was not split: %+v", got)
		}
		checkText(t, res, "the way of a matched post")
	}
	if p := res.Peer; p == nil || p.KBPerConn <= 0 || p.DeliveryP99ms <= 0 || p.MemoryRatio <= 0 {
		t.Fatalf("the Centrifuge peer did not run: %+v", p)
	}
	checkText(t, res, "peer: centrifuge")
}

// checkText checks the text report names the figure want.
func checkText(t *testing.T, res interface{ WriteText(io.Writer) }, want string) {
	t.Helper()
	var b bytes.Buffer
	res.WriteText(&b)
	if !strings.Contains(b.String(), want) {
		t.Errorf("the report does not say %q:\n%s", want, b.String())
	}
}

func TestEvidenceSmoke(t *testing.T) {
	browser := 1
	if testing.Short() {
		browser = 0
	}
	res, err := Evidence(EvidenceConfig{Plain: 3, Browser: browser})
	if err != nil {
		t.Fatal(err)
	}
	if res.Plain.Count != 3 || res.Verified < 3 || res.Files < 2 || res.Plain.P95 <= 0 {
		t.Fatalf("the captures did not all run and verify: %+v", res)
	}
}

func TestAlertsSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a whole node for the latency part")
	}
	res, err := Alerts(AlertsConfig{Searches: 20, Hours: 0.25, Rate: 1, Bursts: 0, BurstFactor: 3, Seed: 1,
		LatencySeconds: 3, LatencyRate: 10, LatencySearches: 20})
	if err != nil {
		t.Fatal(err)
	}
	g := res.Grouping
	if g.Posts == 0 || g.Matches == 0 || g.StoryNotices == 0 || g.StoryNotices > g.Matches || g.Notified != g.StoryPairs ||
		res.Latency == nil || res.Latency.Posts != 30 {
		t.Fatalf("the run did not do the work: %+v %+v", g, res.Latency)
	}
	checkText(t, res, "grouped by story")
}
