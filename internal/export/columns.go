package export

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
)

// Columns are the post fields an export can hold, in the order the export dialog offers them.
var Columns = []string{"id", "provider", "authorName", "authorScreenName", "authorUrl", "titleText",
	"contentText", "createdAt", "language", "location", "placeName", "postLink", "tags", "mentionedLocations",
	"translatedText", "matchedTerms", "searchName", "photo", "video"}

// matchColumns exist only for inbox matches.
var matchColumns = []string{"matchedTerms", "searchName"}

// Row is one post to write, with what its match adds.
type Row struct {
	Post         post.Post
	MatchedTerms []query.Hit
	SearchName   string
	// TranslatedText is the stored translation of the post's title and text ("" when none).
	TranslatedText string
}

// value is the column of r as JSON writes it; text is the same as one CSV cell.
func value(column string, r Row) any {
	p := r.Post
	switch column {
	case "id":
		return p.ID
	case "provider":
		return p.Provider
	case "authorName":
		return p.AuthorName
	case "authorScreenName":
		return p.AuthorScreenName
	case "authorUrl":
		return p.AuthorURL
	case "titleText":
		return p.TitleText
	case "contentText":
		return p.ContentText
	case "createdAt":
		return p.PublishedAt.UTC().Format(time.RFC3339)
	case "language":
		return p.Language
	case "location":
		return p.Location
	case "placeName":
		return p.PlaceName
	case "postLink":
		return p.PostLink
	case "tags":
		return nonNil(p.Tags)
	case "mentionedLocations":
		return nonNil(p.MentionedLocations)
	case "translatedText":
		return r.TranslatedText
	case "matchedTerms":
		return nonNil(r.MatchedTerms)
	case "searchName":
		return r.SearchName
	case "photo":
		return mediaURLs(p.Photos)
	case "video":
		return mediaURLs(p.Videos)
	}
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func mediaURLs(media []post.Media) []string {
	out := make([]string, 0, len(media))
	for _, m := range media {
		out = append(out, m.Large)
	}
	return out
}

// text is the column of r as one CSV cell: lists joined with "; ".
func text(column string, r Row) string {
	switch v := value(column, r).(type) {
	case string:
		return v
	case *post.Point:
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(v.Lat, 'f', -1, 64) + "," + strconv.FormatFloat(v.Lon, 'f', -1, 64)
	case []string:
		return strings.Join(v, "; ")
	case []post.MentionedLocation:
		names := make([]string, len(v))
		for i, l := range v {
			names[i] = l.Name
		}
		return strings.Join(names, "; ")
	case []query.Hit:
		var terms []string
		for _, h := range v {
			if !slices.Contains(terms, h.Term) {
				terms = append(terms, h.Term)
			}
		}
		return strings.Join(terms, "; ")
	}
	return ""
}

// defuse keeps a spreadsheet from reading a cell as a formula: posts are anyone's text, and a
// cell starting with = + - @ (or a tab or carriage return) runs as one in Excel and its kin.
// OWASP's advice: prefix such cells with a single quote.
func defuse(cell string) string {
	if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
		return "'" + cell
	}
	return cell
}

// writer writes rows to a file one at a time, buffering a little and holding nothing else.
type writer interface {
	Write(r Row) error
	Close() error
}

func newWriter(format string, columns []string, w io.Writer) (writer, error) {
	if format == FormatJSON {
		j := &jsonWriter{w: bufio.NewWriterSize(w, 64<<10), columns: columns}
		_, err := j.w.WriteString("[")
		return j, err
	}
	c := &csvWriter{w: csv.NewWriter(w), columns: columns, cells: make([]string, len(columns))}
	return c, c.w.Write(columns)
}

type csvWriter struct {
	w       *csv.Writer
	columns []string
	cells   []string
}

func (c *csvWriter) Write(r Row) error {
	for i, col := range c.columns {
		c.cells[i] = defuse(text(col, r))
	}
	return c.w.Write(c.cells)
}

func (c *csvWriter) Close() error {
	c.w.Flush()
	return c.w.Error()
}

// jsonWriter writes one array of objects, an element at a time, keys in the chosen order.
type jsonWriter struct {
	w       *bufio.Writer
	columns []string
	n       int
}

func (j *jsonWriter) Write(r Row) error {
	if j.n > 0 {
		j.w.WriteString(",")
	}
	j.n++
	j.w.WriteString("\n{")
	for i, col := range j.columns {
		if i > 0 {
			j.w.WriteString(",")
		}
		key, _ := json.Marshal(col)
		val, err := json.Marshal(value(col, r))
		if err != nil {
			return err
		}
		j.w.Write(key)
		j.w.WriteString(":")
		j.w.Write(val)
	}
	_, err := j.w.WriteString("}")
	return err
}

func (j *jsonWriter) Close() error {
	j.w.WriteString("\n]\n")
	return j.w.Flush()
}
