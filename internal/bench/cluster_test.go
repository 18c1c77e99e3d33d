package bench

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sightline/sightline/internal/store/storetest"
)

// bench cluster at a tiny size: one and two nodes take the same posts through to the same
// matches, and every figure is there.
func TestClusterSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts serve processes")
	}
	storetest.Admin(t) // skips without PostgreSQL, except on CI
	pg := storetest.PostgresURL()
	bin := filepath.Join(t.TempDir(), "sightline")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/sightline").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	res, err := Cluster(context.Background(), ClusterConfig{Nodes: []int{1, 2}, Posts: 400, Searches: 10, NATSServers: 3,
		Postgres: pg, Bin: bin})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 2 || res.Posts != 400 || res.Searches != 10 {
		t.Fatalf("result %+v", res)
	}
	for _, r := range res.Runs {
		if r.PostsPerSec <= 0 || r.Efficiency <= 0 || r.NodeCPUPerPostMicros <= 0 || r.BenchCPUPerPostMicros <= 0 {
			t.Errorf("run of %d nodes: %+v", r.Nodes, r)
		}
	}
	if a, b := res.Runs[0].MatchesTotal, res.Runs[1].MatchesTotal; a == 0 || a != b {
		t.Errorf("one node made %d matches, two nodes %d; want the same, more than none", a, b)
	}
	checkText(t, res, "efficiency")
}
