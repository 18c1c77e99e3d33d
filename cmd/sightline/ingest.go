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

// ingestChunk is how many posts go in one request, and ingestChunkBytes about how many bytes:
// half the server's bound, so that a chunk of long posts is never refused as too large.
const (
	ingestChunk      = 2000
	ingestChunkBytes = ingest.MaxBody / 2
)

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
	total := ingest.Result{Rejected: []ingest.Rejection{}}
	reject := func(r ingest.Rejection) {
		total.RejectedCount++
		if len(total.Rejected) < ingest.MaxRejectionsListed {
			total.Rejected = append(total.Rejected, r)
		}
	}
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	var lines []int // the file's line of each post in body
	flush := func() error {
		if len(lines) == 0 {
			return nil
		}
		res, err := sendChunk(url, token, &body, lines)
		if err != nil {
			// What earlier requests accepted stays accepted (a full stream answers 503 mid-file):
			// say where to resume.
			return fmt.Errorf("%w; the lines before line %d were sent in earlier requests, which accepted %d posts",
				err, lines[0], total.Accepted)
		}
		total.Accepted += res.Accepted
		for _, r := range res.Rejected {
			reject(r)
		}
		// The reply lists at most the server's first rejections; count the rest too.
		total.RejectedCount += max(res.RejectedCount-len(res.Rejected), 0)
		body.Reset()
		lines = lines[:0]
		progress.show(counted.n, total.Accepted, total.RejectedCount)
		return nil
	}
	for {
		it, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			reject(ingest.Rejection{Line: it.Line, Message: "reading stopped: " + err.Error()})
			break
		}
		if it.Err != nil {
			reject(ingest.Rejection{Line: it.Line, Message: it.Err.Error()})
			continue
		}
		enc.Encode(it.Post)
		if lines = append(lines, it.Line); len(lines) == ingestChunk || body.Len() >= ingestChunkBytes {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	progress.done(counted.n, total.Accepted, total.RejectedCount)
	for _, r := range total.Rejected {
		fmt.Fprintf(os.Stderr, "line %d: %s\n", r.Line, r.Message)
	}
	if more := total.RejectedCount - len(total.Rejected); more > 0 {
		fmt.Fprintf(os.Stderr, "and %d more rejected lines\n", more)
	}
	fmt.Printf("accepted %d, rejected %d\n", total.Accepted, total.RejectedCount)
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

// sendChunk posts body (NDJSON) and maps the reply's line numbers back to the file's lines.
func sendChunk(url, token string, body io.Reader, lines []int) (ingest.Result, error) {
	req, err := http.NewRequest("POST", strings.TrimRight(url, "/")+"/api/v1/ingest/posts", body)
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
		if r.Line >= 1 && r.Line <= len(lines) {
			reply.Data.Rejected[i].Line = lines[r.Line-1]
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
