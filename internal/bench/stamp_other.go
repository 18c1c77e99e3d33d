//go:build !linux

package bench

import (
	"context"
	"net"
	"sync/atomic"
	"time"
)

// stampedConn keeps the time of each read: without the kernel's receive times (Linux only), the
// client's own reading time is the best there is.
type stampedConn struct {
	net.Conn
	received atomic.Int64 // Unix nanoseconds
}

func dialStamped(ctx context.Context, network, addr string) (*stampedConn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &stampedConn{Conn: c}, nil
}

func (c *stampedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.received.Store(time.Now().UnixNano())
	}
	return n, err
}
