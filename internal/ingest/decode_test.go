package ingest

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		lines     []int // lines of the items, in order
		badLines  []int // lines whose item has Err
		wantError bool
	}{
		{"empty", "", nil, nil, false},
		{"ndjson with blank lines", "{\"provider\":\"reddit\"}\n\n{\"provider\":\"x\"}\n", []int{1, 3}, nil, false},
		{"ndjson with a bad line", "{\"provider\":\"reddit\"}\nnot json\n{}\n", []int{1, 2, 3}, []int{2}, false},
		{"ndjson with a byte-order mark", "\xEF\xBB\xBF{\"provider\":\"reddit\"}", []int{1}, nil, false},
		{"array", ` [{"provider":"a"}, 5, {"provider":"b"}]`, []int{1, 2, 3}, []int{2}, false},
		{"unclosed array", `[{"provider":"a"}, {"provider":"b"}`, []int{1, 2}, nil, true},
		{"broken array", `[{"provider":"a"}, {"provider":`, []int{1}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, err := decodeAll(strings.NewReader(tt.body))
			if (err != nil) != tt.wantError {
				t.Errorf("err = %v, want error %v", err, tt.wantError)
			}
			var lines, bad []int
			for _, it := range items {
				lines = append(lines, it.Line)
				if it.Err != nil {
					bad = append(bad, it.Line)
				}
			}
			if !slices.Equal(lines, tt.lines) || !slices.Equal(bad, tt.badLines) {
				t.Errorf("lines %v (bad %v), want %v (bad %v)", lines, bad, tt.lines, tt.badLines)
			}
		})
	}
}

// decodeAll reads every item; on a read error it returns the items read so far and the error.
func decodeAll(r io.Reader) ([]Item, error) {
	d := NewDecoder(r)
	var items []Item
	for {
		it, err := d.Next()
		if err == io.EOF {
			return items, nil
		}
		if err != nil {
			return items, err
		}
		items = append(items, it)
	}
}

// The decoder never panics and always ends: every item it returns consumed input.
func FuzzDecoder(f *testing.F) {
	for _, seed := range []string{
		"", "{}\n{}\n", `[{"provider":"a"}, 5, {"provider":"b"}]`, "\xEF\xBB\xBF{}", "[", "]", "[{", "{\"a\":",
		strings.Repeat("[", 20000), strings.Repeat("{\"a\":", 5000), "[" + strings.Repeat("{},", 1000) + "{}]",
		"null\ntrue\n\"x\"\n[]\n", "[1,,2]", "\n\n\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		d := NewDecoder(bytes.NewReader(body))
		for calls := 0; ; calls++ {
			if calls > len(body)+1 {
				t.Fatalf("%d items from %d bytes", calls, len(body))
			}
			if _, err := d.Next(); err != nil {
				return
			}
		}
	})
}

// The spec's id and createdAt stand for native_id and published_at; a wrong form names the
// field and the form it takes.
func TestAliasesAndRejections(t *testing.T) {
	tests := []struct{ line, native, published, err string }{
		{`{"provider":"news","id":"a1","createdAt":"2026-01-02T03:04:05Z","content_text":"x"}`, "a1", "2026-01-02T03:04:05Z", ""},
		{`{"provider":"news","native_id":"n","id":"ignored","published_at":"2026-01-02T03:04:05Z","createdAt":"2020-01-01T00:00:00Z"}`, "n", "2026-01-02T03:04:05Z", ""},
		{`{"provider":"news","native_id":"n","published_at":"yesterday"}`, "", "", `published_at must be an RFC 3339 date-time such as 2026-11-25T06:00:00Z, not "yesterday"`},
		{`{"provider":"news","native_id":"n","createdAt":"soon"}`, "", "", "createdAt must be an RFC 3339 date-time"},
		{`{"provider":"news","native_id":7}`, "", "", "native_id must be a string, not number"},
		{`{"provider":"news","tags":"a"}`, "", "", "tags must be a list, not string"},
	}
	for _, tt := range tests {
		it := itemOf(1, []byte(tt.line))
		if tt.err != "" {
			if it.Err == nil || !strings.Contains(it.Err.Error(), tt.err) {
				t.Errorf("%s: err %v, want %q", tt.line, it.Err, tt.err)
			}
			continue
		}
		if it.Err != nil || it.Post.NativeID != tt.native || it.Post.PublishedAt.UTC().Format(time.RFC3339) != tt.published || it.Post.ID != "" {
			t.Errorf("%s: %+v %v", tt.line, it.Post, it.Err)
		}
	}
}
