package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/sightline/sightline/internal/post"
)

// MaxLine is the longest NDJSON line (one post) read.
const MaxLine = 4 << 20

// Decoder reads posts one at a time from a JSON array or NDJSON (one JSON object per line),
// whichever the input holds. For an array, an item's Line is the element's position (1-based).
type Decoder struct {
	br      *bufio.Reader
	started bool
	array   *json.Decoder
	lines   *bufio.Scanner
	line    int
}

func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{br: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next item, or io.EOF after the last. A line that is not a post is an Item
// with Err set; an error from Next means the input itself cannot be read further.
func (d *Decoder) Next() (Item, error) {
	raw, line, err := d.nextRaw()
	if err != nil {
		return Item{}, err
	}
	return itemOf(line, raw), nil
}

// nextRaw returns the next item's JSON and its line (1-based), or io.EOF after the last.
func (d *Decoder) nextRaw() ([]byte, int, error) {
	if !d.started {
		d.started = true
		if err := d.start(); err != nil {
			return nil, 0, err
		}
	}
	if d.array != nil {
		if !d.array.More() {
			if _, err := d.array.Token(); err != nil {
				return nil, 0, fmt.Errorf("the JSON array is not closed: %w", err)
			}
			return nil, 0, io.EOF
		}
		d.line++
		var raw json.RawMessage
		if err := d.array.Decode(&raw); err != nil {
			return nil, 0, fmt.Errorf("element %d: %w", d.line, err)
		}
		return raw, d.line, nil
	}
	for d.lines.Scan() {
		d.line++
		if text := bytes.TrimSpace(d.lines.Bytes()); len(text) > 0 {
			return text, d.line, nil
		}
	}
	if err := d.lines.Err(); err != nil {
		return nil, 0, fmt.Errorf("line %d: %w", d.line+1, err)
	}
	return nil, 0, io.EOF
}

func (d *Decoder) start() error {
	first, err := d.firstByte()
	if err == io.EOF {
		d.lines = bufio.NewScanner(bytes.NewReader(nil))
		return nil
	}
	if err != nil {
		return err
	}
	if first == '[' {
		d.array = json.NewDecoder(d.br)
		_, err := d.array.Token()
		return err
	}
	d.lines = bufio.NewScanner(d.br)
	d.lines.Buffer(make([]byte, 64<<10), MaxLine)
	return nil
}

// firstByte peeks at the first byte that is not white space or a byte-order mark.
func (d *Decoder) firstByte() (byte, error) {
	if bom, _ := d.br.Peek(3); bytes.Equal(bom, []byte{0xEF, 0xBB, 0xBF}) {
		d.br.Discard(3)
	}
	for {
		b, err := d.br.ReadByte()
		if err != nil {
			return 0, err
		}
		if b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			d.br.UnreadByte()
			return b, nil
		}
	}
}

// aliases are the spec's names of two fields (docs/ingest.md): id for native_id and createdAt
// for published_at, used when the native names are absent.
type aliases struct {
	CreatedAt json.RawMessage `json:"createdAt"`
}

func itemOf(line int, raw []byte) Item {
	var p post.Post
	if err := json.Unmarshal(raw, &p); err != nil {
		return Item{Line: line, Err: decodeError(raw, err)}
	}
	// Sightline's own id is derived from provider and native_id: an id sent is the native one.
	if p.NativeID == "" {
		p.NativeID = p.ID
	}
	p.ID = ""
	var a aliases
	_ = json.Unmarshal(raw, &a) // raw is an object: it decoded above
	if p.PublishedAt.IsZero() && len(a.CreatedAt) > 0 && string(a.CreatedAt) != "null" {
		if err := json.Unmarshal(a.CreatedAt, &p.PublishedAt); err != nil {
			return Item{Line: line, Err: fmt.Errorf("createdAt must be an RFC 3339 date-time such as 2026-11-25T06:00:00Z")}
		}
	}
	return Item{Line: line, Post: p}
}

// timeFields are the post's date-time fields, named in the error when one does not parse.
var timeFields = []string{"published_at", "discovered_at", "createdAt"}

// decodeError says which field is wrong and what form it takes.
func decodeError(raw []byte, err error) error {
	var mistyped *json.UnmarshalTypeError
	if errors.As(err, &mistyped) && mistyped.Field != "" {
		return fmt.Errorf("%s must be %s, not %s", mistyped.Field, jsonForm(mistyped.Type.Kind().String()), mistyped.Value)
	}
	var parse *time.ParseError
	if errors.As(err, &parse) {
		var fields map[string]json.RawMessage
		_ = json.Unmarshal(raw, &fields)
		for _, name := range timeFields {
			var t time.Time
			if v, ok := fields[name]; ok && json.Unmarshal(v, &t) != nil {
				return fmt.Errorf("%s must be an RFC 3339 date-time such as 2026-11-25T06:00:00Z, not %s", name, v)
			}
		}
	}
	return fmt.Errorf("not a JSON post object: %v", err)
}

func jsonForm(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "slice", "array":
		return "a list"
	case "struct", "map":
		return "an object"
	case "bool":
		return "true or false"
	default:
		return "a number"
	}
}
