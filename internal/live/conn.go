package live

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/sync/errgroup"
)

// conn is one client socket: a reader (the request's goroutine) handles what the client sends,
// and a writer alone writes to the socket, from a bounded queue.
type conn struct {
	hub      *Hub
	ws       *websocket.Conn
	socketID string
	// queue holds the frames waiting for the writer, at most the hub's QueueSize; wake tells
	// the writer there are some. The queue grows as frames come and is dropped once written:
	// an idle socket holds none (a channel of QueueSize frames would hold 1.5 KB per socket at
	// the default size, idle or not).
	mu    sync.Mutex
	queue [][]byte
	wake  chan struct{}
	// heard is when the client last sent anything, in Unix nanoseconds.
	heard atomic.Int64
	// users whose channels the socket subscribed to; only the reader touches it.
	users []int64
	// writing is when the write in progress began, in Unix nanoseconds, or 0 between writes.
	writing atomic.Int64

	endOnce   sync.Once
	ending    chan struct{}
	endCode   websocket.StatusCode
	endReason string
}

// enqueue queues a frame for the writer without ever blocking: a client too slow to take its
// frames is closed with 4100, and its next connection fetches what it missed.
func (c *conn) enqueue(frame []byte) {
	c.mu.Lock()
	full := len(c.queue) >= c.hub.cfg.QueueSize
	if !full {
		c.queue = append(c.queue, frame)
	}
	c.mu.Unlock()
	if full {
		if c.end(CodeOverCapacity, "Over capacity") {
			c.hub.dropped.Add(1)
			c.hub.log.Warn("live: closed a slow consumer", "socket", c.socketID)
		}
		return
	}
	select {
	case c.wake <- struct{}{}:
	default: // the writer has been told already
	}
}

// next takes the oldest queued frame; ok is false when none waits.
func (c *conn) next() (frame []byte, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.queue) == 0 {
		return nil, false
	}
	frame = c.queue[0]
	c.queue[0] = nil
	c.queue = c.queue[1:]
	if len(c.queue) == 0 {
		c.queue = nil
	}
	return frame, true
}

// end asks the writer to close the socket with code; it reports whether this call decided it.
func (c *conn) end(code websocket.StatusCode, reason string) bool {
	first := false
	c.endOnce.Do(func() {
		first = true
		c.endCode, c.endReason = code, reason
		close(c.ending)
	})
	return first
}

// serve runs the reader and the writer until the socket closes.
func (c *conn) serve(parent context.Context) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return c.writeLoop(ctx) })
	c.readLoop(ctx)
	cancel()
	g.Wait()
}

func (c *conn) readLoop(ctx context.Context) {
	for {
		typ, msg, err := c.ws.Read(ctx)
		if err != nil {
			return // closed by either side; the writer's close code, if any, is already sent
		}
		c.heard.Store(time.Now().UnixNano())
		if typ != websocket.MessageText {
			c.enqueue(errorFrame(0, "Messages must be JSON text."))
			continue
		}
		c.handle(msg)
	}
}

func (c *conn) handle(msg []byte) {
	m, err := parseClientMessage(msg)
	if err != nil {
		c.enqueue(errorFrame(0, err.Error()))
		return
	}
	switch m.Event {
	case "pusher:ping":
		c.enqueue(pongFrame)
	case "pusher:pong":
		// Hearing from the client is all a pong is for.
	case "pusher:subscribe":
		c.subscribe(m.Channel, m.Auth)
	case "pusher:unsubscribe":
		if userID, ok := ParseUserChannel(m.Channel); ok && slices.Contains(c.users, userID) {
			c.users = slices.DeleteFunc(c.users, func(id int64) bool { return id == userID })
			c.hub.unsubscribe(userID, c)
		}
	default:
		c.enqueue(errorFrame(0, "Unsupported event "+m.Event+": client events are not accepted."))
	}
}

