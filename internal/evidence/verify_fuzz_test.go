package evidence_test

import (
	"archive/zip"
	"bytes"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/evidence"
)

// FuzzVerify feeds verify damaged bundles: it must report, never panic. The seeds are a sound
// bundle and one whose SHA256SUMS and WARC are nonsense.
func FuzzVerify(f *testing.F) {
	seed := func(files map[string][]byte) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		var listed []evidence.ManifestFile
		for name, content := range files {
			w, _ := zw.Create(name)
			w.Write(content)
			file := evidence.NewFile(name, content)
			listed = append(listed, evidence.ManifestFile{Name: name, SHA256: file.SHA256, Size: file.Size})
		}
		evidence.WriteManifest(zw, "fuzz", time.Unix(0, 0), listed)
		zw.Close()
		return buf.Bytes()
	}
	post := evidence.NewFile("post.json", []byte(`{"id":"p"}`))
	f.Add(seed(map[string][]byte{"post.json": post.Content, "SHA256SUMS": evidence.Sums([]evidence.File{post})}))
	f.Add(seed(map[string][]byte{"page.warc": []byte("WARC/1.1\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"),
		"SHA256SUMS": []byte("zz  page.warc\nnot a line\n"), "timestamps/1.tsr": []byte{0x30, 0x03, 0x02, 0x01, 0x00}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		evidence.Verify(zr, nil)
	})
}
