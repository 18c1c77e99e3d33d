package api

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"testing"
)

func TestClientAddressAndSchemeThroughProxies(t *testing.T) {
	proxies, err := ParseTrustedProxies("10.0.0.0/8, fd00::/8,127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		trusted []netip.Prefix
		remote  string
		xff     []string // header lines
		proto   []string
		client  string
		https   bool
	}{
		{"no proxies trusted: headers ignored", nil, "10.0.0.2:5000", []string{"203.0.113.9"}, []string{"https"}, "10.0.0.2", false},
		{"direct client", proxies, "198.51.100.7:5000", nil, nil, "198.51.100.7", false},
		{"untrusted peer cannot claim an address or TLS", proxies, "198.51.100.7:5000", []string{"203.0.113.9"}, []string{"https"}, "198.51.100.7", false},
		{"trusted proxy", proxies, "10.0.0.2:5000", []string{"203.0.113.9"}, []string{"https"}, "203.0.113.9", true},
		{"trusted proxy without the header", proxies, "10.0.0.2:5000", nil, nil, "10.0.0.2", false},
		{"client's own header is skipped", proxies, "10.0.0.2:5000", []string{"1.2.3.4, 203.0.113.9"}, []string{"http"}, "203.0.113.9", false},
		{"two trusted hops", proxies, "10.0.0.2:5000", []string{"1.2.3.4, 203.0.113.9, 10.0.0.5"}, nil, "203.0.113.9", false},
		{"several header lines", proxies, "10.0.0.2:5000", []string{"1.2.3.4", "203.0.113.9"}, nil, "203.0.113.9", false},
		{"every hop trusted", proxies, "10.0.0.2:5000", []string{"10.0.0.9, 10.0.0.5"}, nil, "10.0.0.9", false},
		{"a hop that is no address", proxies, "10.0.0.2:5000", []string{"203.0.113.9, unknown"}, nil, "10.0.0.2", false},
		{"hops with ports", proxies, "10.0.0.2:5000", []string{"203.0.113.9:4711"}, nil, "203.0.113.9", false},
		{"IPv6 hop with a port", proxies, "10.0.0.2:5000", []string{"[2001:db8::1]:443"}, nil, "2001:db8::1", false},
		{"IPv6 proxy", proxies, "[fd00::1]:5000", []string{"2001:db8::7"}, []string{"HTTPS"}, "2001:db8::7", true},
		{"IPv4-mapped peer", proxies, "[::ffff:10.0.0.2]:5000", []string{"203.0.113.9"}, nil, "203.0.113.9", false},
		{"single trusted address", proxies, "127.0.0.1:5000", []string{"203.0.113.9"}, nil, "203.0.113.9", false},
		{"nearest proxy's scheme counts", proxies, "10.0.0.2:5000", nil, []string{"https, http"}, "10.0.0.2", false},
		{"nearest proxy's scheme line counts", proxies, "10.0.0.2:5000", nil, []string{"http", "https"}, "10.0.0.2", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &API{Deps: Deps{TrustedProxies: tt.trusted}}
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.remote
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			for _, v := range tt.proto {
				r.Header.Add("X-Forwarded-Proto", v)
			}
			var client string
			var https bool
			a.forwarded(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				client, https = clientIP(r), isHTTPS(r)
			})).ServeHTTP(httptest.NewRecorder(), r)
			if client != tt.client || https != tt.https {
				t.Errorf("client %q https %v, want %q %v", client, https, tt.client, tt.https)
			}
		})
	}
}

func TestParseTrustedProxies(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"", nil, false},
		{"10.1.2.3/8", []string{"10.0.0.0/8"}, false},
		{" 192.168.1.1 , 2001:db8::/32", []string{"192.168.1.1/32", "2001:db8::/32"}, false},
		{"::ffff:10.0.0.1", []string{"10.0.0.1/32"}, false},
		{"10.0.0.0/8,proxy.internal", nil, true},
		{"10.0.0.0/33", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseTrustedProxies(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("%q: error %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		var names []string
		for _, p := range got {
			names = append(names, p.String())
		}
		if !slices.Equal(names, tt.want) {
			t.Errorf("%q = %v, want %v", tt.in, names, tt.want)
		}
	}
}
