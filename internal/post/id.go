package post

import (
	"crypto/sha256"
	"encoding/hex"
)

// NewID derives a post's id from its provider and its id at that provider, so that the same
// content seen twice (a redelivery, a re-crawl, two connectors) is the same post.
func NewID(provider, nativeID string) string {
	// The zero byte keeps ("ab", "c") and ("a", "bc") apart.
	sum := sha256.Sum256([]byte(provider + "\x00" + nativeID))
	return hex.EncodeToString(sum[:16])
}
