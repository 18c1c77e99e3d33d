package filters

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"mime"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/query"
)

// Upload is a file of entries sent to a list.
type Upload struct {
	Filename    string // "" when the file is the request body itself
	ContentType string
	Body        []byte
}

// MaxUploadBytes bounds an uploaded file.
const MaxUploadBytes = 2 << 20

// Messages about uploads, reported on the field "file".
const (
	MsgNotCSV          = "The file must be a CSV file (.csv)."
	MsgNotUTF8         = "The file is not well formed: it must be UTF-8 text."
	MsgNothingNewInCSV = "The file has no new keywords to add."
)

// csvMediaTypes are the types browsers and tools give CSV files; Excel on Windows registers
// .csv as application/vnd.ms-excel.
var csvMediaTypes = []string{"text/csv", "application/csv", "text/x-csv", "application/vnd.ms-excel"}

// headerWords are the cells of a header row, which is skipped rather than added as keywords.
var headerWords = []string{"keyword", "keywords", "author", "authors", "object", "objects", "value", "values"}

// ParseCSV checks an upload is a well-formed CSV file and returns its non-empty cells, row by
// row, without a header row. A named file must end in .csv; an unnamed one must declare a CSV
// media type.
func ParseCSV(u Upload) ([]string, error) {
	records, err := csvRecords(u)
	if err != nil {
		return nil, err
	}
	var cells []string
	for i, record := range records {
		if i == 0 && isHeader(record.cells) {
			continue
		}
		for _, cell := range record.cells {
			if strings.TrimSpace(cell) != "" {
				cells = append(cells, cell)
			}
		}
	}
	return cells, nil
}

// csvRecord is one row of an uploaded file with its line number.
type csvRecord struct {
	line  int
	cells []string
}

// csvRecords checks an upload is a well-formed CSV file in UTF-8 and returns its rows.
func csvRecords(u Upload) ([]csvRecord, error) {
	if !isCSV(u) {
		return nil, problem.InvalidField("file", MsgNotCSV)
	}
	body := bytes.TrimPrefix(u.Body, []byte("\uFEFF")) // the byte-order mark Excel writes
	if !utf8.Valid(body) || bytes.IndexByte(body, 0) >= 0 {
		return nil, problem.InvalidField("file", MsgNotUTF8)
	}
	r := csv.NewReader(bytes.NewReader(body))
	r.FieldsPerRecord = -1 // a list may be one column, one row, or ragged
	r.TrimLeadingSpace = true
	var records []csvRecord
	for {
		record, err := r.Read()
		if errors.Is(err, io.EOF) {
			return records, nil
		}
		var parseErr *csv.ParseError
		if errors.As(err, &parseErr) {
			return nil, problem.InvalidField("file", fmt.Sprintf("The file is not well-formed CSV: line %d: %v.",
				parseErr.Line, parseErr.Err))
		}
		if err != nil {
			return nil, err
		}
		line, _ := r.FieldPos(0)
		records = append(records, csvRecord{line: line, cells: record})
	}
}

func isCSV(u Upload) bool {
	if u.Filename != "" {
		return strings.EqualFold(path.Ext(u.Filename), ".csv")
	}
	mediaType, _, err := mime.ParseMediaType(u.ContentType)
	return err == nil && slices.Contains(csvMediaTypes, mediaType)
}

func isHeader(record []string) bool {
	named := false
	for _, cell := range record {
		switch key := query.Fold(cell); {
		case key == "":
		case slices.Contains(headerWords, key):
			named = true
		default:
			return false
		}
	}
	return named
}

// ImportCSV adds the entries of a CSV file to a list. The file must hold at least one valid new
// entry; duplicates and too short or too long values are dropped and reported in Stripped.
func (s *Service) ImportCSV(ctx context.Context, a authz.Actor, id int64, u Upload) (View, Stripped, error) {
	l, level, err := s.load(ctx, a, id)
	if err != nil {
		return View{}, Stripped{}, err
	}
	if level < authz.LevelEdit {
		return View{}, Stripped{}, problem.Forbidden(authz.MsgFilterSharing)
	}
	values, err := ParseCSV(u)
	if err != nil {
		return View{}, Stripped{}, err
	}
	return s.addEntries(ctx, a, id, l.Type, values, "file", MsgNothingNewInCSV)
}
