// Package password hashes and verifies passwords with argon2id, stored in the PHC string format
// ($argon2id$v=19$m=...,t=...,p=...$salt$hash) so parameters can be raised later without
// breaking existing hashes.
package password

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/crypto/argon2"
)

// MinLength is the shortest password accepted.
const MinLength = 8

// Parameters follow the OWASP recommendation for argon2id (19 MiB, 2 passes, 1 lane).
const (
	memoryKiB = 19 * 1024
	passes    = 2
	lanes     = 1
	saltLen   = 16
	keyLen    = 32
)

// cost is what new hashes spend: the parameters above, except in a test binary that lowered it.
var cost = struct{ memoryKiB, passes uint32 }{memoryKiB, passes}

// LowerCostForTests makes the new hashes of this test binary spend argon2id's least (8 KiB, one
// pass) instead of 19 MiB twice, about 40 ms of a core each. Tests of the API and the server
// create users and sign in by the hundred, and a hash's cost is not what they test; this
// package's own tests keep the real parameters. A hash records its parameters, so Verify runs
// the same code for either. It panics outside a test binary, so no server can lower it.
func LowerCostForTests() {
	if !testing.Testing() {
		panic("password: LowerCostForTests outside a test binary")
	}
	cost.memoryKiB, cost.passes = 8*lanes, 1
}

var errMalformed = errors.New("password: malformed hash")

// Hash returns the PHC-encoded argon2id hash of plain.
func Hash(plain string) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(plain), salt, cost.passes, cost.memoryKiB, lanes, keyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, cost.memoryKiB, cost.passes, lanes, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// Verify reports whether plain matches the encoded hash.
func Verify(encoded, plain string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errMalformed
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errMalformed
	}
	var memory, time uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &time, &threads); err != nil {
		return false, errMalformed
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, errMalformed
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil {
		return false, errMalformed
	}
	got := argon2.IDKey([]byte(plain), salt, time, memory, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
