package live

import (
	"net"
	"syscall"
)

// idleWaiter parks a socket's reader until its client sends something, on a shallow stack.
// Reading a message goes some twenty calls deep into the websocket library and the network
// poller; a reader parked there keeps a goroutine stack of 8 KB for the socket's idle life,
// while one parked here uses a few hundred bytes of it, and the collector shrinks its stack to
// the 2 KB minimum.
type idleWaiter struct {
	raw syscall.RawConn
}

func newIdleWaiter(nc net.Conn) idleWaiter {
	if sc, ok := nc.(syscall.Conn); ok {
		if raw, err := sc.SyscallConn(); err == nil {
			return idleWaiter{raw: raw}
		}
	}
	return idleWaiter{}
}

// wait returns once the socket has data, an end or an error to read, or at once when it cannot
// tell; the read that follows sees which.
func (w idleWaiter) wait() {
	if w.raw == nil {
		return
	}
	w.raw.Read(func(fd uintptr) bool {
		var b [1]byte
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		return err != syscall.EAGAIN
	})
}
