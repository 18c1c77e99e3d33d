package evidence

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/digitorus/pkcs7"
	"github.com/digitorus/timestamp"
)

// Finding is one thing verify looked at: a file, and what is wrong with it ("" when nothing).
type Finding struct {
	File    string
	Problem string
	// Note is what was checked or found when nothing is wrong (a timestamp's time and authority).
	Note string
}

// Report is what Verify found.
type Report struct {
	Findings []Finding
}

// OK says nothing is wrong.
func (r Report) OK() bool {
	for _, f := range r.Findings {
		if f.Problem != "" {
			return false
		}
	}
	return len(r.Findings) > 0
}

func (r *Report) fail(file, format string, args ...any) {
	r.Findings = append(r.Findings, Finding{File: file, Problem: fmt.Sprintf(format, args...)})
}

func (r *Report) pass(file, format string, args ...any) {
	r.Findings = append(r.Findings, Finding{File: file, Note: fmt.Sprintf(format, args...)})
}

// maxVerifiedFile bounds what verify reads of one file into memory.
const maxVerifiedFile = 1 << 30

// Verify checks an evidence bundle or a case export offline: manifest.json's hashes and that it
// lists every other file, every SHA256SUMS against the files of its directory (and that it
// covers them all), every WARC file's records, and every timestamp: its signature against the
// certificate in the token, its imprint against the SHA256SUMS beside it, and, when roots are
// given, its certificate's chain to one of them.
func Verify(zr *zip.Reader, roots *x509.CertPool) Report {
	var rep Report
	files := map[string]*zip.File{}
	var names []string
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		if _, dup := files[f.Name]; dup {
			rep.fail(f.Name, "the ZIP holds this name twice")
			continue
		}
		files[f.Name] = f
		names = append(names, f.Name)
	}
	slices.Sort(names)
	content := map[string][]byte{}
	unreadable := map[string]bool{} // reported once
	read := func(name string) ([]byte, bool) {
		if b, ok := content[name]; ok {
			return b, true
		}
		if unreadable[name] {
			return nil, false
		}
		unreadable[name] = true
		f := files[name]
		rc, err := f.Open()
		if err != nil {
			rep.fail(name, "cannot be read: %v", err)
			return nil, false
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, maxVerifiedFile))
		if err != nil {
			rep.fail(name, "cannot be read (the ZIP is damaged): %v", err)
			return nil, false
		}
		content[name], unreadable[name] = b, false
		return b, true
	}
	if _, ok := files[ManifestName]; ok {
		verifyManifest(&rep, read, names)
	}
	sums := 0
	for _, name := range names {
		if path.Base(name) != SumsName {
			continue
		}
		sums++
		verifyRecord(&rep, read, names, path.Dir(name), roots)
	}
	if sums == 0 {
		if _, ok := files[ManifestName]; !ok {
			rep.fail("(ZIP)", "neither manifest.json nor SHA256SUMS: not an evidence bundle or case export")
		}
	}
	return rep
}

func verifyManifest(rep *Report, read func(string) ([]byte, bool), names []string) {
	b, ok := read(ManifestName)
	if !ok {
		return
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		rep.fail(ManifestName, "is not valid JSON: %v", err)
		return
	}
	if m.Format != Format {
		rep.fail(ManifestName, "format %q, not %q", m.Format, Format)
	}
	listed := map[string]bool{}
	for _, f := range m.Files {
		listed[f.Name] = true
		if !slices.Contains(names, f.Name) {
			rep.fail(f.Name, "listed in manifest.json but missing from the ZIP")
			continue
		}
		data, ok := read(f.Name)
		if !ok {
			continue
		}
		if got := hexSum(data); got != f.SHA256 || int64(len(data)) != f.Size {
			// manifest.json is not signed: either it or the file changed.
			rep.fail(f.Name, "differs from manifest.json (the file or manifest.json was changed): SHA-256 %s (%d bytes), manifest.json says %s (%d bytes)",
				got, len(data), f.SHA256, f.Size)
			continue
		}
		rep.pass(f.Name, "matches manifest.json")
	}
	for _, n := range names {
		if n != ManifestName && !listed[n] {
			rep.fail(n, "in the ZIP but not listed in manifest.json")
		}
	}
}

