// Package postschema checks posts against their contract, docs/post.schema.json.
package postschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/sightline/sightline/docs"
)

// JSON is the post format's JSON Schema (docs/post.schema.json), served at
// GET /api/v1/ingest/schema.
func JSON() []byte { return docs.PostSchema }

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(docs.PostSchema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("post.schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("post.schema.json")
})

// Check validates a post's JSON against docs/post.schema.json; the error names every
// field at fault and the form it expects.
func Check(postJSON []byte) error {
	schema, err := compiled()
	if err != nil {
		return fmt.Errorf("docs/post.schema.json: %w", err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(postJSON))
	if err != nil {
		return err
	}
	return schema.Validate(v)
}

// CheckValue validates a value (a post.Post) by its JSON.
func CheckValue(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return Check(b)
}
