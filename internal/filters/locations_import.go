package filters

import (
	"context"
	"fmt"
	"slices"
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

// ImportCSV creates a configuration for each line of a CSV file of places: a name and an
// address, in the columns a header row names (name, address) or else in the first two. Each
// line stands alone: one that fails (no such place, the asset limit) is reported and the
// others go on.
func (l *Locations) ImportCSV(ctx context.Context, a authz.Actor, u Upload) (ImportReport, error) {
	if err := authz.CanUseAPI(a); err != nil {
		return ImportReport{}, err
	}
	records, err := csvRecords(u)
	if err != nil {
		return ImportReport{}, err
	}
	nameAt, addressAt := 0, 1
	if len(records) > 0 {
		header := make([]string, len(records[0].cells))
		for i, c := range records[0].cells {
			header[i] = query.Fold(strings.TrimSpace(c))
		}
		if n, ad := slices.Index(header, "name"), slices.Index(header, "address"); n >= 0 && ad >= 0 {
			nameAt, addressAt, records = n, ad, records[1:]
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
	cell := func(r csvRecord, i int) string {
		if i < len(r.cells) {
			return strings.TrimSpace(r.cells[i])
		}
		return ""
	}
	for _, r := range records {
		place := ImportedPlace{Line: r.line, Name: cell(r, nameAt), Address: cell(r, addressAt)}
		v, err := l.Create(ctx, a, LocationInput{Name: place.Name, Address: place.Address})
		if err == nil {
			place.Created, place.FPID = true, v.FPID
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

// reason is a refused line's problem in one sentence.
func reason(p *problem.Problem) string {
	for _, field := range []string{"name", "address"} {
		if msgs := p.Fields[field]; len(msgs) > 0 {
			return msgs[0]
		}
	}
	if p.Title != "" {
		return p.Title + ": " + p.Description
	}
	return p.Message
}
