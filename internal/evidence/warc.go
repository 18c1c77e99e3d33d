package evidence

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nlnwa/gowarc/v2"
)

// warcWriter collects a capture's exchanges as one uncompressed WARC 1.1 file: a warcinfo
// record, then a request and a response record for each exchange, with SHA-256 block digests.
// The response is the reply as Go's client read it: the body decoded from any transfer or
// content encoding, the header saying so (docs/evidence.md, "What the WARC holds").
type warcWriter struct {
	buf       bytes.Buffer
	exchanges int
	err       error
}

var warcOptions = []gowarc.WarcRecordOption{gowarc.WithDefaultDigestAlgorithm("sha256"), gowarc.WithStrictValidation()}

func newWARC(at time.Time) *warcWriter {
	w := &warcWriter{}
	b := gowarc.NewRecordBuilder(gowarc.Warcinfo, warcOptions...)
	b.AddWarcHeaderTime(gowarc.WarcDate, at)
	b.AddWarcHeader(gowarc.ContentType, "application/warc-fields")
	b.WriteString("software: Sightline evidence capture\r\nformat: WARC File Format 1.1\r\n" +
		"conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n")
	w.write(b)
	return w
}

func (w *warcWriter) write(b gowarc.WarcRecordBuilder) string {
	defer b.Close()
	rec, _, err := b.Build()
	if err != nil {
		w.err = errors.Join(w.err, err)
		return ""
	}
	defer rec.Close()
	if _, _, err := gowarc.NewMarshaler().Marshal(&w.buf, rec, 0); err != nil {
		w.err = errors.Join(w.err, err)
	}
	return rec.RecordId()
}

// add appends the request and response records of the redirects that led to the exchange, in
// order, then of the exchange.
func (w *warcWriter) add(ex exchange) {
	for _, hop := range ex.via {
		w.addOne(hop)
	}
	w.addOne(ex)
}

func (w *warcWriter) addOne(ex exchange) {
	target := ex.request.URL.String()
	resp := gowarc.NewRecordBuilder(gowarc.Response, warcOptions...)
	resp.AddWarcHeader(gowarc.WarcTargetURI, target)
	resp.AddWarcHeaderTime(gowarc.WarcDate, ex.at)
	resp.AddWarcHeader(gowarc.ContentType, "application/http;msgtype=response")
	resp.Write(responseBytes(ex))
	id := w.write(resp)
	req := gowarc.NewRecordBuilder(gowarc.Request, warcOptions...)
	req.AddWarcHeader(gowarc.WarcTargetURI, target)
	req.AddWarcHeaderTime(gowarc.WarcDate, ex.at)
	req.AddWarcHeader(gowarc.ContentType, "application/http;msgtype=request")
	if id != "" {
		req.AddWarcHeader(gowarc.WarcConcurrentTo, "<"+id+">")
	}
	req.Write(requestBytes(ex.request))
	w.write(req)
	w.exchanges++
}

func (w *warcWriter) bytes() []byte { return w.buf.Bytes() }

func (w *warcWriter) size() int { return w.buf.Len() }

// addWithin adds the exchange's records if the file stays within max bytes; it says whether it did.
func (w *warcWriter) addWithin(ex exchange, max int64) bool {
	n, count := w.buf.Len(), w.exchanges
	w.add(ex)
	if int64(w.buf.Len()) > max {
		w.buf.Truncate(n)
		w.exchanges = count
		return false
	}
	return true
}

// requestBytes is the request as sent: its line and header.
func requestBytes(r *http.Request) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", r.Method, r.URL.RequestURI(), r.URL.Host)
	writeHeader(&b, r.Header)
	return b.Bytes()
}

// responseBytes is the reply as read: its status line, its header with the body's real length
// (the body is stored decoded), and the body.
func responseBytes(ex exchange) []byte {
	var b bytes.Buffer
	r := ex.response
	fmt.Fprintf(&b, "HTTP/%d.%d %s\r\n", r.ProtoMajor, r.ProtoMinor, r.Status)
	h := r.Header.Clone()
	h.Del("Transfer-Encoding")
	if r.Uncompressed {
		h.Del("Content-Encoding")
	}
	h.Set("Content-Length", strconv.Itoa(len(ex.body)))
	writeHeader(&b, h)
	b.Write(ex.body)
	return b.Bytes()
}

func writeHeader(b *bytes.Buffer, h http.Header) {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		for _, v := range h[k] {
			fmt.Fprintf(b, "%s: %s\r\n", k, strings.NewReplacer("\r", " ", "\n", " ").Replace(v))
		}
	}
	b.WriteString("\r\n")
}

// CheckWARC parses every record of a WARC file and checks its block digest; it returns how many
// records it read, or the first problem.
func CheckWARC(r io.Reader) (int, error) {
	rd, err := gowarc.NewWarcFileReaderFromStream(bufio.NewReader(r), 0,
		gowarc.WithStrictValidation(), gowarc.WithFixDigest(false), gowarc.WithFixContentLength(false),
		gowarc.WithAddMissingDigest(false), gowarc.WithFixSyntaxErrors(false))
	if err != nil {
		return 0, err
	}
	defer rd.Close()
	n := 0
	for {
		rec, off, _, err := rd.Next()
		if errors.Is(err, io.EOF) {
			if n == 0 {
				return 0, errors.New("no WARC record")
			}
			return n, nil
		}
		what := fmt.Sprintf("record %d at byte %d", n+1, off)
		if rec != nil {
			// Which record: its type and address, for a reader to find what changed.
			what += fmt.Sprintf(" (%s %s)", rec.Type(), rec.WarcHeader().Get(gowarc.WarcTargetURI))
		}
		if err != nil {
			if rec != nil {
				rec.Close()
			}
			return n, fmt.Errorf("%s: %w", what, err)
		}
		if !rec.WarcHeader().Has(gowarc.WarcBlockDigest) {
			rec.Close()
			return n, fmt.Errorf("%s has no block digest", what)
		}
		v := &gowarc.Validation{}
		err = rec.ValidateDigest(v)
		rec.Close()
		if err == nil && !v.Valid() {
			err = errors.New(v.String())
		}
		if err != nil {
			return n, fmt.Errorf("%s: %w", what, err)
		}
		n++
	}
}
