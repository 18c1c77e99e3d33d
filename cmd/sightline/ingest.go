package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/ingest"
)

// ingestChunk is how many posts go in one request.
const ingestChunk = 2000

func runIngest(args []string) error {
	fs := newFlagSet("ingest", "Send posts from FILE (NDJSON or a JSON array; - for stdin) to a running server.")
	var url, token string
	fs.StringVar(&url, "url", "http://127.0.0.1:8080", "the server's address")
	fs.StringVar(&token, "token", "", "an API token of a tenant admin, or one made with --scope ingest")
	if err := parseFlagsAndArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 || token == "" {
		return errors.New("usage: sightline ingest --token T [--url U] FILE")
	}
	in, size, err := openInput(fs.Arg(0))
	if err != nil {
		return err
	}
	defer in.Close()

	counted := &countingReader{r: in}
	dec := ingest.NewDecoder(counted)
	progress := newProgress(size)
	var total ingest.Result
	total.Rejected = []ingest.Rejection{}
	var chunk []ingest.Item
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		res, err := sendChunk(url, token, chunk)
		if err != nil {
			return err
		}
		total.Accepted += res.Accepted
		total.Rejected = append(total.Rejected, res.Rejected...)
		chunk = chunk[:0]
		progress.show(counted.n, total.Accepted, len(total.Rejected))
		return nil
	}
	for {
		it, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			total.Rejected = append(total.Rejected, ingest.Rejection{Line: it.Line, Message: "reading stopped: " + err.Error()})
			break
		}
		if it.Err != nil {
			total.Rejected = append(total.Rejected, ingest.Rejection{Line: it.Line, Message: it.Err.Error()})
			continue
		}
		if chunk = append(chunk, it); len(chunk) == ingestChunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	progress.done(counted.n, total.Accepted, len(total.Rejected))
	for _, r := range total.Rejected {
		fmt.Fprintf(os.Stderr, "line %d: %s\n", r.Line, r.Message)
	}
	fmt.Printf("accepted %d, rejected %d\n", total.Accepted, len(total.Rejected))
	return nil
}

func openInput(name string) (io.ReadCloser, int64, error) {
	if name == "-" {
		return io.NopCloser(os.Stdin), 0, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, 0, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, info.Size(), nil
}

// sendChunk posts items as NDJSON and maps the reply's line numbers back to the file's.
func sendChunk(url, token string, items []ingest.Item) (ingest.Result, error) {
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	for _, it := range items {
		enc.Encode(it.Post)
	}
	req, err := http.NewRequest("POST", strings.TrimRight(url, "/")+"/api/v1/ingest/posts", &body)
	if err != nil {
		return ingest.Result{}, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/x-ndjson")
	client := &http.Client{Timeout: 2 * time.Minute}
	resp, err := client.Do(req)
	if err != nil {
		return ingest.Result{}, err
	}
	defer resp.Body.Close()
	var reply struct {
		Data    ingest.Result `json:"data"`
		Message string        `json:"message"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		return ingest.Result{}, fmt.Errorf("server replied %s: %w", resp.Status, err)
	}
	if resp.StatusCode != http.StatusOK {
		return ingest.Result{}, fmt.Errorf("server replied %s: %s", resp.Status, reply.Message)
	}
	for i, r := range reply.Data.Rejected {
		if r.Line >= 1 && r.Line <= len(items) {
			reply.Data.Rejected[i].Line = items[r.Line-1].Line
		}
	}
	return reply.Data, nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// progress draws a one-line progress bar on stderr.
type progress struct {
	size  int64
	start time.Time
}

func newProgress(size int64) *progress { return &progress{size: size, start: time.Now()} }

func (p *progress) show(read int64, accepted, rejected int) {
	rate := float64(accepted) / max(time.Since(p.start).Seconds(), 0.001)
	if p.size > 0 {
		const width = 30
		frac := min(float64(read)/float64(p.size), 1)
		filled := int(frac * width)
		fmt.Fprintf(os.Stderr, "\r[%s%s] %3.0f%%  %d accepted, %d rejected, %.0f posts/s ",
			strings.Repeat("#", filled), strings.Repeat(".", width-filled), frac*100, accepted, rejected, rate)
		return
	}
	fmt.Fprintf(os.Stderr, "\r%d accepted, %d rejected, %.0f posts/s ", accepted, rejected, rate)
}

func (p *progress) done(read int64, accepted, rejected int) {
	p.show(read, accepted, rejected)
	fmt.Fprintln(os.Stderr)
}
