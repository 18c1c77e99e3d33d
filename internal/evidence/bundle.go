package evidence

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
)

// The bundle format (docs/evidence.md, "Bundles"): a record's files, SHA256SUMS over them and
// timestamps/<n>.tsr, each an RFC 3161 TimeStampResp whose imprint is the SHA-256 of the
// SHA256SUMS bytes; a bundle ZIP adds manifest.json listing every other file of the ZIP. Case
// exports hold the same under evidence/<id>/ with one manifest.json for the whole ZIP.
const (
	Format       = "sightline-evidence/1"
	SumsName     = "SHA256SUMS"
	StampsDir    = "timestamps"
	ManifestName = "manifest.json"
	// TombstoneName is what a deleted record's directory holds instead: its hashes.
	TombstoneName = "tombstone.json"
)

// ManifestFile is one file of a ZIP as manifest.json lists it.
type ManifestFile struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// Manifest is a ZIP's manifest.json.
type Manifest struct {
	Format    string         `json:"format"`
	CreatedAt string         `json:"createdAt"`
	CreatedBy string         `json:"createdBy"`
	Files     []ManifestFile `json:"files"`
}

// NewFile is a file with its hash and size.
func NewFile(name string, content []byte) File {
	sum := sha256.Sum256(content)
	return File{Name: name, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(content)), Content: content}
}

// Sums is the SHA256SUMS of files: "<hex>  <name>\n" lines sorted by name (the format of
// sha256sum, so `sha256sum -c SHA256SUMS` checks an unpacked bundle too).
func Sums(files []File) []byte {
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	var b strings.Builder
	for _, f := range sorted {
		fmt.Fprintf(&b, "%s  %s\n", f.SHA256, f.Name)
	}
	return []byte(b.String())
}

// StampName is the n-th timestamp's path in a record's directory.
func StampName(n int) string { return fmt.Sprintf("%s/%d.tsr", StampsDir, n) }

// AddToZip writes the record's files, SHA256SUMS and timestamps under dir ("" for the ZIP's
// root, "evidence/12" in a case export) and returns what it wrote, for the manifest. A deleted
// record writes its tombstone (the hashes) instead; a record still being captured is refused.
func (s *Service) AddToZip(ctx context.Context, actor authz.Actor, id string, zw *zip.Writer, dir string) ([]ManifestFile, error) {
	r, err := s.visible(ctx, actor, id)
	if err != nil {
		return nil, err
	}
	if !r.Finished() {
		return nil, problem.Conflict(MsgNotFinished)
	}
	var out []ManifestFile
	put := func(name string, content []byte, modified time.Time) error {
		name = path.Join(dir, name)
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: modified})
		if err != nil {
			return err
		}
		if _, err := w.Write(content); err != nil {
			return err
		}
		f := NewFile(name, content)
		out = append(out, ManifestFile{Name: name, SHA256: f.SHA256, Size: f.Size})
		return nil
	}
	if r.State == StateDeleted {
		b, err := json.MarshalIndent(tombstone(r), "", "  ")
		if err != nil {
			return nil, err
		}
		return out, put(TombstoneName, append(b, '\n'), r.DeletedAt)
	}
	for _, f := range r.Files {
		file, found, err := s.Store.EvidenceFile(ctx, r.ID, f.Name)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("evidence %d: file %s is missing", r.ID, f.Name)
		}
		if err := put(f.Name, file.Content, r.CapturedAt); err != nil {
			return nil, err
		}
	}
	if err := put(SumsName, Sums(r.Files), r.CapturedAt); err != nil {
		return nil, err
	}
	for _, t := range r.Timestamps {
		if err := put(StampName(t.N), t.Response, t.Time); err != nil {
			return nil, err
		}
	}
	return out, ctx.Err()
}

type tombstoneDoc struct {
	ID         int64          `json:"id"`
	Kind       string         `json:"kind"`
	Target     string         `json:"target"`
	CapturedBy string         `json:"capturedBy"`
	CapturedAt time.Time      `json:"capturedAt"`
	DeletedAt  time.Time      `json:"deletedAt"`
	Files      []ManifestFile `json:"files"`
	Timestamps []StampPayload `json:"timestamps"`
}

func tombstone(r Record) tombstoneDoc {
	t := tombstoneDoc{ID: r.ID, Kind: r.Kind, Target: r.Target, CapturedBy: r.CapturedBy, CapturedAt: r.CapturedAt,
		DeletedAt: r.DeletedAt, Files: []ManifestFile{}, Timestamps: []StampPayload{}}
	for _, f := range r.Files {
		t.Files = append(t.Files, ManifestFile{Name: f.Name, SHA256: f.SHA256, Size: f.Size})
	}
	for _, s := range r.Timestamps {
		t.Timestamps = append(t.Timestamps, StampPayload{TSA: s.TSA, Time: s.Time})
	}
	return t
}

// WriteManifest adds manifest.json listing files to the ZIP.
func WriteManifest(zw *zip.Writer, createdBy string, createdAt time.Time, files []ManifestFile) error {
	m := Manifest{Format: Format, CreatedAt: createdAt.UTC().Format(time.RFC3339), CreatedBy: createdBy, Files: files}
	if m.Files == nil {
		m.Files = []ManifestFile{}
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	w, err := zw.CreateHeader(&zip.FileHeader{Name: ManifestName, Method: zip.Deflate, Modified: createdAt})
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteBundle writes one record's bundle ZIP to w.
func (s *Service) WriteBundle(ctx context.Context, actor authz.Actor, id string, w io.Writer) error {
	zw := zip.NewWriter(w)
	files, err := s.AddToZip(ctx, actor, id, zw, "")
	if err != nil {
		return err
	}
	by := ""
	if u, err := s.Users.User(ctx, actor.UserID); err == nil {
		by = userLabel(u)
	}
	if err := WriteManifest(zw, by, s.Now(), files); err != nil {
		return err
	}
	return zw.Close()
}

// BundleName is the name a record's bundle downloads as.
func BundleName(id string) string { return "sightline-evidence-" + id + ".zip" }
