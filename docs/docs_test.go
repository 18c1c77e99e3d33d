package docs_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/post/postschema"
)

// Every JSON example of docs/ingest.md matches the contract and is a post the ingest API takes.
func TestIngestExamples(t *testing.T) {
	doc, err := os.ReadFile("ingest.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) < 4 {
		t.Fatalf("found %d examples", len(blocks))
	}
	now := time.Date(2026, 11, 25, 7, 0, 0, 0, time.UTC)
	for _, b := range blocks {
		example := b[1]
		if err := postschema.Check([]byte(example)); err != nil {
			t.Errorf("%s\ndoes not match post.schema.json: %v", example, err)
		}
		it, err := ingest.NewDecoder(strings.NewReader(strings.ReplaceAll(example, "\n", " "))).Next()
		if err != nil || it.Err != nil {
			t.Fatalf("%s\ncannot be read: %v %v", example, err, it.Err)
		}
		if err := it.Post.Normalize(now); err != nil {
			t.Errorf("%s\nis refused: %v", example, err)
		}
	}
}

// The contract refuses what the ingest API refuses, naming the field.
func TestSchemaRefusals(t *testing.T) {
	for _, tt := range []struct{ post, field string }{
		{`{"provider":"news","published_at":"2026-11-25T05:40:00Z","content_text":"x"}`, "native_id"},
		{`{"provider":"news","native_id":"a","published_at":"yesterday","content_text":"x"}`, "published_at"},
		{`{"provider":"news","native_id":"a","published_at":"2026-11-25T05:40:00Z"}`, "content_text"},
		{`{"provider":"news","native_id":"a","published_at":"2026-11-25T05:40:00Z","content_text":"x","colour":"red"}`, "colour"},
		{`{"provider":"news","native_id":"a","published_at":"2026-11-25T05:40:00Z","content_text":"x","engagement":-1}`, "engagement"},
		{`{"provider":"news","native_id":"a","published_at":"2026-11-25T05:40:00Z","content_text":"x","author_followers":1.5}`, "author_followers"},
	} {
		err := postschema.Check([]byte(tt.post))
		if err == nil || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("%s: %v, want a refusal naming %s", tt.post, err, tt.field)
		}
	}
}
