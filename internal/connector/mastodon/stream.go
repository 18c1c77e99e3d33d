package mastodon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/connector"
)

// heartbeatTimeout is how long a stream may stay silent: servers send a heartbeat comment about
// every 15 seconds, so silence this long means a dead connection.
const heartbeatTimeout = 60 * time.Second

// errStreamEnded is returned when the server closes the stream.
var errStreamEnded = errors.New("the server closed the stream")

// stream is one streaming connection: it opens the stream first, then catches up over REST from
// the cursor, then reads the stream, skipping what the catch-up already emitted. Opening first
// leaves no gap between the two.
func (r *reader) stream(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The stream's client has no timeout (it would cut the stream), so the wait for the
	// reply's headers is bounded here.
	headersLate := time.AfterFunc(requestTimeout, cancel)
	resp, err := connector.Get(ctx, r.client, r.cfg.BaseURL+r.timeline.stream, r.authorization())
	if !headersLate.Stop() {
		return fmt.Errorf("the stream did not answer within %v", requestTimeout)
	}
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := r.catchUp(ctx); err != nil {
		return err
	}
	r.status.Succeeded()

	// A watchdog ends the connection when nothing, not even a heartbeat, arrives in time.
	alive := make(chan struct{}, 1)
	go func() {
		t := time.NewTimer(heartbeatTimeout)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-alive:
				t.Reset(heartbeatTimeout)
			case <-t.C:
				cancel()
				return
			}
		}
	}()

	lines := bufio.NewScanner(resp.Body)
	lines.Buffer(make([]byte, 64<<10), 4<<20)
	var event string
	var data strings.Builder
	for lines.Scan() {
		select {
		case alive <- struct{}{}:
		default:
		}
		line := lines.Text()
		switch {
		case line == "":
			// A blank line ends an event.
			switch event {
			case "update", "status.update":
				if err := r.handle(ctx, json.RawMessage(data.String())); err != nil {
					return err
				}
			case "delete":
				if err := r.deleteStatus(ctx, data.String()); err != nil {
					return err
				}
			}
			event = ""
			data.Reset()
		case strings.HasPrefix(line, ":"): // heartbeat
		case strings.HasPrefix(line, "event:"):
			event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	if err := lines.Err(); err != nil {
		return fmt.Errorf("reading the stream: %w", err)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("no heartbeat for %v", heartbeatTimeout)
	}
	return errStreamEnded
}

// deleteStatus reports a delete event, whose data is the deleted status's id. An id that is not
// one is skipped as malformed. A report that fails is counted as skipped and the stream goes
// on: Mastodon streams no history, so reconnecting would not bring the event back.
func (r *reader) deleteStatus(ctx context.Context, id string) error {
	if r.deleted == nil {
		return nil
	}
	id = strings.TrimSpace(id)
	if id == "" || strings.ContainsAny(id, "/ \t\n\"") {
		r.status.Skipped(fmt.Errorf("%w: a delete event without a status id", connector.ErrMalformed))
		return nil
	}
	if err := r.deleted(ctx, "mastodon", r.host+"/"+id, time.Now().UTC()); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r.status.Skipped(fmt.Errorf("the deletion of status %s was not recorded: %w", id, err))
	}
	return nil
}
