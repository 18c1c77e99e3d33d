package live

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"

	"github.com/coder/websocket"
)

// Client is a minimal Pusher-protocol client, for `sightline bench live` and the tests that
// need many sockets or a second node. The web app uses pusher-js, and so do the tests that
// prove the server speaks the protocol.
type Client struct {
	ws       *websocket.Conn
	SocketID string
}

// Frame is a message from the server.
type Frame struct {
	Event   string          `json:"event"`
	Channel string          `json:"channel,omitempty"`
	Data    json.RawMessage `json:"data"`
}

// Decode reads the frame's data into v, unwrapping the JSON string the server sends it in.
func (f Frame) Decode(v any) error {
	data := []byte(f.Data)
	var inner string
	if json.Unmarshal(data, &inner) == nil {
		data = []byte(inner)
	}
	return json.Unmarshal(data, v)
}

// ProtocolError is a pusher:error the server sent.
type ProtocolError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *ProtocolError) Error() string { return fmt.Sprintf("live: error %d: %s", e.Code, e.Message) }

// SocketPath is the path and query a client connects to.
func SocketPath(key string) string {
	return fmt.Sprintf("/app/%s?protocol=%d&client=sightline", key, ProtocolVersion)
}

// Dial connects to a ws:// URL and waits for the connection to be established.
func Dial(ctx context.Context, url string) (*Client, error) { return DialThrough(ctx, url, nil) }

// DialThrough is Dial over a connection that dial opens (a plain TCP one when dial is nil), for
// a client that needs to see its socket.
func DialThrough(ctx context.Context, url string, dial func(ctx context.Context, network, addr string) (net.Conn, error)) (*Client, error) {
	var opts *websocket.DialOptions
	if dial != nil {
		opts = &websocket.DialOptions{HTTPClient: &http.Client{Transport: &http.Transport{DialContext: dial}}}
	}
	ws, _, err := websocket.Dial(ctx, url, opts)
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(1 << 20)
	c := &Client{ws: ws}
	f, err := c.Next(ctx)
	if err != nil {
		ws.CloseNow()
		return nil, err
	}
	var established struct {
		SocketID string `json:"socket_id"`
	}
	if f.Event != "pusher:connection_established" || f.Decode(&established) != nil || established.SocketID == "" {
		ws.CloseNow()
		return nil, fmt.Errorf("live: expected pusher:connection_established, got %s", f.Event)
	}
	c.SocketID = established.SocketID
	return c, nil
}

// Send sends an event with data as an object, as pusher-js does.
func (c *Client) Send(ctx context.Context, event string, data any) error {
	b, err := json.Marshal(map[string]any{"event": event, "data": data})
	if err != nil {
		return err
	}
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// Subscribe subscribes to channel with its auth string and waits for the answer.
func (c *Client) Subscribe(ctx context.Context, channel, auth string) error {
	if err := c.Send(ctx, "pusher:subscribe", map[string]string{"channel": channel, "auth": auth}); err != nil {
		return err
	}
	for {
		f, err := c.Next(ctx)
		if err != nil {
			return err
		}
		switch {
		case f.Event == "pusher_internal:subscription_succeeded" && f.Channel == channel:
			return nil
		case f.Event == "pusher:error":
			var e ProtocolError
			if err := f.Decode(&e); err != nil {
				return err
			}
			return &e
		}
	}
}

// Next returns the next frame from the server, answering its pings on the way.
func (c *Client) Next(ctx context.Context) (Frame, error) {
	for {
		_, msg, err := c.ws.Read(ctx)
		if err != nil {
			return Frame{}, err
		}
		var f Frame
		if err := json.Unmarshal(msg, &f); err != nil {
			return Frame{}, fmt.Errorf("live: unreadable frame %q: %w", msg, err)
		}
		if f.Event == "pusher:ping" {
			if err := c.Send(ctx, "pusher:pong", map[string]any{}); err != nil {
				return Frame{}, err
			}
			continue
		}
		return f, nil
	}
}

// Close closes the socket normally.
func (c *Client) Close() error { return c.ws.Close(websocket.StatusNormalClosure, "") }
