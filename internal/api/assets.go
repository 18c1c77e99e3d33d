package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/asset"
	"github.com/sightline/sightline/internal/auth"
)

// The organization's assets (monitor-area.md section 4; docs/monitor-api.md, "Assets").

// AssetReply is an asset as the API shows it.
type AssetReply struct {
	ID         int64  `json:"id"`
	Type       string `json:"type"`
	Value      string `json:"value"`
	OwnerEmail string `json:"ownerEmail"`
	CanEdit    bool   `json:"canEdit"`
	CreatedAt  int64  `json:"createdAt"`
	UpdatedAt  int64  `json:"updatedAt"`
}

func assetJSON(v asset.View) AssetReply {
	return AssetReply{ID: v.ID, Type: string(v.Type), Value: v.Value, OwnerEmail: v.OwnerEmail, CanEdit: v.CanEdit,
		CreatedAt: v.CreatedAt.Unix(), UpdatedAt: v.UpdatedAt.Unix()}
}

func (a *API) assets(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	views, err := a.Assets.List(r.Context(), id.Actor(), asset.Type(r.URL.Query().Get("type")))
	if err != nil {
		return err
	}
	out := make([]AssetReply, 0, len(views))
	for _, v := range views {
		out = append(out, assetJSON(v))
	}
	return ok(w, out)
}

func (a *API) createAsset(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body asset.Asset
	if err := decode(r, &body); err != nil {
		return err
	}
	v, err := a.Assets.Create(r.Context(), id.Actor(), body)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, envelope{Data: assetJSON(v)})
	return nil
}

func (a *API) updateAsset(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	assetID, err := pathID(r)
	if err != nil {
		return err
	}
	var body asset.Asset
	if err := decode(r, &body); err != nil {
		return err
	}
	v, err := a.Assets.Update(r.Context(), id.Actor(), assetID, body)
	if err != nil {
		return err
	}
	return ok(w, assetJSON(v))
}

func (a *API) deleteAsset(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	assetID, err := pathID(r)
	if err != nil {
		return err
	}
	if err := a.Assets.Delete(r.Context(), id.Actor(), assetID); err != nil {
		return err
	}
	return ok(w, map[string]bool{"deleted": true})
}
