// Package live is Sightline's live browser channel: a websocket server speaking the Pusher
// Channels protocol, version 7, at /app/{key}, so the web app's pusher-js and laravel-echo work
// unchanged. Only private per-user channels (private-user.{id}) are served. An event for a user
// is published on NATS and every node delivers it to its own sockets subscribed to that user's
// channel, so a browser connected to any node of a cluster gets it.
package live

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"
)

// ProtocolVersion is the Pusher protocol version served.
const ProtocolVersion = 7

// Close and error codes of the protocol: 4000-4099 tell the client not to reconnect, 4100-4199
// to reconnect after a back-off, 4200-4299 to reconnect at once.
const (
	CodeAppNotFound         websocket.StatusCode = 4001
	CodeUnsupportedProtocol websocket.StatusCode = 4007
	CodeNoProtocol          websocket.StatusCode = 4008
	CodeUnauthorized        websocket.StatusCode = 4009
	CodeOverCapacity        websocket.StatusCode = 4100
	CodeReconnect           websocket.StatusCode = 4200
	CodePongTimeout         websocket.StatusCode = 4201
)

// subjectPrefix is the NATS subject of a user's events: live.user.<id>.
const subjectPrefix = "live.user."

// signedOutPrefix is the NATS subject telling every node to close a user's sockets:
// live.signed-out.<id>.
const signedOutPrefix = "live.signed-out."

// DefaultQueueSize is how many messages a socket may have waiting by default: a page of match
// events (monitor.StreamedPerBatch) several times over.
const DefaultQueueSize = 64

// Config tunes a hub; zero fields take the defaults.
type Config struct {
	Credentials Credentials
	// ActivityTimeout is what clients are told: they ping after this long without hearing from
	// the server (30 s). The server pings a client it has not heard from for a third longer.
	ActivityTimeout time.Duration
	// PongTimeout is how long a pinged client has to answer before it is closed with 4201 (30 s).
	PongTimeout time.Duration
	// QueueSize bounds each socket's send queue; a socket whose queue overflows is a slow
	// consumer and is closed with 4100 (DefaultQueueSize messages).
	QueueSize int
	// WriteTimeout bounds one write to a socket (10 s).
	WriteTimeout time.Duration
}

func (c Config) withDefaults() Config {
	if c.ActivityTimeout <= 0 {
		c.ActivityTimeout = 30 * time.Second
	}
	if c.PongTimeout <= 0 {
		c.PongTimeout = 30 * time.Second
	}
	if c.QueueSize <= 0 {
		c.QueueSize = DefaultQueueSize
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = 10 * time.Second
	}
	return c
}

// idleBeforePing leaves the client's own ping (due after ActivityTimeout) time to arrive.
func (c Config) idleBeforePing() time.Duration { return c.ActivityTimeout + c.ActivityTimeout/3 }

const (
	// readLimit bounds one client message; a subscribe message is a few hundred bytes.
	readLimit = 16 << 10
	// maxChannelsPerSocket bounds what one socket may hold; a page needs one.
	maxChannelsPerSocket = 8
)

// Hub serves the sockets of one node and delivers the events published for their users.
type Hub struct {
	cfg Config
	nc  *nats.Conn
	sub *nats.Subscription
	// signedOut hears other nodes' CloseUser.
	signedOut *nats.Subscription
	log       *slog.Logger
	// ctx ends the hub's watch.
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.RWMutex
	closing bool
	sockets map[*conn]struct{}
	// users holds each user's subscribed sockets (a user has a few: a slice costs a socket 8
	// bytes where a set would cost a map).
	users   map[int64][]*conn
	serving sync.WaitGroup
	dropped atomic.Uint64
	// handed counts the events published here and handed to this node's sockets (pace).
	handed atomic.Uint64
	// once holds the keys of the keyed events delivered lately.
	once onceKeys
}

