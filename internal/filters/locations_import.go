package filters

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/query"
)

// MaxImportPlaces bounds one import: each place is geocoded in turn.
const MaxImportPlaces = 500

// ImportedPlace is what became of one line of an import: created, or why not.
type ImportedPlace struct {
	Line    int    `json:"line"`
	Name    string `json:"name"`
	Address string `json:"address"`
	Created bool   `json:"created"`
	FPID    string `json:"fpid,omitempty"`
	Message string `json:"message,omitempty"`
}

// ImportReport is an import's outcome, line by line.
type ImportReport struct {
	Created int             `json:"created"`
	Failed  int             `json:"failed"`
	Places  []ImportedPlace `json:"places"`
}

// ImportCSV creates a configuration for each line of a CSV file of places. A header row names the
// columns: name, and address or lat and lon (also latitude, longitude, lng), and optionally
// radius in meters; without one the first two columns are the name and the address. Each line
// stands alone: one that fails (no such place, a bad number, the asset limit) is reported and the
// others go on.
func (l *Locations) ImportCSV(ctx context.Context, a authz.Actor, u Upload) (ImportReport, error) {
	if err := authz.CanUseAPI(a); err != nil {
		return ImportReport{}, err
	}
	records, err := csvRecords(u)
	if err != nil {
		return ImportReport{}, err
	}
	cols := importColumns{name: 0, address: 1, lat: -1, lon: -1, radius: -1}
	if len(records) > 0 {
		if header, ok := headerColumns(records[0].cells); ok {
			cols, records = header, records[1:]
		}
	}
	records = slices.DeleteFunc(records, func(r csvRecord) bool {
		return strings.TrimSpace(strings.Join(r.cells, "")) == ""
	})
	if len(records) == 0 {
		return ImportReport{}, problem.InvalidField("file", "The file names no place: put a name and an address on each line.")
	}
	if len(records) > MaxImportPlaces {
		return ImportReport{}, problem.InvalidField("file",
			fmt.Sprintf("An import may hold at most %d places; this file has %d.", MaxImportPlaces, len(records)))
	}
	report := ImportReport{Places: make([]ImportedPlace, 0, len(records))}
	for _, r := range records {
		in, message := cols.input(r)
		place := ImportedPlace{Line: r.line, Name: in.Name, Address: in.Address}
		if message != "" {
			place.Message = message
			report.Failed++
			report.Places = append(report.Places, place)
			continue
		}
		v, err := l.Create(ctx, a, in)
		if err == nil {
			place.Created, place.FPID, place.Address = true, v.FPID, v.Address
			report.Created++
		} else if p, ok := problem.As(err); ok {
			place.Message = reason(p)
			report.Failed++
		} else {
			return ImportReport{}, err
		}
		report.Places = append(report.Places, place)
	}
	return report, nil
}

// importColumns are the positions of an import's columns; -1 for none.
type importColumns struct{ name, address, lat, lon, radius int }

// headerColumns reads a header row; ok when it names the name and a place (address or both
// coordinates).
func headerColumns(cells []string) (importColumns, bool) {
	header := make([]string, len(cells))
	for i, c := range cells {
		header[i] = query.Fold(strings.TrimSpace(c))
	}
	find := func(names ...string) int {
		for _, n := range names {
			if i := slices.Index(header, n); i >= 0 {
				return i
			}
		}
		return -1
	}
	cols := importColumns{name: find("name"), address: find("address"), lat: find("lat", "latitude"),
		lon: find("lon", "lng", "long", "longitude"), radius: find("radius", "radius_m", "radius_meters", "radius (m)")}
	return cols, cols.name >= 0 && (cols.address >= 0 || cols.lat >= 0 && cols.lon >= 0)
}

// input is a line as a configuration to create, or why the line cannot be one.
func (c importColumns) input(r csvRecord) (LocationInput, string) {
	cell := func(i int) string {
		if i >= 0 && i < len(r.cells) {
			return strings.TrimSpace(r.cells[i])
		}
		return ""
	}
	in := LocationInput{Name: cell(c.name), Address: cell(c.address)}
	number := func(i int, message string) (*float64, string) {
		text := cell(i)
		if text == "" {
			return nil, ""
		}
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, message
		}
		return &f, ""
	}
	var message string
	if in.Lat, message = number(c.lat, MsgLatitudeRange); message != "" {
		return in, message
	}
	if in.Lon, message = number(c.lon, MsgLongitudeRange); message != "" {
		return in, message
	}
	if text := cell(c.radius); text != "" {
		meters, err := strconv.Atoi(text)
		if err != nil {
			return in, MsgRadiusRange
		}
		in.RadiusMeters = &meters
	}
	return in, ""
}

// reason is a refused line's problem in one sentence.
func reason(p *problem.Problem) string {
	for _, field := range []string{"name", "address", "lat", "lon", "radius_meters"} {
		if msgs := p.Fields[field]; len(msgs) > 0 {
			return msgs[0]
		}
	}
	if p.Title != "" {
		return p.Title + ": " + p.Description
	}
	return p.Message
}
