package api

import (
	"errors"
	"io"
	"net/http"
	"os"
	"time"
)

// DefaultBodyReadTimeout is how long a request body may take to arrive, or for a stream (the
// ingest API) how long it may pause, when Deps.BodyReadTimeout is 0.
const DefaultBodyReadTimeout = 30 * time.Second

// bodyDeadline gives every request body a read deadline on the connection. Without one, a
// client that sends the headers and then trickles or withholds the body holds a connection, a
// handler and its buffers for as long as it likes (the server has only a header timeout).
func (a *API) bodyDeadline(next http.Handler) http.Handler {
	timeout := a.BodyReadTimeout
	if timeout <= 0 {
		timeout = DefaultBodyReadTimeout
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			rc := http.NewResponseController(w)
			start := time.Now()
			if rc.SetReadDeadline(start.Add(timeout)) == nil {
				r.Body = &deadlineBody{ReadCloser: r.Body, w: w, rc: rc, timeout: timeout, start: start}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// deadlineBody ends the body's read deadline once the body is read, and closes the connection
// after the reply when the deadline cut the body short.
type deadlineBody struct {
	io.ReadCloser
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	start   time.Time
	// streaming extends the deadline as data arrives, up to the request timeout.
	streaming bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == io.EOF:
		// The server's own read for the next request must not inherit the deadline.
		b.rc.SetReadDeadline(time.Time{})
	case errors.Is(err, os.ErrDeadlineExceeded):
		b.w.Header().Set("Connection", "close")
	case n > 0 && b.streaming:
		deadline := time.Now().Add(b.timeout)
		if end := b.start.Add(RequestTimeout); end.Before(deadline) {
			deadline = end
		}
		b.rc.SetReadDeadline(deadline)
	}
	return n, err
}

// streamBody lets the body of r arrive over a longer time, as long as it never pauses for longer
// than the body read timeout: for the ingest API, which processes the body as it is read.
func streamBody(r *http.Request) io.Reader {
	if b, ok := r.Body.(*deadlineBody); ok {
		b.streaming = true
	}
	return r.Body
}