// NewHub subscribes to every user's events on NATS; call Shutdown to close it. nc must be the
// hub's own connection, opened with nats.NoEcho(): the hub hands its own events to its sockets
// directly and hears only other nodes' on NATS.
func NewHub(nc *nats.Conn, cfg Config, log *slog.Logger) (*Hub, error) {
	if cfg.Credentials.Key == "" || cfg.Credentials.Secret == "" {
		return nil, errors.New("live: the app key and secret are required")
	}
	if !nc.Opts.NoEcho {
		return nil, errors.New("live: the hub needs its own NATS connection, opened with nats.NoEcho()")
	}
	ctx, cancel := context.WithCancel(context.Background())
	h := &Hub{cfg: cfg.withDefaults(), nc: nc, log: log, ctx: ctx, cancel: cancel,
		sockets: map[*conn]struct{}{}, users: map[int64][]*conn{}}
	sub, err := nc.Subscribe(subjectPrefix+"*", h.deliverRemote)
	if err != nil {
		cancel()
		return nil, err
	}
	signedOut, err := nc.Subscribe(signedOutPrefix+"*", h.closeRemote)
	if err != nil {
		sub.Unsubscribe()
		cancel()
		return nil, err
	}
	// Once flushed, the server knows of the subscriptions: nothing published later is missed.
	if err := nc.Flush(); err != nil {
		sub.Unsubscribe()
		signedOut.Unsubscribe()
		cancel()
		return nil, err
	}
	h.sub, h.signedOut = sub, signedOut
	go h.watch()
	return h, nil
}

// Credentials are the hub's app key and secret.
func (h *Hub) Credentials() Credentials { return h.cfg.Credentials }

// ActivityTimeout is the interval clients are told to ping at.
func (h *Hub) ActivityTimeout() time.Duration { return h.cfg.ActivityTimeout }

// PublishToUser sends event with payload to every socket subscribed to the user's private
// channel, on every node.
func (h *Hub) PublishToUser(ctx context.Context, userID int64, event string, payload any) error {
	frame, err := userFrame(ctx, userID, event, payload)
	if err != nil {
		return err
	}
	// This node's sockets get the frame now; other nodes' through NATS, ready to write, so no
	// node encodes anything per socket.
	handed := h.deliver(userID, frame)
	err = h.nc.Publish(subjectPrefix+strconv.FormatInt(userID, 10), frame)
	h.pace(handed)
	return err
}

// yieldEvery is how many events handed to sockets a publishing goroutine yields after.
const yieldEvery = 32

// pace yields the publishing goroutine after every yieldEvery events handed to sockets. The
// sockets' writers were parked; woken, they wait for this goroutine to block or be preempted,
// and a caller publishing to many users in a row (a batch of matches) never blocks, so every
// write would wait for the whole run of publishing (at 10,000 users the last events waited
// 100 ms and more). Yielding now and then lets the events handed so far go out; yielding after
// each one would cost two switches an event.
func (h *Hub) pace(handed bool) {
	if handed && h.handed.Add(1)%yieldEvery == 0 {
		runtime.Gosched()
	}
}

// PublishToUserOnce is PublishToUser for an event that may be published again under the same
// key, by this node or another (a batch of posts run again after its node died): each hub hands
// a socket the event of a key once within OnceWindow.
func (h *Hub) PublishToUserOnce(ctx context.Context, userID int64, event, key string, payload any) error {
	frame, err := userFrame(ctx, userID, event, payload)
	if err != nil {
		return err
	}
	handed := h.deliverOnce(userID, key, frame)
	msg := nats.NewMsg(subjectPrefix + strconv.FormatInt(userID, 10))
	msg.Header.Set(onceHeader, key)
	msg.Data = frame
	err = h.nc.PublishMsg(msg)
	h.pace(handed)
	return err
}

// userFrame is the frame of an event on a user's private channel; application events may not
// take the protocol's pusher names.
func userFrame(ctx context.Context, userID int64, event string, payload any) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if event == "" || strings.HasPrefix(event, "pusher") {
		return nil, errors.New("live: event names must not be empty or start with pusher")
	}
	return encodeFrame(event, UserChannel(userID), payload)
}

