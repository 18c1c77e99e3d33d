package live

import (
	"context"
	"testing"

	"github.com/coder/websocket"

	"github.com/sightline/sightline/internal/wait"
)

// A user's sockets on every node close with 4200 when one of the user's sessions ends; another
// user's socket stays open.
func TestCloseUserAcrossHubs(t *testing.T) {
	ns := startNATS(t)
	creds := randomCredentials(t)
	nodeA := newTestHub(t, ns, creds, Config{})
	nodeB := newTestHub(t, ns, creds, Config{})
	onA, onB := nodeA.subscribed(t, 1), nodeB.subscribed(t, 1)
	otherUser := nodeA.subscribed(t, 2)

	if err := nodeB.CloseUser(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*Client{"node A": onA, "node B": onB} {
		if _, err := c.Next(wait.Context(t)); websocket.CloseStatus(err) != CodeReconnect {
			t.Errorf("%s: the signed-out user's socket got %v, want a 4200 close", name, err)
		}
	}
	otherUser.Send(wait.Context(t), "pusher:ping", map[string]any{})
	if f, err := otherUser.Next(wait.Context(t)); err != nil || f.Event != "pusher:pong" {
		t.Errorf("another user's socket: %+v, %v", f, err)
	}
}
