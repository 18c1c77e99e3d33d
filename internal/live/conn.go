package live

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// conn is one client socket. A reader goroutine handles what the client sends, for the
// socket's life; a writer goroutine runs only while frames wait, so an idle socket has no
// writer and no writer stack (half the goroutine memory of a socket).
type conn struct {
	hub      *Hub
	ws       *websocket.Conn
	socketID string
	// heard is when the client last sent anything, in Unix nanoseconds.
	heard atomic.Int64
	// writing is when the write in progress began, in Unix nanoseconds, or 0 between writes.
	writing atomic.Int64
	// users whose channels the socket subscribed to; only the reader touches it.
	users []int64
	// buffered is the socket's read buffer, and idle parks the reader until the client sends
	// something. The library reads the buffer in a read and in a close handshake, which the
	// writer runs; bufferMu keeps the reader's look at the buffer apart from the handshake.
	buffered *bufio.Reader
	bufferMu sync.Mutex
	idle     idleWaiter
	// pingedAt is when the hub's watch pinged the client (Unix nanoseconds), 0 once it answered;
	// only the watch touches it.
	pingedAt int64

	// mu guards what follows. queue holds the frames waiting to be written, at most the hub's
	// QueueSize; it grows as frames come and is dropped once written, so an idle socket holds
	// none. writer is true while a writer goroutine owns the socket's writes: at most one runs,
	// so frames go out in the order they were queued.
	mu     sync.Mutex
	queue  [][]byte
	writer bool
	// ended is set once the socket is to close: with endCode and endReason when the hub asked
	// (the writer sends them), or because the reader stopped. Nothing is queued after it.
	ended     bool
	endCode   websocket.StatusCode
	endReason string
}

// enqueue queues a frame without ever blocking, and starts a writer if none runs: a client too
// slow to take its frames is closed with 4100, and its next connection fetches what it missed.
func (c *conn) enqueue(frame []byte) {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		return
	}
	if len(c.queue) >= c.hub.cfg.QueueSize {
		c.mu.Unlock()
		if c.end(CodeOverCapacity, "Over capacity") {
			c.hub.dropped.Add(1)
			c.hub.log.Warn("live: closed a slow consumer", "socket", c.socketID)
		}
		return
	}
	c.queue = append(c.queue, frame)
	start := !c.writer
	c.writer = true
	c.mu.Unlock()
	if start {
		go c.writeQueued()
	}
}

// end asks for the socket to be closed with code, dropping the frames still queued (a socket
// being closed sends nothing more); it reports whether this call decided it.
func (c *conn) end(code websocket.StatusCode, reason string) bool {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		return false
	}
	c.ended, c.endCode, c.endReason = true, code, reason
	c.queue = nil
	start := !c.writer
	c.writer = true
	c.mu.Unlock()
	if start {
		go c.writeQueued()
	}
	return true
}

// writeQueued is the writer: it writes the queued frames in order and exits once none is left,
// or closes the socket when asked to. A writer that closed the socket leaves writer set, so no
// other starts.
func (c *conn) writeQueued() {
	for {
		c.mu.Lock()
		if c.ended {
			code, reason := c.endCode, c.endReason
			c.mu.Unlock()
			if code != 0 {
				c.bufferMu.Lock()
				c.ws.Close(code, reason)
				c.bufferMu.Unlock()
			}
			return
		}
		if len(c.queue) == 0 {
			c.queue = nil
			c.writer = false
			c.mu.Unlock()
			return
		}
		f := c.queue[0]
		c.queue[0] = nil
		c.queue = c.queue[1:]
		c.mu.Unlock()
		if err := c.write(f); err != nil {
			// The socket is broken: close it, which ends the reader.
			c.mu.Lock()
			c.ended, c.queue = true, nil
			c.mu.Unlock()
			c.ws.CloseNow()
			return
		}
	}
}

// read handles what the client sends until the socket closes, then releases the socket. The
// reader waits for the client on a shallow stack and reads each message on a goroutine of the
// message's own: reading and handling a message take the library's and the JSON decoder's deep
// calls, and a goroutine that grew for them keeps a stack of 4 KB or more for the socket's
// life, where one that only waits keeps the 2 KB minimum.
func (c *conn) read() {
	defer c.hub.unregister(c)
	more := make(chan bool)
	for {
		c.bufferMu.Lock()
		buffered := c.buffered.Buffered()
		c.bufferMu.Unlock()
		if buffered == 0 {
			c.idle.wait()
		}
		go c.readOne(more)
		if !<-more {
			return
		}
	}
}

// readOne reads and handles one message; it tells more whether the socket goes on.
func (c *conn) readOne(more chan<- bool) {
	goOn := false
	defer func() {
		if v := recover(); v != nil {
			c.hub.log.Error("live: panic reading a socket", "socket", c.socketID, "panic", v)
			goOn = false
		}
		if !goOn {
			c.mu.Lock()
			c.ended, c.queue = true, nil
			c.mu.Unlock()
			c.ws.CloseNow()
		}
		more <- goOn
	}()
	// No context to cancel the read: the socket is closed to end it, and a cancellable context
	// would cost a registration for every frame read.
	typ, msg, err := c.ws.Read(context.Background())
	if err != nil {
		return // closed by either side; the writer's close code, if any, is already sent
	}
	c.heard.Store(time.Now().UnixNano())
	if typ != websocket.MessageText {
		c.enqueue(errorFrame(0, "Messages must be JSON text."))
	} else {
		c.handle(msg)
	}
	goOn = true
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

// write sends one frame. It takes no deadline, which would cost a timer for every frame of
// every socket; the hub's watch cuts a write that takes longer than WriteTimeout instead.
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