// onceHeader carries the key of an event published with PublishToUserOnce.
const onceHeader = "Sightline-Once"

// OnceWindow is how long, at least, a hub remembers the keys of the events it delivered: longer
// than a batch of posts takes to come back to a node after its node died (the stream's ack wait
// and retries).
const OnceWindow = 5 * time.Minute

// deliverRemote hands a frame published by another node to this node's sockets.
func (h *Hub) deliverRemote(msg *nats.Msg) {
	userID, err := strconv.ParseInt(strings.TrimPrefix(msg.Subject, subjectPrefix), 10, 64)
	if err != nil {
		return
	}
	if key := msg.Header.Get(onceHeader); key != "" {
		h.deliverOnce(userID, key, msg.Data)
		return
	}
	h.deliver(userID, msg.Data)
}

// deliver hands a frame to this node's sockets subscribed to the user's channel, and reports
// whether there were any.
func (h *Hub) deliver(userID int64, frame []byte) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for _, c := range h.users[userID] {
		c.enqueue(frame)
	}
	return len(h.users[userID]) > 0
}

// deliverOnce is deliver for a keyed event: it is dropped if the key was delivered to the user
// lately (false). Only events this node has sockets for are remembered, so the memory follows what the
// node serves.
func (h *Hub) deliverOnce(userID int64, key string, frame []byte) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if len(h.users[userID]) == 0 || !h.once.first(userID, key, time.Now()) {
		return false
	}
	for _, c := range h.users[userID] {
		c.enqueue(frame)
	}
	return true
}

// onceKeys remembers event keys in two generations: a key is found in either, and the older is
// dropped whole every OnceWindow, so nothing is swept key by key and a key lives one to two
// windows.
type onceKeys struct {
	mu        sync.Mutex
	cur, prev map[onceKey]struct{}
	rotated   time.Time
}

type onceKey struct {
	user int64
	key  string
}

// first reports whether the user's key is new, and remembers it.
func (o *onceKeys) first(userID int64, key string, now time.Time) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.cur == nil || now.Sub(o.rotated) >= OnceWindow {
		o.prev, o.cur, o.rotated = o.cur, map[onceKey]struct{}{}, now
	}
	k := onceKey{userID, key}
	if _, ok := o.cur[k]; ok {
		return false
	}
	if _, ok := o.prev[k]; ok {
		return false
	}
	o.cur[k] = struct{}{}
	return true
}

// CloseUser closes the sockets subscribed to the user's channel, on every node, when one of the
// user's sessions ends. A socket is not tied to the session that authorized its subscription,
// so every socket of the user is closed, with 4200: a client reconnects at once and must have
// its subscription authorized again, which the user's other sessions do and the ended one
// cannot.
func (h *Hub) CloseUser(ctx context.Context, userID int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	h.closeUser(userID)
	return h.nc.Publish(signedOutPrefix+strconv.FormatInt(userID, 10), nil)
}

// closeRemote closes this node's sockets of a user another node's CloseUser named.
func (h *Hub) closeRemote(msg *nats.Msg) {
	if userID, err := strconv.ParseInt(strings.TrimPrefix(msg.Subject, signedOutPrefix), 10, 64); err == nil {
		h.closeUser(userID)
	}
}

func (h *Hub) closeUser(userID int64) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for _, c := range h.users[userID] {
		c.end(CodeReconnect, "Session ended: authorize again")
	}
}

// watchInterval is how often the hub's watch looks at its sockets: a quarter of the shortest
// of the timeouts it enforces (2.5 s by default).
func (c Config) watchInterval() time.Duration {
	return min(c.WriteTimeout, c.PongTimeout, c.idleBeforePing()) / 4
}

