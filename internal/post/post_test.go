package post_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/post"
)

// Every organization reads posts' JSON: the source of an ingested post shows, the user who
// pushed it does not.
func TestPostJSONLeavesOutWhoPushedIt(t *testing.T) {
	data, err := json.Marshal(post.Post{ID: "p1", Source: "feed-a", SourceUserID: 42})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"source":"feed-a"`) || strings.Contains(string(data), "42") {
		t.Fatalf("post JSON = %s", data)
	}
}
