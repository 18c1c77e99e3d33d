// Package docs holds the documents the server serves as they are written: the post format's
// JSON Schema (docs/ingest.md).
package docs

import (
	_ "embed"
)

// PostSchema is docs/post.schema.json: the contract of the ingest API's posts.
//
//go:embed post.schema.json
var PostSchema []byte