// watch looks at every socket each watchInterval until the hub shuts down, so that no socket
// needs a timer or a goroutine of its own while idle. It closes a socket whose write has taken
// longer than WriteTimeout (its client stopped reading and the kernel's buffers are full), pings
// a client not heard from for idleBeforePing, and closes with 4201 one that did not answer
// within PongTimeout.
func (h *Hub) watch() {
	tick := time.NewTicker(h.cfg.watchInterval())
	defer tick.Stop()
	for {
		select {
		case <-h.ctx.Done():
			return
		case now := <-tick.C:
			var stalled []*conn
			h.mu.RLock()
			for c := range h.sockets {
				if began := c.writing.Load(); began != 0 && now.UnixNano()-began > int64(h.cfg.WriteTimeout) {
					stalled = append(stalled, c)
					continue
				}
				h.ping(c, now.UnixNano())
			}
			h.mu.RUnlock()
			for _, c := range stalled {
				h.log.Warn("live: closed a socket whose write stalled", "socket", c.socketID)
				c.ws.CloseNow()
			}
		}
	}
}

// ping pings a client gone quiet and closes one that did not answer; only watch calls it.
func (h *Hub) ping(c *conn, now int64) {
	heard := c.heard.Load()
	if c.pingedAt != 0 {
		if heard <= c.pingedAt {
			if now-c.pingedAt >= int64(h.cfg.PongTimeout) {
				c.end(CodePongTimeout, "Pong reply not received")
			}
			return
		}
		c.pingedAt = 0
	}
	if now-heard >= int64(h.cfg.idleBeforePing()) {
		c.enqueue(pingFrame)
		c.pingedAt = now
	}
}

// Stats describes the hub's sockets.
type Stats struct {
	Sockets int `json:"sockets"`
	// Subscriptions counts (socket, channel) pairs.
	Subscriptions int `json:"subscriptions"`
	// SlowConsumers counts sockets closed because their send queue overflowed.
	SlowConsumers uint64 `json:"slowConsumers"`
}

// Stats reports the hub's sockets now.
func (h *Hub) Stats() Stats {
	h.mu.RLock()
	defer h.mu.RUnlock()
	s := Stats{Sockets: len(h.sockets), SlowConsumers: h.dropped.Load()}
	for _, sockets := range h.users {
		s.Subscriptions += len(sockets)
	}
	return s
}

// ServeHTTP upgrades a request for /app/{key} to a live socket, which it leaves served by a
// goroutine of the socket's own.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.isClosing() {
		http.Error(w, "the server is shutting down", http.StatusServiceUnavailable)
		return
	}
	buffers := &smallBuffers{ResponseWriter: w}
	ws, err := websocket.Accept(buffers, r, nil)
	if err != nil {
		return // Accept has answered the request
	}
	ws.SetReadLimit(readLimit)
	if code, reason := h.checkHandshake(r); code != 0 {
		ws.Close(code, reason)
		return
	}
	c := &conn{hub: h, ws: ws, socketID: newSocketID(), buffered: buffers.reader, idle: newIdleWaiter(buffers.conn)}
	c.heard.Store(time.Now().UnixNano())
	if !h.register(c) {
		ws.Close(CodeReconnect, "Server is restarting")
		return
	}
	established, _ := encodeFrame("pusher:connection_established", "", map[string]any{
		"socket_id": c.socketID, "activity_timeout": int(h.cfg.ActivityTimeout / time.Second)})
	c.enqueue(established)
	// The socket is read on a goroutine of its own and the request returns, so that what the
	// request held (the HTTP connection's state, the request and its headers, and the deep
	// stack of the server's goroutine) is freed for the socket's life. (Accept hijacks the
	// connection, which only HTTP/1.1 allows.)
	go c.read()
}

