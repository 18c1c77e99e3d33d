package live

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/sightline/sightline/internal/wait"
)

// startNATS runs a NATS server in the test process, reachable in-process only.
func startNATS(t *testing.T) *natsserver.Server {
	t.Helper()
	s, err := natsserver.NewServer(&natsserver.Options{DontListen: true, NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	if !s.ReadyForConnections(wait.Deadline) {
		t.Fatal("NATS did not start")
	}
	t.Cleanup(s.Shutdown)
	return s
}

func connectNATS(t *testing.T, s *natsserver.Server) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect("", nats.InProcessServer(s), nats.NoEcho())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func randomCredentials(t *testing.T) Credentials {
	b := make([]byte, 32)
	rand.Read(b)
	return Credentials{Key: "test-key", Secret: hex.EncodeToString(b)}
}

// testHub is a hub served over loopback HTTP.
type testHub struct {
	*Hub
	srv *httptest.Server
}

func newTestHub(t *testing.T, ns *natsserver.Server, creds Credentials, cfg Config) *testHub {
	t.Helper()
	cfg.Credentials = creds
	h, err := NewHub(connectNATS(t, ns), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /app/{key}", h)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h.Shutdown(ctx)
		srv.Close()
	})
	return &testHub{Hub: h, srv: srv}
}

func (th *testHub) url() string {
	return "ws" + strings.TrimPrefix(th.srv.URL, "http") + SocketPath(th.Credentials().Key)
}

func (th *testHub) dial(t *testing.T) *Client {
	t.Helper()
	c, err := Dial(wait.Context(t), th.url())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.ws.CloseNow() })
	return c
}

// subscribed dials a client subscribed to the user's channel.
func (th *testHub) subscribed(t *testing.T, userID int64) *Client {
	t.Helper()
	c := th.dial(t)
	channel := UserChannel(userID)
	if err := c.Subscribe(wait.Context(t), channel, th.Credentials().Sign(c.SocketID, channel)); err != nil {
		t.Fatal(err)
	}
	return c
}

