package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/centrifugal/centrifuge"
	"github.com/coder/websocket"
)

// The Centrifuge peer: the same clients and burst against a server built here on
// centrifugal/centrifuge, the library behind Centrifugo. Each client connects with its user in
// the URL (the benchmark's stand-in for authentication; Sightline's clients sign their
// subscriptions instead) and is subscribed by the server to its own channel user#N, as
// Centrifugo does for personal channels; events go through Centrifuge's in-memory broker.

// LivePeer is the peer's figures beside Sightline's, and Sightline's over the peer's.
type LivePeer struct {
	Name          string  `json:"name"`
	KBPerConn     float64 `json:"kb_per_connection"`
	DeliveryP99ms float64 `json:"delivery_p99_ms"`
	BurstMillis   float64 `json:"burst_ms"`
	ServerCPUus   float64 `json:"server_cpu_us_per_event"`
	// Ratios are Sightline's figure over the peer's: below 1, Sightline uses less.
	MemoryRatio   float64 `json:"memory_ratio"`
	DeliveryRatio float64 `json:"delivery_p99_ratio"`
}

func (p *LivePeer) WriteText(w io.Writer) {
	fmt.Fprintf(w, "peer: %-21s %.1f KB per connection (Sightline/peer %.2f), delivery p99 %.1f ms (%.2f), whole burst %.0f ms, server CPU %.1f µs per event\n",
		p.Name, p.KBPerConn, p.MemoryRatio, p.DeliveryP99ms, p.DeliveryRatio, p.BurstMillis, p.ServerCPUus)
}

// centrifugeBurst measures the burst against a Centrifuge server.
func centrifugeBurst(cfg LiveConfig) (LiveResult, error) {
	node, err := centrifuge.New(centrifuge.Config{LogLevel: centrifuge.LogLevelNone})
	if err != nil {
		return LiveResult{}, err
	}
	node.OnConnecting(func(ctx context.Context, e centrifuge.ConnectEvent) (centrifuge.ConnectReply, error) {
		cred, _ := centrifuge.GetCredentials(ctx)
		return centrifuge.ConnectReply{Subscriptions: map[string]centrifuge.SubscribeOptions{"user#" + cred.UserID: {}}}, nil
	})
	node.OnConnect(func(*centrifuge.Client) {})
	if err := node.Run(); err != nil {
		return LiveResult{}, err
	}
	defer node.Shutdown(context.Background())
	ws := centrifuge.NewWebsocketHandler(node, centrifuge.WebsocketConfig{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return LiveResult{}, err
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user := r.URL.Query().Get("user")
		ws.ServeHTTP(w, r.WithContext(centrifuge.SetCredentials(r.Context(), &centrifuge.Credentials{UserID: user})))
	})}
	go srv.Serve(ln)
	defer srv.Close()
	return measureBurst(cfg, burstServer{
		url:        "ws://" + ln.Addr().String() + "/connection/websocket",
		protocol:   "centrifuge",
		subscribed: func() int { return node.Hub().NumSubscriptions() },
		publish: func(userID, sentAt int64) error {
			_, err := node.Publish("user#"+strconv.FormatInt(userID, 10), strconv.AppendInt(nil, sentAt, 10))
			return err
		},
	})
}

// centrifugeSocket is a client of the Centrifuge server, speaking its JSON protocol.
type centrifugeSocket struct {
	ws     *websocket.Conn
	socket *stampedConn
}

func dialCentrifuge(ctx context.Context, url string, userID int64) (*centrifugeSocket, error) {
	var socket *stampedConn
	ws, _, err := websocket.Dial(ctx, url+"?user="+strconv.FormatInt(userID, 10), &websocket.DialOptions{
		HTTPClient: &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			var err error
			socket, err = dialStamped(ctx, network, addr)
			return socket, err
		}}}})
	if err != nil {
		return nil, err
	}
	c := &centrifugeSocket{ws: ws, socket: socket}
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"id":1,"connect":{}}`)); err != nil {
		ws.CloseNow()
		return nil, err
	}
	_, data, err := ws.Read(ctx)
	if err != nil {
		ws.CloseNow()
		return nil, err
	}
	var reply struct {
		Error   *json.RawMessage `json:"error"`
		Connect *struct {
			Subs map[string]json.RawMessage `json:"subs"`
		} `json:"connect"`
	}
	if err := json.Unmarshal(bytes.SplitN(data, []byte("\n"), 2)[0], &reply); err != nil || reply.Error != nil || reply.Connect == nil || len(reply.Connect.Subs) != 1 {
		ws.CloseNow()
		return nil, errors.New("centrifuge: no connect reply with the user's channel: " + string(data))
	}
	return c, nil
}

func (c *centrifugeSocket) next() ([]int64, error) {
	_, data, err := c.ws.Read(context.Background())
	if err != nil {
		return nil, err
	}
	var sent []int64
	// A frame holds one or more replies, a line each; an empty one is a ping, answered in kind.
	for _, line := range bytes.Split(data, []byte("\n")) {
		if string(bytes.TrimSpace(line)) == "{}" {
			if err := c.ws.Write(context.Background(), websocket.MessageText, []byte("{}")); err != nil {
				return nil, err
			}
			continue
		}
		var m struct {
			Push *struct {
				Pub *struct {
					Data int64 `json:"data"`
				} `json:"pub"`
			} `json:"push"`
		}
		if json.Unmarshal(line, &m) == nil && m.Push != nil && m.Push.Pub != nil {
			sent = append(sent, m.Push.Pub.Data)
		}
	}
	return sent, nil
}

func (c *centrifugeSocket) received() int64 { return c.socket.received.Load() }
