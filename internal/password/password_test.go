package password

import (
	"strings"
	"testing"
)

func TestHashAndVerify(t *testing.T) {
	hash, err := Hash("correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		plain string
		want  bool
	}{
		{"same password", "correct horse battery staple", true},
		{"different password", "correct horse battery stapler", false},
		{"empty password", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Verify(hash, tt.plain)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Verify = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestHashesAreSalted(t *testing.T) {
	a, _ := Hash("secret-password")
	b, _ := Hash("secret-password")
	if a == b {
		t.Error("two hashes of the same password are equal; the salt is not random")
	}
}

func TestVerifyRejectsMalformedHashes(t *testing.T) {
	for _, encoded := range []string{"", "plain", "$argon2id$v=19$m=1,t=1,p=1$!!$!!", "$bcrypt$x$y$z$w"} {
		if _, err := Verify(encoded, "x"); err == nil {
			t.Errorf("Verify(%q) accepted a malformed hash", encoded)
		}
	}
}

// A test binary's lower cost is recorded in the hash, which verifies as a real one does.
func TestLowerCostForTests(t *testing.T) {
	saved := cost
	t.Cleanup(func() { cost = saved })
	real, _ := Hash("secret-password")
	LowerCostForTests()
	cheap, err := Hash("secret-password")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(real, "$m=19456,t=2,p=1$") || !strings.Contains(cheap, "$m=8,t=1,p=1$") {
		t.Errorf("hashes %q and %q: want the real parameters, then argon2id's least", real, cheap)
	}
	for _, encoded := range []string{real, cheap} {
		if ok, err := Verify(encoded, "secret-password"); !ok || err != nil {
			t.Errorf("Verify(%q) = %v, %v", encoded, ok, err)
		}
		if ok, _ := Verify(encoded, "other-password"); ok {
			t.Errorf("Verify(%q) accepts another password", encoded)
		}
	}
}
