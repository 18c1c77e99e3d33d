package filters

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/problem"
)

// LocationConfiguration is a place the organization saved once to use in searches and
// proximity alerts (a "location asset").
type LocationConfiguration struct {
	ID int64
	// FPID is the public id other records (alert settings' locationAssetIds) refer to.
	FPID           string
	OrganizationID int64
	OwnerID        int64
	Owner          Person
	Name           string
	Address        string
	// AddressBounds is a GeoJSON Feature whose geometry is the address's bounds, or for a place
	// given as coordinates the circle of its radius.
	AddressBounds json.RawMessage
	// RadiusMeters is the proximity radius the user chose; 0 takes the default (Radius).
	RadiusMeters int
	// Point is set when the place was given as coordinates rather than an address.
	Point     *geom.Point
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Proximity radius bounds (decisions.md, "Location configurations"): a place given as
// coordinates defaults to 1 km, one given as an address to the circle that holds its bounds.
const (
	MinRadiusMeters          = 10
	MaxRadiusMeters          = 500_000
	DefaultPointRadiusMeters = 1000
	MsgRadiusRange           = "The radius must be between 10 m and 500 km."
	MsgLatitudeRange         = "The latitude must be a number between -90 and 90."
	MsgLongitudeRange        = "The longitude must be a number between -180 and 180."
	MsgCoordinatesPair       = "Give both a latitude and a longitude, or an address."
)

// Center is the point proximity is measured from: the given point, or the middle of the bounds.
func (c LocationConfiguration) Center() geom.Point {
	if c.Point != nil {
		return *c.Point
	}
	return c.bounds().Bounds().Center()
}

// Radius is the proximity radius in meters and whether it is the default rather than chosen.
func (c LocationConfiguration) Radius() (meters int, isDefault bool) {
	switch {
	case c.RadiusMeters > 0:
		return c.RadiusMeters, false
	case c.Point != nil:
		return DefaultPointRadiusMeters, true
	}
	km := c.bounds().Bounds().CircumradiusKm()
	return min(max(int(math.Round(km*1000)), MinRadiusMeters), MaxRadiusMeters), true
}

// bounds is the stored Feature's shape; stored bounds were checked when saved.
func (c LocationConfiguration) bounds() geom.Shape {
	shape, _ := geom.ParseGeoJSON(c.AddressBounds)
	return shape
}

// LocationStore keeps location configurations.
type LocationStore interface {
	// CreateLocationConfiguration fails with account.ErrAssetLimitReached when the organization holds
	// as many assets as its asset limit allows. It and the other mutators write the audit entries
	// in the change's transaction.
	CreateLocationConfiguration(ctx context.Context, c *LocationConfiguration, audit ...account.AuditEntry) error
	LocationConfiguration(ctx context.Context, id int64) (LocationConfiguration, error)
	LocationConfigurationByFPID(ctx context.Context, fpid string) (LocationConfiguration, error)
	// LocationConfigurations returns a page of the organization's configurations whose folded
	// name contains nameKey, by name, and how many there are in all.
	LocationConfigurations(ctx context.Context, organizationID int64, nameKey string, offset, limit int) ([]LocationConfiguration, int, error)
	UpdateLocationConfiguration(ctx context.Context, c LocationConfiguration, audit ...account.AuditEntry) error
	DeleteLocationConfiguration(ctx context.Context, id int64, audit ...account.AuditEntry) error
}

// Asset limit reply (monitor-area.md section 8: "Asset Limit Reached", telling the user to
// contact support).
const ()

// Paging of location configurations (monitor-area.md section 9).
const (
	DefaultPageSize = 10
	MaxPageSize     = 1000 // what pickers ask for
	MaxAddressLen   = 255
)

// Locations applies the location-configuration rules.
type Locations struct {
	store    LocationStore
	geocoder geo.Geocoder
}

func NewLocations(s LocationStore, g geo.Geocoder) *Locations {
	return &Locations{store: s, geocoder: g}
}

// LocationView is a configuration as one user sees it.
type LocationView struct {
	LocationConfiguration
	CanEdit bool
}

// LocationPage is one page of configurations.
type LocationPage struct {
	Items []LocationView
	Total int
	Page  int // from 0
	Size  int
}

// LocationInput is what a user sends to create or change a configuration: a name and either an
// address or a point (Lat and Lon), and optionally a radius (nil: the default).
type LocationInput struct {
	Name         string
	Address      string
	Lat, Lon     *float64
	RadiusMeters *int
}

// List returns page (from 0) of size configurations whose name contains text (case and accents
// ignored), by name.
func (l *Locations) List(ctx context.Context, a authz.Actor, text string, page, size int) (LocationPage, error) {
	if err := authz.CanUseAPI(a); err != nil {
		return LocationPage{}, err
	}
	errs := fieldErrors{}
	if page < 0 {
		errs.add("page", "The page must be 0 or more.")
	}
	if size < 1 || size > MaxPageSize {
		errs.add("limit", "The limit must be between 1 and 1000.")
	}
	if err := errs.err(); err != nil {
		return LocationPage{}, err
	}
	items, total, err := l.store.LocationConfigurations(ctx, a.OrganizationID, NameKey(text), page*size, size)
	if err != nil {
		return LocationPage{}, err
	}
	out := LocationPage{Items: make([]LocationView, 0, len(items)), Total: total, Page: page, Size: size}
	for _, c := range items {
		out.Items = append(out.Items, l.view(a, c))
	}
	return out, nil
}

func (l *Locations) view(a authz.Actor, c LocationConfiguration) LocationView {
	level := authz.LocationConfigurationLevel(a, authz.OwnedFacts{OrganizationID: c.OrganizationID, OwnerID: c.OwnerID})
	return LocationView{LocationConfiguration: c, CanEdit: level >= authz.LevelEdit}
}

// load finds a configuration by its id (all digits) or its fpid; another organization's do not
// exist for the actor.
func (l *Locations) load(ctx context.Context, a authz.Actor, ref string) (LocationConfiguration, authz.Level, error) {
	var c LocationConfiguration
	var err error
	if id, convErr := strconv.ParseInt(ref, 10, 64); convErr == nil {
		c, err = l.store.LocationConfiguration(ctx, id)
	} else {
		c, err = l.store.LocationConfigurationByFPID(ctx, ref)
	}
	if err != nil {
		return c, authz.LevelNone, err
	}
	level := authz.LocationConfigurationLevel(a, authz.OwnedFacts{OrganizationID: c.OrganizationID, OwnerID: c.OwnerID})
	if level == authz.LevelNone {
		return LocationConfiguration{}, level, problem.NotFound(authz.MsgNotFoundLocation)
	}
	return c, level, nil
}

// One returns a configuration by id or fpid.
func (l *Locations) One(ctx context.Context, a authz.Actor, ref string) (LocationView, error) {
	c, _, err := l.load(ctx, a, ref)
	if err != nil {
		return LocationView{}, err
	}
	return l.view(a, c), nil
}

// Create geocodes the address and saves the configuration, within the organization's asset
// limit.
func (l *Locations) Create(ctx context.Context, a authz.Actor, in LocationInput) (LocationView, error) {
	if err := authz.CanUseAPI(a); err != nil {
		return LocationView{}, err
	}
	c := LocationConfiguration{FPID: rand.Text(), OrganizationID: a.OrganizationID, OwnerID: a.UserID}
	if err := l.apply(ctx, &c, in); err != nil {
		return LocationView{}, err
	}
	if err := l.store.CreateLocationConfiguration(ctx, &c, audit.Entry(a, audit.Change{Model: audit.ModelConfiguration,
		Ref: c.FPID, Action: audit.ActionCreated, New: audit.Snapshot(configurationFields(c))})); err != nil {
		return LocationView{}, account.AssetLimitProblem(err)
	}
	return l.One(ctx, a, c.FPID)
}

// apply validates the input into c, geocoding the address when it changed.
func (l *Locations) apply(ctx context.Context, c *LocationConfiguration, in LocationInput) error {
	errs := fieldErrors{}
	name := checkName(errs, in.Name)
	address := collapseSpace(in.Address)
	point := checkPoint(errs, in.Lat, in.Lon)
	switch {
	case address == "" && point == nil && in.Lat == nil && in.Lon == nil:
		errs.add("address", "The address field is required.")
	case utf8.RuneCountInString(address) > MaxAddressLen:
		errs.add("address", "The address may not be greater than 255 characters.")
	}
	radius := 0
	if in.RadiusMeters != nil {
		if radius = *in.RadiusMeters; radius < MinRadiusMeters || radius > MaxRadiusMeters {
			errs.add("radius_meters", MsgRadiusRange)
		}
	}
	if err := errs.err(); err != nil {
		return err
	}
	switch {
	case point != nil:
		if address == "" {
			address = fmt.Sprintf("%.5f, %.5f", point.Lat, point.Lon)
		}
		c.AddressBounds = pointFeature(*point, cmp.Or(radius, DefaultPointRadiusMeters), address)
	case address != c.Address || c.AddressBounds == nil || c.Point != nil:
		bounds, err := l.geocode(ctx, address)
		if err != nil {
			return err
		}
		c.AddressBounds = bounds
	}
	c.Name, c.Address, c.Point, c.RadiusMeters = name, address, point, radius
	return nil
}

// checkPoint is the point of a latitude and a longitude, nil when neither is given.
func checkPoint(errs fieldErrors, lat, lon *float64) *geom.Point {
	switch {
	case lat == nil && lon == nil:
		return nil
	case lat == nil || lon == nil:
		errs.add("lat", MsgCoordinatesPair)
		return nil
	}
	ok := true
	if math.IsNaN(*lat) || *lat < -90 || *lat > 90 {
		errs.add("lat", MsgLatitudeRange)
		ok = false
	}
	if math.IsNaN(*lon) || *lon < -180 || *lon > 180 {
		errs.add("lon", MsgLongitudeRange)
		ok = false
	}
	if !ok {
		return nil
	}
	return &geom.Point{Lat: *lat, Lon: *lon}
}

// pointFeature is the stored Feature of a place given as coordinates: the circle of its radius.
func pointFeature(p geom.Point, radiusMeters int, address string) json.RawMessage {
	feature, _ := json.Marshal(struct {
		Type       string          `json:"type"`
		Geometry   json.RawMessage `json:"geometry"`
		Properties any             `json:"properties"`
	}{"Feature", geom.Circle(p, float64(radiusMeters)/1000).GeoJSON(), struct {
		Address string `json:"address"`
		Kind    string `json:"kind"`
	}{address, "coordinates"}})
	return feature
}

// Update renames a configuration or moves it to another address.
func (l *Locations) Update(ctx context.Context, a authz.Actor, ref string, in LocationInput) (LocationView, error) {
	c, level, err := l.load(ctx, a, ref)
	if err != nil {
		return LocationView{}, err
	}
	if level < authz.LevelEdit {
		return LocationView{}, problem.Forbidden(authz.MsgLocationReadOnly)
	}
	before := configurationFields(c)
	if err := l.apply(ctx, &c, in); err != nil {
		return LocationView{}, err
	}
	var entries []account.AuditEntry
	if prev, next, changed := audit.Diff(before, configurationFields(c)); changed {
		entries = append(entries, audit.Entry(a, audit.Change{Model: audit.ModelConfiguration, Ref: c.FPID,
			Action: audit.ActionUpdated, Previous: prev, New: next}))
	}
	if err := l.store.UpdateLocationConfiguration(ctx, c, entries...); err != nil {
		return LocationView{}, err
	}
	return l.One(ctx, a, c.FPID)
}

// Delete removes a configuration.
func (l *Locations) Delete(ctx context.Context, a authz.Actor, ref string) error {
	c, level, err := l.load(ctx, a, ref)
	if err != nil {
		return err
	}
	if level < authz.LevelEdit {
		return problem.Forbidden(authz.MsgLocationReadOnly)
	}
	return l.store.DeleteLocationConfiguration(ctx, c.ID, audit.Entry(a, audit.Change{Model: audit.ModelConfiguration,
		Ref: c.FPID, Action: audit.ActionDeleted, Previous: audit.Snapshot(configurationFields(c))}))
}

// configurationFields is what a configuration's audit rows show of it (its bounds follow from
// the address or point, so they are left out).
func configurationFields(c LocationConfiguration) audit.Fields {
	f := audit.Fields{"name": c.Name, "address": c.Address, "radius_meters": c.RadiusMeters}
	if c.Point != nil {
		f["lat"], f["lon"] = c.Point.Lat, c.Point.Lon
	}
	return f
}

// Geocode returns the GeoJSON Feature a configuration at address would store.
func (l *Locations) Geocode(ctx context.Context, a authz.Actor, address string) (json.RawMessage, error) {
	if err := authz.CanUseAPI(a); err != nil {
		return nil, err
	}
	return l.geocode(ctx, address)
}

// geocode turns an address into bounds; an address that finds no place is invalid input.
func (l *Locations) geocode(ctx context.Context, address string) (json.RawMessage, error) {
	result, err := l.geocoder.Lookup(ctx, address)
	if errors.Is(err, geo.ErrNotFound) {
		return nil, problem.InvalidField("address", "We could not find this address. Check the spelling or try a nearby city.")
	}
	if err != nil {
		return nil, err
	}
	return result.GeoJSON()
}
