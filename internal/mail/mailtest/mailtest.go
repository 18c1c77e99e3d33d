// Package mailtest runs a real SMTP server on loopback for tests: it speaks the protocol
// (optionally STARTTLS, implicit TLS and PLAIN authentication) and keeps what it receives.
package mailtest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"mime"
	"mime/multipart"
	netmail "net/mail"
	"strings"

	"io"
	"math/big"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/sightline/sightline/internal/wait"
)

// Received is one message as the server got it.
type Received struct {
	From string
	To   []string
	Data []byte // the raw RFC 5322 message
}

// Text is the message's decoded subject and parts (text and HTML), one after another, for
// tests to look into.
func (r Received) Text() (string, error) {
	msg, err := netmail.ReadMessage(bytes.NewReader(r.Data))
	if err != nil {
		return "", err
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	out := []string{subject}
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		return "", err
	}
	parts := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := parts.NextPart()
		if err == io.EOF {
			return strings.Join(out, "\n"), nil
		}
		if err != nil {
			return "", err
		}
		body, err := io.ReadAll(p)
		if err != nil {
			return "", err
		}
		out = append(out, string(body))
	}
}

// Server is a running SMTP server.
type Server struct {
	url   string
	roots *x509.CertPool
	mu    sync.Mutex
	got   []Received
	// Refuse, when set, makes DATA fail with this error (a full mailbox, a rejected message).
	refuse error
	// hold, while open, stops every session after RCPT; held hears of each one stopped.
	hold chan struct{}
	held chan struct{}
}

// Option configures Start.
type Option func(*config)

type config struct {
	startTLS, implicitTLS bool
	user, password        string
}

// WithSTARTTLS offers STARTTLS with a certificate for 127.0.0.1 that RootCAs trusts.
func WithSTARTTLS() Option { return func(c *config) { c.startTLS = true } }

// WithImplicitTLS speaks TLS from the first byte (smtps).
func WithImplicitTLS() Option { return func(c *config) { c.implicitTLS = true } }

// WithAuth requires PLAIN authentication with these credentials.
func WithAuth(user, password string) Option {
	return func(c *config) { c.user, c.password = user, password }
}

// Start runs a server until t ends.
func Start(t testing.TB, options ...Option) *Server {
	t.Helper()
	var c config
	for _, o := range options {
		o(&c)
	}
	s := &Server{}
	srv := smtp.NewServer(&backend{s: s, cfg: c})
	srv.Domain = "127.0.0.1"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.AllowInsecureAuth = !c.startTLS && !c.implicitTLS
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	scheme := "smtp"
	if c.startTLS || c.implicitTLS {
		cert, pool := selfSigned(t)
		s.roots = pool
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
		if c.implicitTLS {
			ln = tls.NewListener(ln, srv.TLSConfig)
			scheme = "smtps"
		}
	}
	u := url.URL{Scheme: scheme, Host: ln.Addr().String()}
	if c.user != "" {
		u.User = url.UserPassword(c.user, c.password)
	}
	s.url = u.String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { s.release(); _ = srv.Close() })
	return s
}

// URL is the server's address as --smtp-url takes it, credentials included.
func (s *Server) URL() string { return s.url }

// RootCAs trusts the server's certificate (nil without TLS).
func (s *Server) RootCAs() *x509.CertPool { return s.roots }

// Refuse makes every later message fail at DATA with err; nil accepts them again.
func (s *Server) Refuse(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = err
}

// Hold stops every later session after its recipients, before the message is sent, until
// release is called: a client that is gone by then has sent nothing. held receives once for
// each session stopped.
func (s *Server) Hold() (held <-chan struct{}, release func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hold, s.held = make(chan struct{}), make(chan struct{}, 16)
	return s.held, s.release
}

func (s *Server) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hold != nil {
		close(s.hold)
		s.hold = nil
	}
}

// Messages is what has arrived so far.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.got...)
}

// WaitFor waits until n messages have arrived, failing t after wait.Deadline.
func (s *Server) WaitFor(t testing.TB, n int) []Received {
	t.Helper()
	var got []Received
	wait.ForNil(t, fmt.Sprintf("mailtest: %d messages arriving", n), func() error {
		if got = s.Messages(); len(got) < n {
			return fmt.Errorf("%d arrived", len(got))
		}
		return nil
	})
	return got
}

type backend struct {
	s   *Server
	cfg config
}

func (b *backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{b: b}, nil }

type session struct {
	b      *backend
	authed bool
	from   string
	to     []string
}

func (ss *session) AuthMechanisms() []string {
	if ss.b.cfg.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (ss *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, password string) error {
		if user != ss.b.cfg.user || password != ss.b.cfg.password {
			return errors.New("invalid credentials")
		}
		ss.authed = true
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.b.cfg.user != "" && !ss.authed {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	s := ss.b.s
	s.mu.Lock()
	hold, held := s.hold, s.held
	s.mu.Unlock()
	if hold != nil {
		select {
		case held <- struct{}{}:
		default:
		}
		<-hold
	}
	return nil
}

func (ss *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s := ss.b.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refuse != nil {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: s.refuse.Error()}
	}
	s.got = append(s.got, Received{From: ss.from, To: ss.to, Data: data})
	return nil
}

func (ss *session) Reset()        { ss.from, ss.to = "", nil }
func (ss *session) Logout() error { return nil }

// selfSigned makes a certificate for 127.0.0.1 and a pool that trusts it.
func selfSigned(t testing.TB) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mailtest"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, IsCA: true, BasicConstraintsValid: true,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}
