package api_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/wait"
)

// liveEnv is an API with a live hub on an in-process NATS server.
func liveEnv(t *testing.T, s *store.Store) (*env, *live.Hub) {
	t.Helper()
	e := newEnv(t, s)
	ns, err := natsserver.NewServer(&natsserver.Options{DontListen: true, NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	t.Cleanup(ns.Shutdown)
	if !ns.ReadyForConnections(wait.Deadline) {
		t.Fatal("NATS did not start")
	}
	nc, err := nats.Connect("", nats.InProcessServer(ns), nats.NoEcho())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	creds, err := live.LoadCredentials(context.Background(), s, "")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	hub, err := live.NewHub(nc, live.Config{Credentials: creds}, log)
	if err != nil {
		t.Fatal(err)
	}
	h := api.New(api.Deps{Accounts: e.accounts, Auth: e.auth, Live: hub, Health: s.Ping,
		App: api.AppHandler(nil, false), Logger: log})
	e.srv.Close()
	e.srv = httptest.NewServer(h)
	t.Cleanup(func() {
		hub.Shutdown(context.Background())
		e.srv.Close()
	})
	return e, hub
}

// postForm sends a form, as pusher-js's default authorizer does.
func (c *client) postForm(path string, form url.Values, opts ...opt) reply {
	c.e.t.Helper()
	req, _ := http.NewRequest("POST", c.e.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.send(req, opts...)
}

func (e *env) userID(email string) int64 {
	e.t.Helper()
	u, err := e.store.UserByEmail(context.Background(), email)
	if err != nil {
		e.t.Fatal(err)
	}
	return u.ID
}

func TestBroadcastingAuth(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e, hub := liveEnv(t, s)
		c := e.client()
		if r := c.login("analyst@acme.test"); r.status != http.StatusOK {
			t.Fatalf("login = %d", r.status)
		}
		own := live.UserChannel(e.userID("analyst@acme.test"))
		colleague := live.UserChannel(e.userID("owner@acme.test"))
		stranger := live.UserChannel(e.userID("owner@globex.test"))
		ingestToken, _, err := e.auth.CreateAPIToken(context.Background(), "analyst@acme.test", "feeder", []string{"ingest"})
		if err != nil {
			t.Fatal(err)
		}
		anonymous := e.client()
		form := func(socketID, channel string) url.Values {
			return url.Values{"socket_id": {socketID}, "channel_name": {channel}}
		}

		tests := []struct {
			name      string
			who       *client
			form      url.Values
			json      map[string]string
			opts      []opt
			want      int
			wantField string
		}{
			{"own channel with the bearer token", c, form("123.456", own), nil, []opt{withBearer(c.bearer)}, 200, ""},
			{"own channel as JSON", c, nil, map[string]string{"socket_id": "123.456", "channel_name": own}, []opt{withBearer(c.bearer)}, 200, ""},
			{"own channel with the session and anti-forgery header", c, form("123.456", own), nil, []opt{withXSRF(c)}, 200, ""},
			{"session without the anti-forgery header", c, form("123.456", own), nil, nil, 419, ""},
			{"a colleague's channel", c, form("123.456", colleague), nil, []opt{withBearer(c.bearer)}, 403, ""},
			{"another organization's user", c, form("123.456", stranger), nil, []opt{withBearer(c.bearer)}, 403, ""},
			{"a public channel", c, form("123.456", "news"), nil, []opt{withBearer(c.bearer)}, 403, ""},
			{"an ingest-scoped token", anonymous, form("123.456", own), nil, []opt{withBearer(ingestToken)}, 403, ""},
			{"not signed in", anonymous, form("123.456", own), nil, nil, 401, ""},
			{"a malformed socket id", c, form("123", own), nil, []opt{withBearer(c.bearer)}, 422, "socket_id"},
			{"no channel", c, form("123.456", ""), nil, []opt{withBearer(c.bearer)}, 422, "channel_name"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var r reply
				if tt.json != nil {
					r = tt.who.do("POST", "/broadcasting/auth", tt.json, tt.opts...)
				} else {
					r = tt.who.postForm("/broadcasting/auth", tt.form, tt.opts...)
				}
				if r.status != tt.want {
					t.Fatalf("status %d %v, want %d", r.status, r.body, tt.want)
				}
				if tt.wantField != "" && dig(r.body, "errors", tt.wantField) == nil {
					t.Errorf("no error for %s: %v", tt.wantField, r.body)
				}
				if tt.want != 200 {
					return
				}
				// pusher-js reads "auth" at the top level: key, colon, HMAC-SHA256 of socket:channel.
				mac := hmac.New(sha256.New, []byte(hub.Credentials().Secret))
				mac.Write([]byte("123.456:" + own))
				want := hub.Credentials().Key + ":" + hex.EncodeToString(mac.Sum(nil))
				if r.body["auth"] != want {
					t.Errorf("auth = %v, want %s", r.body["auth"], want)
				}
			})
		}
	})
}

func TestLiveConfigAndSocket(t *testing.T) {
	e, hub := liveEnv(t, storetest.Open(t, store.SQLite))
	c := e.client()
	c.login("owner@acme.test")
	if r := e.client().do("GET", "/api/v1/live/config", nil); r.status != http.StatusUnauthorized {
		t.Errorf("config without a sign-in = %d", r.status)
	}
	r := c.do("GET", "/api/v1/live/config", nil, withBearer(c.bearer))
	u, _ := url.Parse(e.srv.URL)
	port, _ := strconv.Atoi(u.Port())
	want := map[string]any{"key": hub.Credentials().Key, "host": "127.0.0.1", "port": float64(port), "tls": false,
		"pingInterval": float64(30000), "authEndpoint": "/broadcasting/auth"}
	for k, v := range want {
		if got := dig(r.body, "data", k); got != v {
			t.Errorf("config %s = %v, want %v", k, got, v)
		}
	}

	// The socket route goes through the API's middleware untouched: connect, sign, subscribe, receive.
	ctx, cancel := context.WithTimeout(context.Background(), wait.Deadline)
	defer cancel()
	socket, err := live.Dial(ctx, "ws://"+u.Host+live.SocketPath(hub.Credentials().Key))
	if err != nil {
		t.Fatal(err)
	}
	defer socket.Close()
	channel := live.UserChannel(e.userID("owner@acme.test"))
	signed := c.postForm("/broadcasting/auth", url.Values{"socket_id": {socket.SocketID}, "channel_name": {channel}}, withBearer(c.bearer))
	auth, _ := signed.body["auth"].(string)
	if err := socket.Subscribe(ctx, channel, auth); err != nil {
		t.Fatalf("subscribe with the endpoint's signature: %v", err)
	}
	if err := hub.PublishToUser(ctx, e.userID("owner@acme.test"), live.EventExportReady, live.ExportReady{Link: "/x", TTL: 60}); err != nil {
		t.Fatal(err)
	}
	f, err := socket.Next(ctx)
	if err != nil || f.Event != live.EventExportReady || f.Channel != channel {
		t.Errorf("received %+v, %v", f, err)
	}
}
