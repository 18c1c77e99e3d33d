package authz

import (
	"testing"

	"github.com/sightline/sightline/internal/account"
)

func TestCanMailTo(t *testing.T) {
	members := []account.Member{{Email: "ana@acme.test"}, {Email: "bo@acme.test"}}
	for _, tc := range []struct {
		address string
		allowed bool
	}{
		{"me@acme.test", true},
		{" Me@ACME.test ", true},
		{"bo@acme.test", true},
		{"BO@acme.test", true},
		{"bo@acme.test.evil.example", false},
		{"victim@bank.example", false},
		{"", false},
	} {
		err := CanMailTo("email", tc.address, "me@acme.test", members)
		if (err == nil) != tc.allowed {
			t.Errorf("CanMailTo(%q) = %v, allowed %v", tc.address, err, tc.allowed)
		}
	}
	if err := CanMailTo("email", "", "", nil); err == nil {
		t.Error("an empty address matched an empty own address")
	}
}
