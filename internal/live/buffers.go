package live

import (
	"bufio"
	"encoding/binary"
	"net"
	"net/http"
)

// The buffers of a socket. coder/websocket reads and writes a socket through the bufio reader
// and writer of the hijacked HTTP connection, 4 KB each, for the socket's life: 8 KB of every
// socket, most of its memory, held while the socket is idle, which it nearly always is.
// smallBuffers hands it small ones instead:
//
//   - reads go through a buffer of readBufferSize bytes, as long as a client's pusher:ping and
//     pusher:pong frames; a longer message (a subscription, once a page) takes a second read
//     system call, straight into the message;
//   - writes go through a buffer of writeBufferSize bytes, which holds a frame's header and the
//     start of its payload, into a frameWriter, which sends each frame to the kernel in one
//     system call, gathering what the buffer held and the rest of the payload (writev), so the
//     payload is not copied either.
const (
	readBufferSize  = 64
	writeBufferSize = 16 // at least the longest header a server sends (10 bytes)
)

// smallBuffers is the response writer handed to websocket.Accept: its Hijack gives the
// connection small buffers, and keeps the connection and its reader for the socket.
type smallBuffers struct {
	http.ResponseWriter
	conn   net.Conn
	reader *bufio.Reader
}

func (w *smallBuffers) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	nc, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	// A client may not send before the handshake's answer; one that did has its bytes in the
	// server's reader, which then stays.
	br := brw.Reader
	if br.Buffered() == 0 {
		br = bufio.NewReaderSize(nc, readBufferSize)
	}
	w.conn, w.reader = nc, br
	// The 101 answer was flushed before the connection was handed over, so the server's writer
	// holds nothing.
	return nc, bufio.NewReadWriter(br, bufio.NewWriterSize(&frameWriter{conn: nc}, writeBufferSize)), nil
}

// frameWriter writes the websocket frames it is given to conn, each in one system call. Its
// bufio writer hands it a frame in one piece when the frame fits the buffer, and else in two:
// the buffer's worth first, then the rest. frameWriter follows the frames' lengths in their
// headers, holds a first piece that ends inside its frame, and sends it with the next piece.
// Bytes it cannot follow (a header split between pieces, which the library's writes of whole
// frames never make) it passes straight on: the frames stay right, only in more calls.
type frameWriter struct {
	conn net.Conn
	// held is a frame's start, kept until its end comes.
	held [writeBufferSize]byte
	n    int
	// rest is what is still to come of the current frame.
	rest int64
	// lost is set once a header could not be read: everything passes straight on.
	lost bool
}

func (f *frameWriter) Write(p []byte) (int, error) {
	if f.lost {
		return f.conn.Write(p)
	}
	// A piece that starts a frame and ends inside it is held; anything else goes now, with what
	// is held before it.
	starts := f.rest == 0 && f.n == 0
	frames := 0
	for q := p; len(q) > 0; {
		if f.rest == 0 {
			size, ok := frameSize(q)
			if !ok {
				f.lost = true
				return f.send(p)
			}
			f.rest = size
			frames++
		}
		k := min(f.rest, int64(len(q)))
		f.rest -= k
		q = q[k:]
	}
	if starts && frames == 1 && f.rest > 0 && len(p) <= len(f.held) {
		f.n = copy(f.held[:], p)
		return len(p), nil
	}
	return f.send(p)
}

// send writes what is held, then p, in one system call.
func (f *frameWriter) send(p []byte) (int, error) {
	if f.n == 0 {
		return f.conn.Write(p)
	}
	held := f.n
	f.n = 0
	bufs := net.Buffers{f.held[:held], p}
	written, err := bufs.WriteTo(f.conn)
	return int(max(0, written-int64(held))), err
}

// frameSize is the length of the frame that b starts with, header and payload, if b holds its
// whole header. Frames from a server are not masked.
func frameSize(b []byte) (int64, bool) {
	if len(b) < 2 {
		return 0, false
	}
	header, payload := int64(2), int64(b[1]&0x7f)
	switch payload {
	case 126:
		if len(b) < 4 {
			return 0, false
		}
		header, payload = 4, int64(binary.BigEndian.Uint16(b[2:4]))
	case 127:
		if len(b) < 10 {
			return 0, false
		}
		header, payload = 10, int64(binary.BigEndian.Uint64(b[2:10]))
	}
	if b[1]&0x80 != 0 {
		header += 4
	}
	if payload < 0 {
		return 0, false
	}
	return header + payload, true
}
