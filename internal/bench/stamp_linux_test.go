package bench

import (
	"context"
	"io"
	"net"
	"testing"
	"time"
)

func TestStampedConnKeepsTheKernelsReceiveTime(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	// The server writes one byte whenever asked and says when; it closes when asked no more.
	ask, written := make(chan struct{}), make(chan time.Time)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		for range ask {
			before := time.Now()
			c.Write([]byte("e")) // on loopback the byte is in the reader's socket when this returns
			written <- before
		}
	}()
	c, err := dialStamped(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	buf := make([]byte, 16)
	receive := func() time.Time {
		t.Helper()
		c.received.Store(0)
		ask <- struct{}{}
		<-written
		if n, err := c.Read(buf); n != 1 || err != nil {
			t.Fatalf("Read = %d, %v", n, err)
		}
		return time.Unix(0, c.received.Load())
	}
	// The kernel turns stamping on a moment after the first socket asks for it.
	for start := time.Now(); receive().UnixNano() == 0; {
		if time.Since(start) > 5*time.Second {
			t.Fatal("the kernel never stamped a read")
		}
	}

	c.received.Store(0)
	ask <- struct{}{}
	before := <-written
	time.Sleep(50 * time.Millisecond) // the byte waits in the socket before it is read
	if n, err := c.Read(buf); n != 1 || err != nil {
		t.Fatalf("Read = %d, %v", n, err)
	}
	received := time.Unix(0, c.received.Load())
	if received.Before(before) || time.Since(received) < 40*time.Millisecond {
		t.Errorf("received at %v: want after the write (%v) and before the read", received, before)
	}
	close(ask)
	if _, err := c.Read(buf); err != io.EOF {
		t.Errorf("Read after the peer closed = %v, want io.EOF", err)
	}
}
