package cases

import (
	"bytes"
	_ "embed"
	"html/template"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/account"
)

//go:embed report.html
var reportHTML string

// reportData is what the report shows: the case, its items with their posts, notes and
// evidence, its places, timeline and comments, and who exported it when.
type reportData struct {
	Page
	Items      []reportItem
	Places     []Place
	ExportedAt time.Time
	ExportedBy string
	PDFNote    string
}

type reportItem struct {
	N             int
	Item          Item
	PostFile      string
	EvidenceFiles []ManifestFile
	EvidenceNote  string
}

var reportTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"when": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2 Jan 2006 15:04 UTC")
	},
	"status": func(s string) string { return strings.ReplaceAll(s, "_", " ") },
	"member": func(members map[int64]account.Member, id int64) string {
		if m, ok := members[id]; ok {
			return DisplayName(m)
		}
		return "a former member"
	},
	"kind": func(k string) string { return strings.TrimPrefix(kindWords[k], "the ") },
}).Parse(reportHTML))

func renderReport(d reportData) ([]byte, error) {
	var b bytes.Buffer
	err := reportTemplate.Execute(&b, d)
	return b.Bytes(), err
}
