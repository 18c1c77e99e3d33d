package bench

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync/atomic"
	"syscall"
)

// stampedConn is a client's TCP connection that keeps the kernel's receive time of the data
// each read returned (SO_TIMESTAMPNS). The benchmark's clients share the server's machine; the
// kernel's time is when an event reached the client's socket, however long the client process
// then waited for a core to read it.
type stampedConn struct {
	*net.TCPConn
	raw      syscall.RawConn
	oob      []byte
	received atomic.Int64 // Unix nanoseconds
}

// dialStamped opens a stampedConn; it fits live.DialThrough.
func dialStamped(ctx context.Context, network, addr string) (*stampedConn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	tcp := c.(*net.TCPConn)
	raw, err := tcp.SyscallConn()
	if err == nil {
		ctlErr := raw.Control(func(fd uintptr) {
			err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_TIMESTAMPNS, 1)
		})
		err = errors.Join(err, ctlErr)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return &stampedConn{TCPConn: tcp, raw: raw, oob: make([]byte, syscall.CmsgSpace(16))}, nil
}

func (c *stampedConn) Read(p []byte) (int, error) {
	var n, oobn int
	var err error
	waitErr := c.raw.Read(func(fd uintptr) bool {
		n, oobn, _, _, err = syscall.Recvmsg(int(fd), p, c.oob, 0)
		return err != syscall.EAGAIN
	})
	switch {
	case waitErr != nil:
		return 0, waitErr
	case err != nil:
		return 0, err
	case n == 0 && len(p) > 0:
		return 0, io.EOF
	}
	if messages, err := syscall.ParseSocketControlMessage(c.oob[:oobn]); err == nil {
		for _, m := range messages {
			if m.Header.Level == syscall.SOL_SOCKET && m.Header.Type == syscall.SCM_TIMESTAMPNS && len(m.Data) >= 16 {
				sec, nsec := binary.NativeEndian.Uint64(m.Data), binary.NativeEndian.Uint64(m.Data[8:])
				c.received.Store(int64(sec)*1e9 + int64(nsec))
			}
		}
	}
	return n, nil
}
