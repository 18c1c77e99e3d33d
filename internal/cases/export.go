package cases

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"regexp"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/evidence"
)

// ManifestFormat names the manifest's layout, which `sightline evidence verify` reads.
const ManifestFormat = "sightline-evidence/1"

// ManifestFile is one file of an export: its path in the ZIP, SHA-256 and size in bytes, as
// evidence bundles list theirs, so that one verify reads both.
type ManifestFile = evidence.ManifestFile

// Manifest is the export's manifest.json: every other file of the ZIP with its hash.
type Manifest struct {
	Format    string         `json:"format"`
	CreatedAt string         `json:"createdAt"`
	CreatedBy string         `json:"createdBy"`
	Files     []ManifestFile `json:"files"`
}

// Evidence writes an evidence record's files into an export (internal/evidence). AddToZip
// writes them under dir ("evidence/<id>/") and returns each with its hash; Check says whether
// the actor may see the record, a not-found problem otherwise, before it is added to a case.
type Evidence interface {
	AddToZip(ctx context.Context, actor authz.Actor, id string, zw *zip.Writer, dir string) ([]ManifestFile, error)
	Check(ctx context.Context, actor authz.Actor, id string) error
}

// Bundle is a case ready to be written as a ZIP for the actor who asked.
type Bundle struct {
	s     *Service
	actor authz.Actor
	page  Page
	at    time.Time
}

// Export loads a case the actor can see for export.
func (s *Service) Export(ctx context.Context, actor authz.Actor, id int64) (*Bundle, error) {
	p, err := s.Page(ctx, actor, id)
	if err != nil {
		return nil, err
	}
	return &Bundle{s: s, actor: actor, page: p, at: s.now().UTC()}, nil
}

// Filename is the ZIP's name for a download.
func (b *Bundle) Filename() string {
	return fmt.Sprintf("case-%d-%s.zip", b.page.ID, b.at.Format("20060102-150405"))
}

// Write streams the ZIP: report.html (and report.pdf when a renderer is configured), each
// item's post as items/<n>/post.json, each evidence item's files under evidence/<id>/, and
// manifest.json listing all of them with their SHA-256.
func (b *Bundle) Write(ctx context.Context, w io.Writer) error {
	zw := zip.NewWriter(w)
	var files []ManifestFile
	add := func(name string, data []byte) error {
		f, err := writeFile(zw, name, data)
		files = append(files, f)
		return err
	}
	report := reportData{Page: b.page, ExportedAt: b.at, ExportedBy: b.createdBy()}
	for i, it := range b.page.Items {
		n := i + 1
		ri := reportItem{N: n, Item: it}
		if it.Post != nil {
			doc, err := json.MarshalIndent(it.Post, "", "  ")
			if err != nil {
				return err
			}
			ri.PostFile = fmt.Sprintf("items/%d/post.json", n)
			if err := add(ri.PostFile, doc); err != nil {
				return err
			}
		}
		if it.Kind == KindEvidence {
			if b.s.Evidence == nil {
				ri.EvidenceNote = MsgNoEvidence + " Its files are not in this export."
			} else {
				dir := "evidence/" + safeName(it.Ref) + "/"
				got, err := b.s.Evidence.AddToZip(ctx, b.actor, it.Ref, zw, dir)
				if err != nil {
					// One record that cannot be read does not sink the export; the report says so.
					ri.EvidenceNote = "Its files could not be added: " + err.Error()
				}
				ri.EvidenceFiles = got
				files = append(files, got...)
			}
		}
		report.Items = append(report.Items, ri)
	}
	report.Places = placesOf(b.page.Items)
	if b.s.PDF == nil {
		report.PDFNote = "This server has no Chromium, so the export has no PDF of this report."
	}
	html, err := renderReport(report)
	if err != nil {
		return err
	}
	if err := add("report.html", html); err != nil {
		return err
	}
	if b.s.PDF != nil {
		pdf, err := b.s.PDF.PDF(ctx, html)
		if err != nil {
			b.s.Logger.Warn("cases: the export's PDF", "case", b.page.ID, "err", err)
		} else if err := add("report.pdf", pdf); err != nil {
			return err
		}
	}
	manifest, err := json.MarshalIndent(Manifest{Format: ManifestFormat, CreatedAt: b.at.Format(time.RFC3339),
		CreatedBy: b.createdBy(), Files: nonNil(files)}, "", "  ")
	if err != nil {
		return err
	}
	if _, err := writeFile(zw, "manifest.json", manifest); err != nil {
		return err
	}
	return zw.Close()
}

// createdBy names the actor as colleagues know them, with their e-mail.
func (b *Bundle) createdBy() string {
	m := b.page.Members[b.actor.UserID]
	if m.Name != "" && m.Email != "" {
		return m.Name + " <" + m.Email + ">"
	}
	return m.Email
}

// writeFile adds one file to the ZIP and returns its manifest entry.
func writeFile(zw *zip.Writer, name string, data []byte) (ManifestFile, error) {
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Now().UTC()})
	if err != nil {
		return ManifestFile{}, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), bytes.NewReader(data))
	return ManifestFile{Name: name, SHA256: hexSum(h), Size: n}, err
}

func hexSum(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }

var unsafePath = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// safeName keeps an id usable as one directory of a ZIP, whatever it holds.
func safeName(id string) string {
	s := unsafePath.ReplaceAllString(id, "_")
	if s == "" || s == "." || s == ".." {
		return "_"
	}
	return s
}

// Place is a place the case's items are at or mention, with the items (by number) that do.
type Place struct {
	Name        string  `json:"name"`
	CountryCode string  `json:"countryCode"`
	Lat         float64 `json:"lat"`
	Lon         float64 `json:"lon"`
	Items       []int   `json:"items"`
}

// placesOf gathers the places of the items' posts: where each was posted from and the places
// it mentions, one entry per place.
func placesOf(items []Item) []Place {
	out := []Place{}
	index := map[string]int{}
	add := func(name, cc string, lat, lon float64, n int) {
		key := fmt.Sprintf("%s|%.4f|%.4f", name, lat, lon)
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, Place{Name: name, CountryCode: cc, Lat: lat, Lon: lon})
		}
		if !containsInt(out[i].Items, n) {
			out[i].Items = append(out[i].Items, n)
		}
	}
	for i, it := range items {
		p := it.Post
		if p == nil {
			continue
		}
		if p.Location != nil {
			add(p.PlaceName, "", p.Location.Lat, p.Location.Lon, i+1)
		}
		for _, l := range p.MentionedLocations {
			if l.Point.Lat != 0 || l.Point.Lon != 0 {
				add(l.Name, l.CountryCode, l.Point.Lat, l.Point.Lon, i+1)
			}
		}
	}
	return out
}

// Places is the places of a page's items, for the case page's map.
func (p Page) Places() []Place { return placesOf(p.Items) }

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
