// Package sealed encrypts the server's secrets at rest (the bearer signing key, the live
// channel's secret, users' TOTP secrets) with AES-256-GCM under a key kept outside the
// database, so a copy of the database alone cannot mint tokens or codes.
package sealed

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// KeySize is the length of a key in bytes (AES-256).
const KeySize = 32

// prefix marks a sealed value; a stored value without it is plaintext from an older release.
const prefix = "sealed:v1:"

// DefaultKeyFile is the key's file in the data dir when no other key is given.
const DefaultKeyFile = "secret.key"

// ErrWrongKey means a sealed value was sealed with another key (or altered).
var ErrWrongKey = errors.New("sealed: the secret key cannot decrypt this value: it was sealed with another key or altered")

// Key seals and opens values.
type Key struct{ aead cipher.AEAD }

// NewKey makes a key from KeySize random bytes.
func NewKey(raw []byte) (*Key, error) {
	if len(raw) != KeySize {
		return nil, fmt.Errorf("sealed: a secret key is %d bytes, not %d", KeySize, len(raw))
	}
	block, err := aes.NewCipher(raw)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Key{aead: aead}, nil
}

// ParseKey reads a key written as standard base64 (surrounding space ignored), as the key
// file and SIGHTLINE_SECRET_KEY hold it.
func ParseKey(text string) (*Key, error) {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(text))
	if err != nil {
		return nil, fmt.Errorf("sealed: a secret key is %d bytes in base64: %w", KeySize, err)
	}
	return NewKey(raw)
}

// GenerateText returns a fresh random key in the form ParseKey reads.
func GenerateText() string {
	raw := make([]byte, KeySize)
	rand.Read(raw) // never fails: crypto/rand crashes the program rather than return an error
	return base64.StdEncoding.EncodeToString(raw)
}

// Source says where the key comes from: File when given, else Env (the key itself), else the
// file DefaultKeyFile in DataDir, generated there on first use.
type Source struct {
	File    string
	Env     string
	DataDir string
}

// Load reads (or on first use generates) the key.
func Load(src Source) (*Key, error) {
	switch {
	case src.File != "" && src.Env != "":
		return nil, errors.New("sealed: give the secret key by file or by SIGHTLINE_SECRET_KEY, not both")
	case src.File != "":
		return readKeyFile(src.File)
	case src.Env != "":
		k, err := ParseKey(src.Env)
		if err != nil {
			return nil, fmt.Errorf("SIGHTLINE_SECRET_KEY: %w", err)
		}
		return k, nil
	}
	path := filepath.Join(src.DataDir, DefaultKeyFile)
	k, err := readKeyFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	// O_EXCL: of two processes starting together on a new data dir, one writes the key and the
	// other reads it.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return readKeyFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("sealed: create the secret key file: %w", err)
	}
	text := GenerateText()
	if _, err := f.WriteString(text + "\n"); err != nil {
		f.Close()
		return nil, fmt.Errorf("sealed: write the secret key file: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("sealed: write the secret key file: %w", err)
	}
	return ParseKey(text)
}

func readKeyFile(path string) (*Key, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sealed: read the secret key file: %w", err)
	}
	k, err := ParseKey(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// IsSealed reports whether a stored value is sealed (else it is plaintext from an older release).
func IsSealed(value string) bool { return strings.HasPrefix(value, prefix) }

// Seal encrypts plaintext for storage. purpose binds the value to where it is stored (such as
// "server_secrets:bearer_signing_key"), so a sealed value moved to another place does not open.
func (k *Key) Seal(purpose, plaintext string) (string, error) {
	nonce := make([]byte, k.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := k.aead.Seal(nonce, nonce, []byte(plaintext), []byte(purpose))
	return prefix + base64.RawStdEncoding.EncodeToString(out), nil
}

// Open decrypts a value Seal made for the same purpose.
func (k *Key) Open(purpose, value string) (string, error) {
	body, ok := strings.CutPrefix(value, prefix)
	if !ok {
		return "", errors.New("sealed: the value is not sealed")
	}
	raw, err := base64.RawStdEncoding.DecodeString(body)
	if err != nil || len(raw) < k.aead.NonceSize() {
		return "", ErrWrongKey
	}
	nonce, box := raw[:k.aead.NonceSize()], raw[k.aead.NonceSize():]
	plain, err := k.aead.Open(nil, nonce, box, []byte(purpose))
	if err != nil {
		return "", ErrWrongKey
	}
	return string(plain), nil
}
