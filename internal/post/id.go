package post

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// NewID derives a post's id from its provider and its id at that provider, so that the same
// content seen twice (a redelivery, a re-crawl, two connectors) is the same post.
func NewID(provider, nativeID string) string {
	// The zero byte keeps ("ab", "c") and ("a", "bc") apart.
	sum := sha256.Sum256([]byte(provider + "\x00" + nativeID))
	return hex.EncodeToString(sum[:16])
}

// NewIngestID derives the id of a post pushed through the ingest API under a namespace (the
// pushing token's, "ingest:<token id>"). A namespace is never a provider key, so the id differs
// from the one a connector derives for the same provider and native id, and from the one another
// token derives: an ingest client can neither pre-empt a connector's post nor overwrite a post
// pushed by someone else.
func NewIngestID(namespace, provider, nativeID string) string {
	return NewID(namespace, provider+"\x00"+nativeID)
}

// NewTenantID derives the id of a post read by one of a tenant's own sources. The tenant's
// namespace is never a provider key, so a feed that copies a shared connector's native ids (a
// forged Hacker News guid) gets ids of its own and can neither replace nor drop the shared
// post; two tenants reading the same feed keep a post each, as each sees only its own.
func NewTenantID(tenant int64, provider, nativeID string) string {
	return NewIngestID("tenant:"+strconv.FormatInt(tenant, 10), provider, nativeID)
}
