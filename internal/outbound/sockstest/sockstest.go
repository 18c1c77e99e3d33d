// Package sockstest is a minimal SOCKS5 proxy for tests (no authentication, CONNECT only): it
// records the addresses asked for and connects each to where Route says, the way Tor would
// reach an onion service. Only tests import it.
package sockstest

import (
	"encoding/binary"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
)

// Proxy is a running SOCKS5 proxy.
type Proxy struct {
	// Addr is where it listens.
	Addr string
	// Route maps an address asked for ("name.onion:80") to the one dialled; an unknown one is
	// refused (host unreachable).
	route func(string) (string, bool)
	mu    sync.Mutex
	asked []string
}

// Start runs a proxy until the test ends.
func Start(t testing.TB, route func(string) (string, bool)) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Addr: ln.Addr().String(), route: route}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	return p
}

// Asked returns the addresses asked for so far, as the client sent them.
func (p *Proxy) Asked() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.asked...)
}

func (p *Proxy) serve(c net.Conn) {
	defer c.Close()
	head := make([]byte, 2)
	if _, err := io.ReadFull(c, head); err != nil || head[0] != 5 {
		return
	}
	if _, err := io.ReadFull(c, make([]byte, head[1])); err != nil {
		return
	}
	c.Write([]byte{5, 0}) // no authentication
	req := make([]byte, 4)
	if _, err := io.ReadFull(c, req); err != nil || req[1] != 1 {
		return
	}
	var host string
	switch req[3] {
	case 1:
		b := make([]byte, 4)
		io.ReadFull(c, b)
		host = net.IP(b).String()
	case 3:
		n := make([]byte, 1)
		io.ReadFull(c, n)
		b := make([]byte, n[0])
		io.ReadFull(c, b)
		host = string(b)
	case 4:
		b := make([]byte, 16)
		io.ReadFull(c, b)
		host = net.IP(b).String()
	default:
		return
	}
	portBytes := make([]byte, 2)
	if _, err := io.ReadFull(c, portBytes); err != nil {
		return
	}
	asked := net.JoinHostPort(host, strconv.Itoa(int(binary.BigEndian.Uint16(portBytes))))
	p.mu.Lock()
	p.asked = append(p.asked, asked)
	p.mu.Unlock()
	target, ok := p.route(asked)
	var upstream net.Conn
	var err error
	if ok {
		upstream, err = net.Dial("tcp", target)
	}
	if !ok || err != nil {
		c.Write([]byte{5, 4, 0, 1, 0, 0, 0, 0, 0, 0}) // host unreachable
		return
	}
	defer upstream.Close()
	c.Write([]byte{5, 0, 0, 1, 0, 0, 0, 0, 0, 0})
	done := make(chan struct{}, 2)
	go func() { io.Copy(upstream, c); done <- struct{}{} }()
	go func() { io.Copy(c, upstream); done <- struct{}{} }()
	<-done
}