// verifyRecord checks one record's directory: SHA256SUMS, the files it lists, the WARC files
// and the timestamps.
func verifyRecord(rep *Report, read func(string) ([]byte, bool), names []string, dir string, roots *x509.CertPool) {
	sumsPath := path.Join(dir, SumsName)
	sums, ok := read(sumsPath)
	if !ok {
		return
	}
	listed := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(sums))
	line := 0
	for sc.Scan() {
		line++
		want, name, found := strings.Cut(sc.Text(), "  ")
		if !found || len(want) != 64 || name == "" {
			rep.fail(sumsPath, "line %d is not \"<sha256>  <name>\"", line)
			continue
		}
		full := path.Join(dir, name)
		listed[full] = true
		if !slices.Contains(names, full) {
			rep.fail(full, "listed in %s but missing", sumsPath)
			continue
		}
		data, ok := read(full)
		if !ok {
			continue
		}
		if got := hexSum(data); got != want {
			rep.fail(full, "changed: SHA-256 %s, %s says %s", got, sumsPath, want)
			if strings.HasSuffix(full, ".warc") {
				// Which record changed: its digest no longer matches, or it no longer parses.
				if _, err := CheckWARC(bytes.NewReader(data)); err != nil {
					rep.fail(full, "WARC: %v", err)
				}
			}
			continue
		}
		rep.pass(full, "matches %s", sumsPath)
		if strings.HasSuffix(full, ".warc") {
			if n, err := CheckWARC(bytes.NewReader(data)); err != nil {
				rep.fail(full, "WARC: %v", err)
			} else {
				rep.pass(full, "WARC: %d records, every block digest right", n)
			}
		}
	}
	prefix := dir + "/"
	if dir == "." {
		prefix = ""
	}
	stamps := 0
	for _, n := range names {
		if !strings.HasPrefix(n, prefix) || n == sumsPath || n == ManifestName {
			continue
		}
		rest := strings.TrimPrefix(n, prefix)
		if strings.HasPrefix(rest, StampsDir+"/") {
			if strings.HasSuffix(rest, ".tsr") {
				stamps++
				verifyStamp(rep, read, n, sums, roots)
			}
			continue
		}
		// A file of a nested record belongs to that record's SHA256SUMS.
		if !listed[n] && !nestedRecord(names, prefix, rest) {
			rep.fail(n, "in the record's directory but not in %s", sumsPath)
		}
	}
	if stamps == 0 {
		rep.pass(sumsPath, "not timestamped: the record has no RFC 3161 timestamp")
	}
}

// nestedRecord says whether rest (a path under prefix) lies in a directory of its own with a
// SHA256SUMS: another record, checked on its own.
func nestedRecord(names []string, prefix, rest string) bool {
	for d := path.Dir(rest); d != "."; d = path.Dir(d) {
		if slices.Contains(names, prefix+d+"/"+SumsName) {
			return true
		}
	}
	return false
}

func verifyStamp(rep *Report, read func(string) ([]byte, bool), name string, sums []byte, roots *x509.CertPool) {
	b, ok := read(name)
	if !ok {
		return
	}
	// ParseResponse checks the signature against the certificate in the token.
	ts, err := timestamp.ParseResponse(b)
	if err != nil {
		rep.fail(name, "not a valid signed RFC 3161 timestamp: %v", err)
		return
	}
	if len(ts.Certificates) == 0 {
		rep.fail(name, "the token holds no certificate to check its signature with")
		return
	}
	want := sha256.Sum256(sums)
	if ts.HashAlgorithm != crypto.SHA256 || !bytes.Equal(ts.HashedMessage, want[:]) {
		rep.fail(name, "timestamps other data than the SHA256SUMS beside it")
		return
	}
	if roots != nil {
		p7, err := pkcs7.Parse(ts.RawToken)
		if err == nil {
			err = p7.VerifyWithChainAtTime(roots, ts.Time)
		}
		if err != nil {
			rep.fail(name, "the signing certificate does not lead to the pinned authority: %v", err)
			return
		}
	}
	signer := ts.Certificates[0].Subject.String()
	rep.pass(name, "timestamp of %s by %s, signature and imprint right", ts.Time.UTC().Format("2006-01-02T15:04:05Z"), signer)
}

func hexSum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
