package main

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/evidence"
)

// writeBundle writes a bundle of one file (without timestamps) whose content is post.
func writeBundle(t *testing.T, post string) string {
	t.Helper()
	file := evidence.NewFile("post.json", []byte(post))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	var listed []evidence.ManifestFile
	for _, f := range []evidence.File{file, evidence.NewFile(evidence.SumsName, evidence.Sums([]evidence.File{file}))} {
		w, _ := zw.Create(f.Name)
		w.Write(f.Content)
		listed = append(listed, evidence.ManifestFile{Name: f.Name, SHA256: f.SHA256, Size: f.Size})
	}
	if err := evidence.WriteManifest(zw, "test", time.Now(), listed); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), "bundle.zip")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestEvidenceVerifyCommand(t *testing.T) {
	path := writeBundle(t, `{"id":"p-1"}`)
	var out bytes.Buffer
	if err := runEvidenceVerify([]string{path}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "not timestamped") || !strings.Contains(out.String(), "verifies") {
		t.Errorf("output:\n%s", out.String())
	}
	// One changed byte, rewritten into a sound ZIP.
	b, _ := os.ReadFile(path)
	zr, _ := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	var changed bytes.Buffer
	zw := zip.NewWriter(&changed)
	for _, f := range zr.File {
		rc, _ := f.Open()
		var data bytes.Buffer
		data.ReadFrom(rc)
		rc.Close()
		content := data.Bytes()
		if f.Name == "post.json" {
			content = bytes.Replace(content, []byte("p-1"), []byte("p-2"), 1)
		}
		w, _ := zw.Create(f.Name)
		w.Write(content)
	}
	zw.Close()
	os.WriteFile(path, changed.Bytes(), 0o600)
	out.Reset()
	if err := runEvidenceVerify([]string{path}, &out); !errors.Is(err, errVerifyFailed) {
		t.Fatalf("a changed byte: %v", err)
	}
	if !strings.Contains(out.String(), "FAIL  post.json") {
		t.Errorf("output does not name the file:\n%s", out.String())
	}
}
