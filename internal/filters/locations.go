package filters

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/geo"
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
	// AddressBounds is a GeoJSON Feature whose geometry is the address's bounds.
	AddressBounds json.RawMessage
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// LocationStore keeps location configurations.
type LocationStore interface {
	// CreateLocationConfiguration fails with account.ErrAssetLimitReached when the organization holds
	// as many assets as its asset limit allows.
	CreateLocationConfiguration(ctx context.Context, c *LocationConfiguration) error
	LocationConfiguration(ctx context.Context, id int64) (LocationConfiguration, error)
	LocationConfigurationByFPID(ctx context.Context, fpid string) (LocationConfiguration, error)
	// LocationConfigurations returns a page of the organization's configurations whose folded
	// name contains nameKey, by name, and how many there are in all.
	LocationConfigurations(ctx context.Context, organizationID int64, nameKey string, offset, limit int) ([]LocationConfiguration, int, error)
	UpdateLocationConfiguration(ctx context.Context, c LocationConfiguration) error
	DeleteLocationConfiguration(ctx context.Context, id int64) error
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

// LocationInput is what a user sends to create or change a configuration.
type LocationInput struct {
	Name    string
	Address string
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
	if err := l.store.CreateLocationConfiguration(ctx, &c); err != nil {
		return LocationView{}, account.AssetLimitProblem(err)
	}
	return l.One(ctx, a, c.FPID)
}

// apply validates the input into c, geocoding the address when it changed.
func (l *Locations) apply(ctx context.Context, c *LocationConfiguration, in LocationInput) error {
	errs := fieldErrors{}
	name := checkName(errs, in.Name)
	address := collapseSpace(in.Address)
	switch {
	case address == "":
		errs.add("address", "The address field is required.")
	case utf8.RuneCountInString(address) > MaxAddressLen:
		errs.add("address", "The address may not be greater than 255 characters.")
	}
	if err := errs.err(); err != nil {
		return err
	}
	if address != c.Address || c.AddressBounds == nil {
		bounds, err := l.geocode(ctx, address)
		if err != nil {
			return err
		}
		c.AddressBounds = bounds
	}
	c.Name, c.Address = name, address
	return nil
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
	if err := l.apply(ctx, &c, in); err != nil {
		return LocationView{}, err
	}
	if err := l.store.UpdateLocationConfiguration(ctx, c); err != nil {
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
	return l.store.DeleteLocationConfiguration(ctx, c.ID)
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
	switch {
	case errors.Is(err, geo.ErrEmptyAddress):
		return nil, problem.InvalidField("address", "The address field is required.")
	case errors.Is(err, geo.ErrNotFound):
		return nil, problem.InvalidField("address", "We could not find this address. Check the spelling or try a nearby city.")
	case err != nil:
		return nil, err
	}
	return result.GeoJSON()
}