// rawDial opens a bare websocket, for tests that look at exact frames or misbehave.
func rawDial(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.Dial(wait.Context(t), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(-1)
	t.Cleanup(func() { ws.CloseNow() })
	return ws
}

func readRaw(t *testing.T, ws *websocket.Conn) map[string]any {
	t.Helper()
	_, msg, err := ws.Read(wait.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(msg, &m); err != nil {
		t.Fatalf("frame %s: %v", msg, err)
	}
	return m
}

func sendRaw(t *testing.T, ws *websocket.Conn, msg string) {
	t.Helper()
	if err := ws.Write(wait.Context(t), websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
}

// stringData decodes a frame's data, which the protocol sends as a JSON string holding JSON.
func stringData(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	s, ok := m["data"].(string)
	if !ok {
		t.Fatalf("data of %v is not a string", m)
	}
	var data map[string]any
	if err := json.Unmarshal([]byte(s), &data); err != nil {
		t.Fatalf("data %q: %v", s, err)
	}
	return data
}

func TestProtocolFrames(t *testing.T) {
	ns := startNATS(t)
	th := newTestHub(t, ns, randomCredentials(t), Config{})
	ws := rawDial(t, th.url())

	established := readRaw(t, ws)
	if established["event"] != "pusher:connection_established" {
		t.Fatalf("first frame %v", established)
	}
	data := stringData(t, established)
	socketID, _ := data["socket_id"].(string)
	if !ValidSocketID(socketID) || data["activity_timeout"] != float64(30) {
		t.Fatalf("connection_established data %v", data)
	}

	sendRaw(t, ws, `{"event":"pusher:ping","data":{}}`)
	if pong := readRaw(t, ws); pong["event"] != "pusher:pong" {
		t.Errorf("answer to pusher:ping: %v", pong)
	}

	channel := UserChannel(42)
	auth := th.Credentials().Sign(socketID, channel)
	sendRaw(t, ws, `{"event":"pusher:subscribe","data":{"channel":"`+channel+`","auth":"`+auth+`"}}`)
	ok := readRaw(t, ws)
	if ok["event"] != "pusher_internal:subscription_succeeded" || ok["channel"] != channel {
		t.Fatalf("answer to subscribe: %v", ok)
	}
	stringData(t, ok)

	update := map[string]int{"updatedCount": 3, "totalCount": 120, "unreadCount": 17, "deletedCount": 2, "flaggedCount": 5}
	if err := th.PublishToUser(context.Background(), 42, "monitor.matches.updated", update); err != nil {
		t.Fatal(err)
	}
	event := readRaw(t, ws)
	if event["event"] != "monitor.matches.updated" || event["channel"] != channel {
		t.Fatalf("event frame %v", event)
	}
	want := map[string]any{"updatedCount": 3.0, "totalCount": 120.0, "unreadCount": 17.0, "deletedCount": 2.0, "flaggedCount": 5.0}
	if got := stringData(t, event); !equalJSON(got, want) {
		t.Errorf("event data %v, want %v", got, want)
	}

	// A subscribe whose data is a JSON string, as some clients send it, works too.
	other := UserChannel(43)
	sendRaw(t, ws, `{"event":"pusher:subscribe","data":"{\"channel\":\"`+other+`\",\"auth\":\"`+th.Credentials().Sign(socketID, other)+`\"}"}`)
	if ok := readRaw(t, ws); ok["event"] != "pusher_internal:subscription_succeeded" || ok["channel"] != other {
		t.Fatalf("answer to a string-data subscribe: %v", ok)
	}

	for _, msg := range []string{`not json`, `{"data":{}}`, `{"event":"client-typing","channel":"` + channel + `","data":{}}`,
		`{"event":"pusher:subscribe","data":{}}`} {
		sendRaw(t, ws, msg)
		e := readRaw(t, ws)
		if e["event"] != "pusher:error" {
			t.Errorf("answer to %s: %v", msg, e)
		}
		if _, isObject := e["data"].(map[string]any); !isObject {
			t.Errorf("pusher:error data is not an object: %v", e)
		}
	}

	sendRaw(t, ws, `{"event":"pusher:unsubscribe","data":{"channel":"`+channel+`"}}`)
	sendRaw(t, ws, `{"event":"pusher:unsubscribe","data":{"channel":"`+other+`"}}`)
	wait.For(t, "the unsubscriptions", func() bool { return th.Stats().Subscriptions == 0 })
	if s := th.Stats(); s.Sockets != 1 {
		t.Errorf("stats after unsubscribing: %+v", s)
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestHandshakeRefusals(t *testing.T) {
	ns := startNATS(t)
	th := newTestHub(t, ns, randomCredentials(t), Config{})
	base := "ws" + strings.TrimPrefix(th.srv.URL, "http")
	tests := []struct {
		name string
		path string
		want websocket.StatusCode
	}{
		{"unknown app key", "/app/wrong-key?protocol=7", CodeAppNotFound},
		{"no protocol version", "/app/test-key", CodeNoProtocol},
		{"old protocol version", "/app/test-key?protocol=6", CodeUnsupportedProtocol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := rawDial(t, base+tt.path)
			_, _, err := ws.Read(wait.Context(t))
			if got := websocket.CloseStatus(err); got != tt.want {
				t.Errorf("closed with %d (%v), want %d", got, err, tt.want)
			}
		})
	}
}

func TestSubscribeRefused(t *testing.T) {
	ns := startNATS(t)
	th := newTestHub(t, ns, randomCredentials(t), Config{})
	other := th.dial(t)
	tests := []struct {
		name       string
		channel    string
		auth       func(socketID string) string
		wantStatus float64
	}{
		{"a bad signature", UserChannel(7), func(string) string { return th.Credentials().Key + ":00" }, 401},
		{"a signature for another socket", UserChannel(7), func(string) string {
			return th.Credentials().Sign(other.SocketID, UserChannel(7))
		}, 401},
		{"a signature for another channel", UserChannel(7), func(id string) string { return th.Credentials().Sign(id, UserChannel(8)) }, 401},
		{"another app's signature", UserChannel(7), func(id string) string {
			return Credentials{Key: "test-key", Secret: "not-the-secret"}.Sign(id, UserChannel(7))
		}, 401},
		{"a public channel", "news", func(string) string { return "" }, 403},
		{"a presence channel", "presence-room", func(id string) string { return th.Credentials().Sign(id, "presence-room") }, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := th.dial(t)
			err := c.Subscribe(wait.Context(t), tt.channel, tt.auth(c.SocketID))
			var pe *ProtocolError
			if !errors.As(err, &pe) || pe.Code != int(CodeUnauthorized) {
				t.Fatalf("Subscribe = %v, want error 4009", err)
			}
			f, err := c.Next(wait.Context(t))
			var refusal struct {
				Type   string  `json:"type"`
				Status float64 `json:"status"`
			}
			if err != nil || f.Event != "pusher:subscription_error" || f.Channel != tt.channel || f.Decode(&refusal) != nil ||
				refusal.Type != "AuthError" || refusal.Status != tt.wantStatus {
				t.Errorf("then %+v (%+v), %v; want pusher:subscription_error with status %v", f, refusal, err, tt.wantStatus)
			}
			// The socket is still served.
			if err := c.Send(wait.Context(t), "pusher:ping", map[string]any{}); err != nil {
				t.Fatal(err)
			}
			if f, err := c.Next(wait.Context(t)); err != nil || f.Event != "pusher:pong" {
				t.Errorf("ping after a refusal: %+v, %v", f, err)
			}
		})
	}
	if s := th.Stats(); s.Subscriptions != 0 {
		t.Errorf("refused subscriptions were kept: %+v", s)
	}
}

func TestFanOutAcrossHubs(t *testing.T) {
	ns := startNATS(t)
	creds := randomCredentials(t)
	nodeA := newTestHub(t, ns, creds, Config{})
	nodeB := newTestHub(t, ns, creds, Config{})
	onA := nodeA.subscribed(t, 1)
	onB := nodeB.subscribed(t, 1)
	otherUser := nodeA.subscribed(t, 2)

	export := ExportReady{Link: "/exports/9.csv", TTL: 3600}
	if err := nodeB.PublishToUser(context.Background(), 1, EventExportReady, export); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*Client{"node A": onA, "node B": onB} {
		f, err := c.Next(wait.Context(t))
		var got ExportReady
		if err != nil || f.Event != EventExportReady || f.Channel != UserChannel(1) || f.Decode(&got) != nil || got != export {
			t.Errorf("%s received %+v (%+v), %v", name, f, got, err)
		}
	}
	// User 2 got nothing: the next frame it sees is the answer to its own ping.
	otherUser.Send(wait.Context(t), "pusher:ping", map[string]any{})
	if f, err := otherUser.Next(wait.Context(t)); err != nil || f.Event != "pusher:pong" {
		t.Errorf("another user received %+v, %v", f, err)
	}
}

// A keyed event published again, by the same node or another (a batch re-run after its node
// died), reaches each socket once; other keys and other users are not held back.
func TestKeyedEventsReachASocketOnce(t *testing.T) {
	ns := startNATS(t)
	creds := randomCredentials(t)
	nodeA := newTestHub(t, ns, creds, Config{})
	nodeB := newTestHub(t, ns, creds, Config{})
	onA := nodeA.subscribed(t, 1)
	onB := nodeB.subscribed(t, 1)
	other := nodeA.subscribed(t, 2)
	ctx := context.Background()
	for _, p := range []struct {
		hub  *testHub
		user int64
		key  string
		link string
	}{
		{nodeA, 1, "match:1", "first"},
		{nodeB, 1, "match:1", "again from node B"},
		{nodeA, 1, "match:1", "again from node A"},
		{nodeB, 2, "match:1", "another user's"},
		{nodeB, 1, "match:2", "second"},
	} {
		if err := p.hub.PublishToUserOnce(ctx, p.user, EventExportReady, p.key, ExportReady{Link: p.link}); err != nil {
			t.Fatal(err)
		}
	}
	// Which copy of match:1 comes first to a socket depends on NATS's timing; one comes.
	copies := map[string]bool{"first": true, "again from node B": true, "again from node A": true}
	for _, tt := range []struct {
		name   string
		client *Client
		want   []string
	}{{"node A", onA, []string{"match:1", "second"}}, {"node B", onB, []string{"match:1", "second"}},
		{"user 2", other, []string{"another user's"}}} {
		for _, want := range tt.want {
			f, err := tt.client.Next(wait.Context(t))
			var ev ExportReady
			if err != nil || f.Decode(&ev) != nil {
				t.Fatalf("%s: %+v, %v", tt.name, f, err)
			}
			if ev.Link != want && !(want == "match:1" && copies[ev.Link]) {
				t.Errorf("%s received %q, want %q", tt.name, ev.Link, want)
			}
		}
		// Nothing else: the next frame is the answer to a ping.
		tt.client.Send(wait.Context(t), "pusher:ping", map[string]any{})
		if f, err := tt.client.Next(wait.Context(t)); err != nil || f.Event != "pusher:pong" {
			t.Errorf("%s received %+v, %v; want nothing more", tt.name, f, err)
		}
	}
}

func TestOnceKeysForgetAfterTheWindow(t *testing.T) {
	var o onceKeys
	start := time.Now()
	for _, tt := range []struct {
		at   time.Duration
		user int64
		key  string
		want bool
	}{
		{0, 1, "a", true},
		{time.Second, 1, "a", false},
		{time.Second, 2, "a", true},
		{OnceWindow + time.Second, 1, "a", false}, // the previous generation still holds it
		{2*OnceWindow + 2*time.Second, 1, "a", true},
	} {
		if got := o.first(tt.user, tt.key, start.Add(tt.at)); got != tt.want {
			t.Errorf("at %s user %d key %q: first = %v, want %v", tt.at, tt.user, tt.key, got, tt.want)
		}
	}
}

func TestPublishRefusesProtocolEvents(t *testing.T) {
	th := newTestHub(t, startNATS(t), randomCredentials(t), Config{})
	for _, event := range []string{"", "pusher:error", "pusher_internal:subscription_succeeded"} {
		if err := th.PublishToUser(context.Background(), 1, event, nil); err == nil {
			t.Errorf("publishing %q was accepted", event)
		}
	}
}

func TestSlowConsumerIsClosedWith4100(t *testing.T) {
	th := newTestHub(t, startNATS(t), randomCredentials(t), Config{QueueSize: 4})
	ws := rawDial(t, th.url())
	data := stringData(t, readRaw(t, ws))
	socketID := data["socket_id"].(string)
	channel := UserChannel(5)
	sendRaw(t, ws, `{"event":"pusher:subscribe","data":{"channel":"`+channel+`","auth":"`+th.Credentials().Sign(socketID, channel)+`"}}`)
	if ok := readRaw(t, ws); ok["event"] != "pusher_internal:subscription_succeeded" {
		t.Fatalf("subscribe: %v", ok)
	}

	// The client reads nothing while large events pile up: the socket buffers fill, the writer
	// blocks and the queue overflows.
	big := map[string]string{"blob": strings.Repeat("x", 256<<10)}
	for i := 0; th.Stats().SlowConsumers == 0; i++ {
		if i == 2000 {
			t.Fatalf("no overflow after %d events: %+v", i, th.Stats())
		}
		if err := th.PublishToUser(context.Background(), 5, "bulk", big); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	// Reading again, the client gets what was already on its way, then the close code.
	for {
		_, _, err := ws.Read(wait.Context(t))
		if err != nil {
			if got := websocket.CloseStatus(err); got != CodeOverCapacity {
				t.Fatalf("closed with %d (%v), want 4100", got, err)
			}
			break
		}
	}
	wait.For(t, "the socket to be released", func() bool { return th.Stats().Sockets == 0 })
}

func TestStalledWriteIsCut(t *testing.T) {
	// The queue is too large to overflow: only the write timeout can free the socket.
	th := newTestHub(t, startNATS(t), randomCredentials(t), Config{QueueSize: 100_000, WriteTimeout: 200 * time.Millisecond})
	th.subscribed(t, 6) // and never reads again

	big := map[string]string{"blob": strings.Repeat("x", 256<<10)}
	for i := 0; i < 200 && th.Stats().Sockets > 0; i++ {
		if err := th.PublishToUser(context.Background(), 6, "bulk", big); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	wait.For(t, "the stalled socket to be closed", func() bool { return th.Stats().Sockets == 0 })
	if s := th.Stats(); s.SlowConsumers != 0 {
		t.Errorf("closed as a slow consumer, not by the write timeout: %+v", s)
	}
}

func TestShutdownClosesWith4200(t *testing.T) {
	th := newTestHub(t, startNATS(t), randomCredentials(t), Config{})
	clients := []*Client{th.subscribed(t, 1), th.subscribed(t, 2), th.dial(t)}
	closed := make(chan error, len(clients))
	for _, c := range clients {
		go func() {
			_, err := c.Next(wait.Context(t))
			closed <- err
		}()
	}
	if err := th.Shutdown(wait.Context(t)); err != nil {
		t.Fatalf("Shutdown = %v", err)
	}
	for range clients {
		if err := <-closed; websocket.CloseStatus(err) != CodeReconnect {
			t.Errorf("closed with %v, want 4200", err)
		}
	}
	if s := th.Stats(); s.Sockets != 0 {
		t.Errorf("after shutdown: %+v", s)
	}
	_, resp, err := websocket.Dial(wait.Context(t), th.url(), nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a new connection after shutdown: %v, %v", resp, err)
	}
}

func TestPings(t *testing.T) {
	// The server pings after 4/3 of the activity timeout without a word from the client.
	cfg := Config{ActivityTimeout: 150 * time.Millisecond, PongTimeout: 150 * time.Millisecond}
	th := newTestHub(t, startNATS(t), randomCredentials(t), cfg)

	t.Run("a client that does not answer is closed with 4201", func(t *testing.T) {
		ws := rawDial(t, th.url())
		readRaw(t, ws) // connection_established
		if ping := readRaw(t, ws); ping["event"] != "pusher:ping" {
			t.Fatalf("expected pusher:ping, got %v", ping)
		}
		_, _, err := ws.Read(wait.Context(t))
		if got := websocket.CloseStatus(err); got != CodePongTimeout {
			t.Fatalf("closed with %d (%v), want 4201", got, err)
		}
	})

	t.Run("a client that answers stays", func(t *testing.T) {
		c := th.subscribed(t, 9)
		got := make(chan Frame, 1)
		go func() {
			f, err := c.Next(wait.Context(t)) // answers the pings while it waits
			if err != nil {
				t.Error(err)
			}
			got <- f
		}()
		time.Sleep(10 * cfg.ActivityTimeout)
		th.PublishToUser(context.Background(), 9, "still.here", map[string]int{"n": 1})
		if f := <-got; f.Event != "still.here" {
			t.Errorf("received %+v", f)
		}
	})
}

func FuzzParseClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"event":"pusher:subscribe","data":{"channel":"private-user.1","auth":"k:s"}}`,
		`{"event":"pusher:subscribe","data":"{\"channel\":\"private-user.1\"}"}`,
		`{"event":"pusher:unsubscribe","data":{"channel":"x"}}`,
		`{"event":"pusher:ping","data":{}}`, `{"event":""}`, `[]`, `"x"`, `{"event":"pusher:subscribe","data":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		m, err := parseClientMessage(msg)
		if err != nil {
			return
		}
		if m.Event == "" {
			t.Errorf("parsed %q without an event", msg)
		}
		if (m.Event == "pusher:subscribe" || m.Event == "pusher:unsubscribe") && m.Channel == "" {
			t.Errorf("parsed %q as %s without a channel", msg, m.Event)
		}
	})
}
