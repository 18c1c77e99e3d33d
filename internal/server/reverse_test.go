package server_test

import (
	"context"
	"testing"
)

// GET /api/v1/geocode/reverse names a point for a signed-in user; a bad point is 422 naming the
// coordinate, a point far from any place 404, no sign-in 401.
func TestReverseGeocode(t *testing.T) {
	node, srv := startNode(t)
	token, _, err := node.Auth.CreateAPIToken(context.Background(), "admin@example.test", "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, query, token string
		status             int
		address, badField  string
	}{
		{"a point in Lyon", "lat=45.764&lon=4.8357", token, 200, "Lyon, Auvergne-Rhône-Alpes, France", ""},
		{"no latitude", "lon=4.8357", token, 422, "", "lat"},
		{"a longitude out of range", "lat=45.764&lon=200", token, 422, "", "lon"},
		{"mid-ocean", "lat=0&lon=-30", token, 404, "", ""},
		{"not signed in", "lat=45.764&lon=4.8357", "", 401, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, reply := call(t, "GET", srv.URL+"/api/v1/geocode/reverse?"+tc.query, tc.token, "")
			if status != tc.status {
				t.Fatalf("status %d %v, want %d", status, reply, tc.status)
			}
			if tc.address != "" {
				if data, _ := reply["data"].(map[string]any); data["address"] != tc.address || data["kind"] != "city" {
					t.Errorf("reply %v, want %s", reply, tc.address)
				}
			}
			if tc.badField != "" {
				if errs, _ := reply["errors"].(map[string]any); errs[tc.badField] == nil {
					t.Errorf("reply %v, want a message on %s", reply, tc.badField)
				}
			}
		})
	}
}
