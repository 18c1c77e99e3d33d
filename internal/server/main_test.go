package server_test

import (
	"os"
	"testing"

	"github.com/sightline/sightline/internal/password"
)

// The users these tests create and sign in are hashed at argon2id's least cost: what is tested is
// who may do what, not the hash (internal/password tests that with the real parameters).
func TestMain(m *testing.M) {
	password.LowerCostForTests()
	os.Exit(m.Run())
}
