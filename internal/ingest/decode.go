package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

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
	if !d.started {
		d.started = true
		if err := d.start(); err != nil {
			return Item{}, err
		}
	}
	if d.array != nil {
		if !d.array.More() {
			if _, err := d.array.Token(); err != nil {
				return Item{}, fmt.Errorf("the JSON array is not closed: %w", err)
			}
			return Item{}, io.EOF
		}
		d.line++
		var raw json.RawMessage
		if err := d.array.Decode(&raw); err != nil {
			return Item{}, fmt.Errorf("element %d: %w", d.line, err)
		}
		return itemOf(d.line, raw), nil
	}
	for d.lines.Scan() {
		d.line++
		if text := bytes.TrimSpace(d.lines.Bytes()); len(text) > 0 {
			return itemOf(d.line, text), nil
		}
	}
	if err := d.lines.Err(); err != nil {
		return Item{}, fmt.Errorf("line %d: %w", d.line+1, err)
	}
	return Item{}, io.EOF
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

func itemOf(line int, raw []byte) Item {
	var p post.Post
	if err := json.Unmarshal(raw, &p); err != nil {
		return Item{Line: line, Err: fmt.Errorf("not a JSON post object: %v", err)}
	}
	return Item{Line: line, Post: p}
}
