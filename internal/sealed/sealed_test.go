package sealed

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSealAndOpen(t *testing.T) {
	k, err := ParseKey(GenerateText())
	if err != nil {
		t.Fatal(err)
	}
	other, _ := ParseKey(GenerateText())
	box, err := k.Seal("server_secrets:x", "the plaintext")
	if err != nil {
		t.Fatal(err)
	}
	if !IsSealed(box) || strings.Contains(box, "plaintext") {
		t.Fatalf("sealed value %q", box)
	}
	again, _ := k.Seal("server_secrets:x", "the plaintext")
	if again == box {
		t.Error("two seals of one value are equal: the nonce is not fresh")
	}
	if got, err := k.Open("server_secrets:x", box); err != nil || got != "the plaintext" {
		t.Errorf("Open = %q, %v", got, err)
	}
	tampered := box[:len(box)-2] + "AA"
	if tampered == box {
		tampered = box[:len(box)-2] + "BB"
	}
	for name, try := range map[string]func() (string, error){
		"another key":     func() (string, error) { return other.Open("server_secrets:x", box) },
		"another purpose": func() (string, error) { return k.Open("server_secrets:y", box) },
		"altered":         func() (string, error) { return k.Open("server_secrets:x", tampered) },
		"truncated":       func() (string, error) { return k.Open("server_secrets:x", prefix+"AAAA") },
	} {
		if _, err := try(); !errors.Is(err, ErrWrongKey) {
			t.Errorf("%s: %v, want ErrWrongKey", name, err)
		}
	}
}

func TestLoad(t *testing.T) {
	text := GenerateText()
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "given.key")
	if err := os.WriteFile(keyFile, []byte(text+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	box, _ := mustParse(t, text).Seal("p", "v")
	tests := []struct {
		name    string
		src     Source
		opens   bool   // the loaded key opens box
		wantErr string // part of the error
	}{
		{"file", Source{File: keyFile, DataDir: dir}, true, ""},
		{"environment", Source{Env: text, DataDir: dir}, true, ""},
		{"file and environment", Source{File: keyFile, Env: text}, false, "not both"},
		{"short key", Source{Env: "c2hvcnQ="}, false, "32 bytes"},
		{"not base64", Source{Env: "not base64!"}, false, "base64"},
		{"missing file", Source{File: filepath.Join(dir, "nope")}, false, "no such file"},
		{"generated in the data dir", Source{DataDir: t.TempDir()}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := Load(tt.src)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Load = %v, want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := k.Open("p", box); (err == nil) != tt.opens {
				t.Errorf("opens the sealed value: %v, want %v", err == nil, tt.opens)
			}
		})
	}
}

// The default key is generated once, readable by its owner alone, and read back after.
func TestGeneratedKeyIsKept(t *testing.T) {
	dir := t.TempDir()
	first, err := Load(Source{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(dir, DefaultKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", info.Mode().Perm())
	}
	box, _ := first.Seal("p", "v")
	second, err := Load(Source{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := second.Open("p", box); err != nil || got != "v" {
		t.Errorf("the key read back does not open what the generated one sealed: %q, %v", got, err)
	}
}

func mustParse(t *testing.T, text string) *Key {
	t.Helper()
	k, err := ParseKey(text)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
