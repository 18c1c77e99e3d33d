package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/auth"
)

// ownTokenReply is one of the caller's API tokens in Settings, with who made it when a tenant
// admin did.
type ownTokenReply struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	Scopes     []string   `json:"scopes"`
	ExpiresAt  int64      `json:"expiresAt"`
	LastUsedAt int64      `json:"lastUsedAt"`
	CreatedAt  int64      `json:"createdAt"`
	RevokedAt  int64      `json:"revokedAt"`
	CreatedBy  *personRef `json:"createdBy"`
}

func ownTokenJSON(t auth.APIToken) ownTokenReply {
	scopes := t.Scopes
	if scopes == nil {
		scopes = []string{}
	}
	return ownTokenReply{ID: t.ID, Name: t.Name, Scopes: scopes, ExpiresAt: unixOrZero(t.ExpiresAt),
		LastUsedAt: unixOrZero(t.LastUsedAt), CreatedAt: unixOrZero(t.CreatedAt), RevokedAt: unixOrZero(t.RevokedAt),
		CreatedBy: createdByJSON(t)}
}

func (a *API) ownTokens(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	tokens, err := a.Auth.OwnAPITokens(r.Context(), id)
	if err != nil {
		return err
	}
	out := make([]ownTokenReply, 0, len(tokens))
	for _, t := range tokens {
		out = append(out, ownTokenJSON(t))
	}
	return ok(w, out)
}

func (a *API) revokeOwnToken(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	tokenID, err := pathID(r)
	if err != nil {
		return err
	}
	t, err := a.Auth.RevokeOwnAPIToken(r.Context(), id, tokenID)
	if err != nil {
		return err
	}
	return ok(w, ownTokenJSON(t))
}
