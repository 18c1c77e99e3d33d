package api

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/problem"
)

// The configurations manager: location configurations (monitor-area.md section 7). Reply
// shapes are documented in docs/decisions.md under "Location configurations".

type locationReply struct {
	ID            int64           `json:"id"`
	FPID          string          `json:"fpid"`
	Name          string          `json:"name"`
	Address       string          `json:"address"`
	AddressBounds json.RawMessage `json:"address_bounds"`
	Center        geom.Point      `json:"center"`
	// Point is the place's coordinates when it was given as coordinates rather than an address.
	Point        *geom.Point `json:"point"`
	RadiusMeters int         `json:"radius_meters"`
	// RadiusIsDefault: the radius follows the bounds (or the 1 km of a point) until one is chosen.
	RadiusIsDefault bool        `json:"radius_is_default"`
	Owner           PersonReply `json:"owner"`
	CanEdit         bool        `json:"canEdit"`
	CreatedAt       int64       `json:"created_at"`
	UpdatedAt       int64       `json:"updated_at"`
}

func locationJSON(v filters.LocationView) locationReply {
	radius, isDefault := v.Radius()
	return locationReply{ID: v.ID, FPID: v.FPID, Name: v.Name, Address: v.Address, AddressBounds: v.AddressBounds,
		Center: v.Center(), Point: v.Point, RadiusMeters: radius, RadiusIsDefault: isDefault,
		Owner:   PersonReply{ID: v.Owner.ID, Email: v.Owner.Email, Username: v.Owner.Username, Role: authz.RoleOwner},
		CanEdit: v.CanEdit, CreatedAt: v.CreatedAt.Unix(), UpdatedAt: v.UpdatedAt.Unix()}
}

// pageMeta is the paginator's meta; pages count from 0, from and to count items from 1 and are
// null on an empty page.
type pageMeta struct {
	CurrentPage int  `json:"current_page"`
	LastPage    int  `json:"last_page"`
	PerPage     int  `json:"per_page"`
	Total       int  `json:"total"`
	From        *int `json:"from"`
	To          *int `json:"to"`
}

type pageLinks struct {
	First string  `json:"first"`
	Last  string  `json:"last"`
	Prev  *string `json:"prev"`
	Next  *string `json:"next"`
}

type locationPageReply struct {
	Data  []locationReply `json:"data"`
	Meta  pageMeta        `json:"meta"`
	Links pageLinks       `json:"links"`
}

func queryInt(r *http.Request, name string, fallback int) (int, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return fallback, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, problem.InvalidField(name, "The "+name+" must be a whole number.")
	}
	return n, nil
}

func (a *API) locationConfigurations(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	page, err := queryInt(r, "page", 0)
	if err != nil {
		return err
	}
	size, err := queryInt(r, "limit", filters.DefaultPageSize)
	if err != nil {
		return err
	}
	text := r.URL.Query().Get("q")
	p, err := a.Locations.List(r.Context(), id.Actor(), text, page, size)
	if err != nil {
		return err
	}
	reply := locationPageReply{Data: make([]locationReply, 0, len(p.Items))}
	for _, v := range p.Items {
		reply.Data = append(reply.Data, locationJSON(v))
	}
	last := max(0, (p.Total+p.Size-1)/p.Size-1)
	reply.Meta = pageMeta{CurrentPage: p.Page, LastPage: last, PerPage: p.Size, Total: p.Total}
	if n := len(p.Items); n > 0 {
		from, to := p.Page*p.Size+1, p.Page*p.Size+n
		reply.Meta.From, reply.Meta.To = &from, &to
	}
	link := func(page int) string {
		q := url.Values{"page": {strconv.Itoa(page)}, "limit": {strconv.Itoa(p.Size)}}
		if text != "" {
			q.Set("q", text)
		}
		return r.URL.Path + "?" + q.Encode()
	}
	reply.Links = pageLinks{First: link(0), Last: link(last)}
	if p.Page > 0 {
		prev := link(min(p.Page-1, last))
		reply.Links.Prev = &prev
	}
	if p.Page < last {
		next := link(p.Page + 1)
		reply.Links.Next = &next
	}
	writeJSON(w, http.StatusOK, reply)
	return nil
}

func (a *API) locationConfiguration(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	v, err := a.Locations.One(r.Context(), id.Actor(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return ok(w, locationJSON(v))
}

// locationBody is a configuration as sent: a name and an address, or a point (lat and lon);
// radius_meters is optional (absent or null: the default).
type locationBody struct {
	Name         string   `json:"name"`
	Address      string   `json:"address"`
	Lat          *float64 `json:"lat"`
	Lon          *float64 `json:"lon"`
	RadiusMeters *int     `json:"radius_meters"`
}

func (b locationBody) input() filters.LocationInput {
	return filters.LocationInput{Name: b.Name, Address: b.Address, Lat: b.Lat, Lon: b.Lon, RadiusMeters: b.RadiusMeters}
}

func (a *API) createLocationConfiguration(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body locationBody
	if err := decode(r, &body); err != nil {
		return err
	}
	v, err := a.Locations.Create(r.Context(), id.Actor(), body.input())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, envelope{Data: locationJSON(v)})
	return nil
}

func (a *API) updateLocationConfiguration(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body locationBody
	if err := decode(r, &body); err != nil {
		return err
	}
	v, err := a.Locations.Update(r.Context(), id.Actor(), r.PathValue("id"), body.input())
	if err != nil {
		return err
	}
	return ok(w, locationJSON(v))
}

func (a *API) deleteLocationConfiguration(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	if err := a.Locations.Delete(r.Context(), id.Actor(), r.PathValue("id")); err != nil {
		return err
	}
	return ok(w, map[string]bool{"deleted": true})
}

// geocodeConfiguration replies with the GeoJSON Feature a configuration at the address stores.
func (a *API) geocodeConfiguration(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	feature, err := a.Locations.Geocode(r.Context(), id.Actor(), r.URL.Query().Get("address"))
	if err != nil {
		return err
	}
	return ok(w, feature)
}

// importLocationConfigurations creates configurations from a CSV file of places, sent as the
// "file" field of a multipart form or as a text/csv body, and reports each line.
func (a *API) importLocationConfigurations(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	upload, err := readUpload(w, r)
	if err != nil {
		return err
	}
	report, err := a.Locations.ImportCSV(r.Context(), id.Actor(), upload)
	if err != nil {
		return err
	}
	return ok(w, report)
}