// checkHandshake returns the close code for a connection the hub does not serve, or 0.
func (h *Hub) checkHandshake(r *http.Request) (websocket.StatusCode, string) {
	if r.PathValue("key") != h.cfg.Credentials.Key {
		return CodeAppNotFound, "Application does not exist"
	}
	switch r.URL.Query().Get("protocol") {
	case strconv.Itoa(ProtocolVersion):
		return 0, ""
	case "":
		return CodeNoProtocol, "No protocol version supplied"
	default:
		return CodeUnsupportedProtocol, "Unsupported protocol version"
	}
}

func newSocketID() string {
	return strconv.FormatUint(uint64(rand.Uint32()), 10) + "." + strconv.FormatUint(uint64(rand.Uint32()), 10)
}

func (h *Hub) isClosing() bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.closing
}

func (h *Hub) register(c *conn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing {
		return false
	}
	h.sockets[c] = struct{}{}
	h.serving.Add(1)
	return true
}

func (h *Hub) unregister(c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.sockets, c)
	for _, userID := range c.users {
		h.removeSubscriber(userID, c)
	}
	h.serving.Done()
}

// addSubscriber adds the socket to the user's channel and queues its acknowledgement, under the
// lock deliver takes: every event published after the client read the acknowledgement reaches
// it, and none comes before it.
func (h *Hub) addSubscriber(userID int64, c *conn, ack []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.users[userID] = append(h.users[userID], c)
	c.enqueue(ack)
}

// removeSubscriber needs h.mu held.
func (h *Hub) removeSubscriber(userID int64, c *conn) {
	sockets := slices.DeleteFunc(h.users[userID], func(s *conn) bool { return s == c })
	if len(sockets) == 0 {
		delete(h.users, userID)
	} else {
		h.users[userID] = sockets
	}
}

func (h *Hub) unsubscribe(userID int64, c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.removeSubscriber(userID, c)
}

// Shutdown stops delivering events and closes every socket with 4200, so clients reconnect at
// once (to another node, or to this one once it is back). It waits for the sockets to close
// until ctx ends, then cuts the rest.
func (h *Hub) Shutdown(ctx context.Context) error {
	h.mu.Lock()
	h.closing = true
	for c := range h.sockets {
		c.end(CodeReconnect, "Server is restarting")
	}
	h.mu.Unlock()
	for _, sub := range []*nats.Subscription{h.sub, h.signedOut} {
		if err := sub.Unsubscribe(); err != nil && !errors.Is(err, nats.ErrBadSubscription) && !errors.Is(err, nats.ErrConnectionClosed) {
			h.log.Warn("live: unsubscribe from NATS", "err", err)
		}
	}
	closed := make(chan struct{})
	go func() {
		h.serving.Wait()
		close(closed)
	}()
	select {
	case <-closed:
		h.cancel()
		return nil
	case <-ctx.Done():
		// Cut the sockets still open; their readers then end.
		h.mu.RLock()
		open := make([]*conn, 0, len(h.sockets))
		for c := range h.sockets {
			open = append(open, c)
		}
		h.mu.RUnlock()
		for _, c := range open {
			c.ws.CloseNow()
		}
		h.cancel()
		<-closed
		return ctx.Err()
	}
}

// frame is one protocol message. The server sends data as a JSON string holding JSON, as
// Pusher does, except for pusher:error whose data is an object.
type frame struct {
	Event   string `json:"event"`
	Channel string `json:"channel,omitempty"`
	Data    any    `json:"data"`
}

func encodeFrame(event, channel string, payload any) ([]byte, error) {
	data, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	return json.Marshal(frame{Event: event, Channel: channel, Data: string(data)})
}

type protocolError struct {
	Code    int    `json:"code,omitempty"`
	Message string `json:"message"`
}

func errorFrame(code websocket.StatusCode, message string) []byte {
	b, _ := json.Marshal(frame{Event: "pusher:error", Data: protocolError{Code: int(code), Message: message}})
	return b
}

var (
	pongFrame = []byte(`{"event":"pusher:pong","data":"{}"}`)
	pingFrame = []byte(`{"event":"pusher:ping","data":"{}"}`)
)
