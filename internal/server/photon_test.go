package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/sightline/sightline/internal/server"
)

// With --photon-url the builder's address lookups are Photon's answers, not the gazetteer's.
func TestPhotonAnswersAddressLookups(t *testing.T) {
	var asked string
	photon := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = r.URL.Path + "?" + r.URL.Query().Get("q")
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"type":"FeatureCollection","features":[{"type":"Feature",
			"geometry":{"type":"Point","coordinates":[2.2945,48.8584]},
			"properties":{"name":"Tour Eiffel","type":"house","city":"Paris","country":"France","countrycode":"FR"}}]}`))
	}))
	t.Cleanup(photon.Close)
	node, srv := startNodeWith(t, func(c *server.Config) { c.PhotonURL = photon.URL })
	token, _, err := node.Auth.CreateAPIToken(context.Background(), "admin@example.test", "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	status, reply := call(t, "GET", srv.URL+"/api/v1/geocode/address?address=Tour+Eiffel", token, "")
	data, _ := reply["data"].(map[string]any)
	if status != 200 || data["name"] != "Tour Eiffel" || data["kind"] != "place" || data["address"] != "Tour Eiffel, Paris, France" {
		t.Fatalf("lookup = %d %v", status, reply)
	}
	if asked != "/api?Tour Eiffel" {
		t.Errorf("Photon was asked %q", asked)
	}
}

// A Photon address that is not an http or https URL stops the node at start.
func TestPhotonURLMustBeHTTP(t *testing.T) {
	_, err := server.New(context.Background(), server.Config{DataDir: t.TempDir(), PhotonURL: "photon:2322"},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err == nil {
		t.Fatal("the node started with a Photon address that is not one")
	}
}
