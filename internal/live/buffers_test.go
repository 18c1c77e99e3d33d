package live

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/sightline/sightline/internal/wait"
)

// Messages of every size around the buffers' and the frame headers' limits, both ways, through
// the small buffers over a real connection: each comes back whole and in order. A frame the
// writer held back, cut or sent out of order would show here as a wrong or missing message.
func TestSmallBuffersCarryEveryFrameSize(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(&smallBuffers{ResponseWriter: w}, r, nil)
		if err != nil {
			return
		}
		ws.SetReadLimit(-1)
		// An echo: each message goes back as it came.
		ctx := context.Background()
		for {
			typ, msg, err := ws.Read(ctx)
			if err != nil {
				return
			}
			if err := ws.Write(ctx, typ, msg); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	ws := rawDial(t, "ws"+strings.TrimPrefix(srv.URL, "http"))

	sizes := []int{0, 1, 5, 6, 7, 13, 14, 15, 16, 17, readBufferSize - 6, readBufferSize, readBufferSize + 1,
		125, 126, 127, 1000, 4095, 4096, 4097, 65535, 65536, 65537, 300 << 10}
	tests := []struct {
		name  string
		sizes []int
	}{
		{"one at a time", sizes},
		{"largest first", []int{300 << 10, 65536, 126, 14, 0, 15, 125, 4097}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i, n := range tt.sizes {
				msg := message(i, n)
				if err := ws.Write(wait.Context(t), websocket.MessageText, msg); err != nil {
					t.Fatal(err)
				}
				typ, got, err := ws.Read(wait.Context(t))
				if err != nil {
					t.Fatalf("message of %d bytes: %v", n, err)
				}
				if typ != websocket.MessageText || !bytes.Equal(got, msg) {
					t.Fatalf("message of %d bytes came back as %d bytes (type %v)", n, len(got), typ)
				}
			}
		})
	}

	t.Run("many in flight", func(t *testing.T) {
		// Written before any is read back, so that frames follow one another on the wire.
		done := make(chan error, 1)
		go func() {
			for i, n := range sizes {
				if err := ws.Write(wait.Context(t), websocket.MessageText, message(i, n)); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
		for i, n := range sizes {
			_, got, err := ws.Read(wait.Context(t))
			if err != nil {
				t.Fatalf("message %d: %v", i, err)
			}
			if !bytes.Equal(got, message(i, n)) {
				t.Fatalf("message %d (%d bytes) came back as %d bytes", i, n, len(got))
			}
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})

	// A ping the library answers itself (a control frame through the same writer), then a close.
	ws.CloseRead(context.Background()) // reads the pong and the close's answer
	if err := ws.Ping(wait.Context(t)); err != nil {
		t.Fatalf("ping: %v", err)
	}
	if err := ws.Close(websocket.StatusNormalClosure, "done"); err != nil {
		t.Fatalf("close: %v", err)
	}
}

// message is n bytes that differ from message to message.
func message(i, n int) []byte {
	b := []byte(strings.Repeat(strconv.Itoa(i%10), n))
	for j := 0; j < n; j += 97 {
		b[j] = byte('a' + (i+j)%26)
	}
	return b
}
