package connector

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"github.com/sightline/sightline/internal/outbound"
)

// DialWebsocket connects to target through client and bounds the messages read to readLimit
// bytes. A refusal with an HTTP status is an *HTTPError, so a rate limit's Retry-After is
// honoured; no error names the address's credentials.
func DialWebsocket(ctx context.Context, client *outbound.Client, target string, readLimit int64) (*websocket.Conn, error) {
	conn, resp, err := websocket.Dial(ctx, target, &websocket.DialOptions{HTTPClient: client.HTTP()})
	if err != nil {
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			return nil, NewHTTPError(target, resp)
		}
		return nil, outbound.RedactError(err)
	}
	conn.SetReadLimit(readLimit)
	return conn, nil
}

// ReadMessages hands each message of conn to handle until reading fails, handle returns an
// error, or nothing arrives for idle: a stream that falls silent that long is taken for dead.
func ReadMessages(ctx context.Context, conn *websocket.Conn, idle time.Duration, handle func([]byte) error) error {
	for {
		readCtx, cancel := context.WithTimeout(ctx, idle)
		_, data, err := conn.Read(readCtx)
		silent := errors.Is(readCtx.Err(), context.DeadlineExceeded)
		cancel()
		if err != nil {
			if silent {
				return fmt.Errorf("no messages for %v", idle)
			}
			return fmt.Errorf("reading the stream: %w", err)
		}
		if err := handle(data); err != nil {
			return err
		}
	}
}
