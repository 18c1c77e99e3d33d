// Package evidencetest gives tests and the evidence benchmark a local RFC 3161 timestamp
// authority and a local web site to capture, both on loopback.
package evidencetest

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/digitorus/timestamp"
)

// TSA is a timestamp authority signing with a self-signed certificate made for it.
type TSA struct {
	*httptest.Server
	Cert *x509.Certificate
}

// NewTSA starts an authority that answers RFC 3161 requests (application/timestamp-query).
func NewTSA() (*TSA, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Sightline test timestamp authority"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageTimeStamping},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	t := &TSA{Cert: cert}
	t.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		req, err := timestamp.ParseRequest(body)
		if err != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		ts := timestamp.Timestamp{HashAlgorithm: req.HashAlgorithm, HashedMessage: req.HashedMessage,
			Time: time.Now().UTC(), Nonce: req.Nonce, Policy: asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 99999, 1},
			AddTSACertificate: req.Certificates}
		resp, err := ts.CreateResponseWithOpts(cert, key, crypto.SHA256)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/timestamp-reply")
		w.Write(resp)
	}))
	return t, nil
}

// Picture is a 1×1 PNG.
var Picture = []byte{0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00,
	0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0, 0x1f, 0x00, 0x05, 0x00, 0x01, 0xff, 0x89, 0x99,
	0x3d, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82}

// NewSite starts a site with a page at /post/{id} (a stylesheet and a picture), the picture at
// /media/1.png, /moved/{id} that redirects twice (301 to /hop/{id}, 302 to /post/{id}), /away?to=
// that redirects to any address, a video as HLS (/video/master.m3u8) and DASH
// (/video/manifest.mpd), and 404 elsewhere.
func NewSite() *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /post/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>Post %s</title><link rel="stylesheet" href="/style.css"></head>
<body><article><h1>The harbour is closed</h1><p>Post %s: ships are waiting outside the harbour.</p>
<img src="/media/1.png" alt="harbour" width="200" height="120"></article></body></html>`, r.PathValue("id"), r.PathValue("id"))
	})
	mux.HandleFunc("GET /style.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		io.WriteString(w, "body{font-family:sans-serif;margin:2em}h1{color:#134}")
	})
	mux.HandleFunc("GET /media/{name}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(Picture)
	})
	mux.HandleFunc("GET /moved/{id}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/hop/"+r.PathValue("id"), http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET /hop/{id}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/post/"+r.PathValue("id"), http.StatusFound)
	})
	// A video as HLS: a master playlist of two variants, the better one's media playlist of
	// three segments, and the same video as a DASH manifest.
	mux.HandleFunc("GET /video/master.m3u8", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/vnd.apple.mpegurl")
		io.WriteString(w, "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=640x360\n360/index.m3u8\n"+
			"#EXT-X-STREAM-INF:BANDWIDTH=1200000,RESOLUTION=1280x720\n720/index.m3u8\n")
	})
	mux.HandleFunc("GET /video/{height}/index.m3u8", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/vnd.apple.mpegurl")
		io.WriteString(w, "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n")
		for i := range 3 {
			fmt.Fprintf(w, "#EXTINF:2.0,\nseg%d.ts\n", i)
		}
		io.WriteString(w, "#EXT-X-ENDLIST\n")
	})
	mux.HandleFunc("GET /video/{height}/{segment}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "video/mp2t")
		fmt.Fprintf(w, "segment %s of the %sp video", r.PathValue("segment"), r.PathValue("height"))
	})
	mux.HandleFunc("GET /video/manifest.mpd", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/dash+xml")
		io.WriteString(w, `<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT6S">
 <Period>
  <AdaptationSet mimeType="video/mp4">
   <SegmentTemplate timescale="1000" initialization="dash/$RepresentationID$/init.mp4" media="dash/$RepresentationID$/$Number%03d$.m4s" startNumber="1">
    <SegmentTimeline><S t="0" d="2000" r="2"/></SegmentTimeline>
   </SegmentTemplate>
   <Representation id="low" bandwidth="400000"/>
   <Representation id="high" bandwidth="1200000"/>
  </AdaptationSet>
 </Period>
</MPD>`)
	})
	mux.HandleFunc("GET /video/dash/{rep}/{segment}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "video/iso.segment")
		fmt.Fprintf(w, "%s segment %s", r.PathValue("rep"), r.PathValue("segment"))
	})
	// /away?to= redirects anywhere: to where the guard must refuse to follow.
	mux.HandleFunc("GET /away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	return httptest.NewServer(mux)
}
