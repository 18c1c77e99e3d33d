//go:build !linux

package live

import "net"

// idleWaiter parks a socket's reader until its client sends something; elsewhere than on Linux
// the reader waits in the read itself.
type idleWaiter struct{}

func newIdleWaiter(net.Conn) idleWaiter { return idleWaiter{} }

func (idleWaiter) wait() {}
