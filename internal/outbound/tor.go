package outbound

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"golang.org/x/net/proxy"
)

// IsOnion reports whether host is a Tor onion service name.
func IsOnion(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	return strings.HasSuffix(host, ".onion")
}

// torDial dials .onion addresses through the SOCKS5 proxy at socksAddr, handing it the name
// (the proxy resolves it inside Tor: nothing is looked up locally), and everything else with
// direct. The proxy is the operator's, so its own address is not subject to the address rule.
func torDial(socksAddr string, direct func(ctx context.Context, network, address string) (net.Conn, error)) func(ctx context.Context, network, address string) (net.Conn, error) {
	forward := &net.Dialer{Timeout: 10 * time.Second}
	socks, err := proxy.SOCKS5("tcp", socksAddr, nil, forward)
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		host, _, splitErr := net.SplitHostPort(address)
		if splitErr != nil || !IsOnion(host) {
			return direct(ctx, network, address)
		}
		if err != nil {
			return nil, fmt.Errorf("outbound: Tor SOCKS proxy %s: %w", socksAddr, err)
		}
		conn, err := socks.(proxy.ContextDialer).DialContext(ctx, network, address)
		if err != nil {
			return nil, fmt.Errorf("outbound: through the Tor SOCKS proxy: %w", err)
		}
		return conn, nil
	}
}