func (c *conn) subscribe(channel, auth string) {
	userID, ok := ParseUserChannel(channel)
	switch {
	case !ok:
		c.refuse(channel, 403, "Only private-user.{id} channels are served.")
	case !c.hub.cfg.Credentials.Verify(c.socketID, channel, auth):
		c.refuse(channel, 401, "Invalid signature: the auth string does not sign this socket and channel.")
	case slices.Contains(c.users, userID):
		c.enqueue(subscribedFrame(channel))
	case len(c.users) >= maxChannelsPerSocket:
		c.refuse(channel, 403, "Too many channels on one socket.")
	default:
		c.users = append(c.users, userID)
		c.hub.addSubscriber(userID, c, subscribedFrame(channel))
	}
}

// refuse answers a subscription the socket may not have: with pusher:error 4009 for the
// connection and pusher:subscription_error for the channel, which pusher-js and laravel-echo
// hand to the page's error callbacks.
func (c *conn) refuse(channel string, status int, message string) {
	c.enqueue(errorFrame(CodeUnauthorized, message))
	refusal, _ := encodeFrame("pusher:subscription_error", channel, map[string]any{
		"type": "AuthError", "error": message, "status": status})
	c.enqueue(refusal)
}

func subscribedFrame(channel string) []byte {
	b, _ := json.Marshal(frame{Event: "pusher_internal:subscription_succeeded", Channel: channel, Data: "{}"})
	return b
}

// writeLoop writes queued frames, pings a client gone quiet, and closes the socket when asked.
func (c *conn) writeLoop(ctx context.Context) error {
	cfg := c.hub.cfg
	check := time.NewTimer(cfg.idleBeforePing())
	defer check.Stop()
	var pingedAt time.Time
	for {
		// A socket being closed sends nothing more, even with frames still queued.
		select {
		case <-c.ending:
			return c.ws.Close(c.endCode, c.endReason)
		default:
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.ending:
			return c.ws.Close(c.endCode, c.endReason)
		case <-c.wake:
			// Every frame queued until now, each checked against a close asked for meanwhile.
			for {
				select {
				case <-c.ending:
					return c.ws.Close(c.endCode, c.endReason)
				default:
				}
				f, ok := c.next()
				if !ok {
					break
				}
				if err := c.write(f); err != nil {
					return err
				}
			}
		case now := <-check.C:
			heard := time.Unix(0, c.heard.Load())
			switch {
			case !pingedAt.IsZero() && !heard.After(pingedAt):
				c.end(CodePongTimeout, "Pong reply not received")
			case now.Sub(heard) >= cfg.idleBeforePing():
				if err := c.write(pingFrame); err != nil {
					return err
				}
				pingedAt = now
				check.Reset(cfg.PongTimeout)
			default:
				pingedAt = time.Time{}
				check.Reset(cfg.idleBeforePing() - now.Sub(heard))
			}
		}
	}
}

// write sends one frame. It takes no deadline, which would cost a timer for every frame of
// every socket; the hub's watchdog cuts a write that takes longer than WriteTimeout instead.
func (c *conn) write(frame []byte) error {
	c.writing.Store(time.Now().UnixNano())
	defer c.writing.Store(0)
	return c.ws.Write(context.Background(), websocket.MessageText, frame)
}

// clientMessage is what a client sends, with the fields of subscribe and unsubscribe.
type clientMessage struct {
	Event   string
	Channel string
	Auth    string
}

// parseClientMessage reads a client message. Its data is an object, or a JSON string holding
// one, as some clients send it.
func parseClientMessage(msg []byte) (clientMessage, error) {
	var m struct {
		Event string          `json:"event"`
		Data  json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(msg, &m); err != nil || m.Event == "" {
		return clientMessage{}, errors.New("Messages must be JSON objects with an event.")
	}
	out := clientMessage{Event: m.Event}
	if m.Event != "pusher:subscribe" && m.Event != "pusher:unsubscribe" {
		return out, nil
	}
	data := []byte(m.Data)
	var inner string
	if json.Unmarshal(data, &inner) == nil {
		data = []byte(inner)
	}
	var fields struct {
		Channel string `json:"channel"`
		Auth    string `json:"auth"`
	}
	if err := json.Unmarshal(data, &fields); err != nil || fields.Channel == "" {
		return clientMessage{}, errors.New("The " + m.Event + " data must name a channel.")
	}
	out.Channel, out.Auth = fields.Channel, fields.Auth
	return out, nil
}
