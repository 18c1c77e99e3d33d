package api

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Behind a reverse proxy every connection comes from the proxy, so the client's address is in
// X-Forwarded-For and the scheme in X-Forwarded-Proto. Anyone can send those headers, so they
// are read only from the proxies the operator names (--trusted-proxies); from anyone else the
// connection's own address and TLS state stand.

// ParseTrustedProxies reads a comma-separated list of CIDR ranges or single addresses.
func ParseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for item := range strings.SplitSeq(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if p, err := netip.ParsePrefix(item); err == nil {
			out = append(out, p.Masked())
			continue
		}
		addr, err := netip.ParseAddr(item)
		if err != nil {
			return nil, fmt.Errorf("%q is neither a CIDR range nor an IP address", item)
		}
		addr = addr.Unmap()
		out = append(out, netip.PrefixFrom(addr, addr.BitLen()))
	}
	return out, nil
}

type peerKey struct{}

// peer is where a request came from, as resolved once by forwarded.
type peer struct {
	client  string // the client's address
	trusted bool   // the connection is from a trusted proxy, so its X-Forwarded-Proto counts
}

// forwarded resolves the client's address for every later use (throttling, logs, sessions).
func (a *API) forwarded(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := resolvePeer(a.TrustedProxies, r)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), peerKey{}, p)))
	})
}

func resolvePeer(trusted []netip.Prefix, r *http.Request) peer {
	remote := r.RemoteAddr
	if host, _, err := net.SplitHostPort(remote); err == nil {
		remote = host
	}
	addr, err := netip.ParseAddr(remote)
	if err != nil || !isTrusted(trusted, addr) {
		return peer{client: remote}
	}
	// Walk the hops right to left: each trusted proxy appended the address it received from;
	// the first address no trusted proxy owns is the client. A hop that is not an address ends
	// the walk at the proxy that forwarded it.
	client := addr.Unmap().WithZone("")
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, ok := parseHop(hops[i])
		if !ok {
			break
		}
		client = hop
		if !isTrusted(trusted, hop) {
			break
		}
	}
	return peer{client: client.String(), trusted: true}
}

// parseHop reads one X-Forwarded-For entry: an address, possibly with a port.
func parseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if addr, err := netip.ParseAddr(s); err == nil {
		return addr.Unmap().WithZone(""), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap().WithZone(""), true
	}
	return netip.Addr{}, false
}

func isTrusted(trusted []netip.Prefix, addr netip.Addr) bool {
	addr = addr.Unmap().WithZone("")
	for _, p := range trusted {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// clientIP is the address the request came from: the connection's, or the client's as a trusted
// proxy reports it.
func clientIP(r *http.Request) string {
	if p, ok := r.Context().Value(peerKey{}).(peer); ok {
		return p.client
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// isHTTPS reports whether the browser reached us over TLS, directly or through a trusted proxy
// that terminated it (the nearest proxy's X-Forwarded-Proto value counts).
func isHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	p, _ := r.Context().Value(peerKey{}).(peer)
	if !p.trusted {
		return false
	}
	values := r.Header.Values("X-Forwarded-Proto")
	if len(values) == 0 {
		return false
	}
	protos := strings.Split(values[len(values)-1], ",")
	return strings.EqualFold(strings.TrimSpace(protos[len(protos)-1]), "https")
}
