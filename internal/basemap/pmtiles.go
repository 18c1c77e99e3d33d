package basemap

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// PMTiles v3 (github.com/protomaps/PMTiles, spec/v3/spec.md): a 127-byte header, then a root
// directory that ends within the first 16 KiB, metadata, leaf directories and tiles.
const (
	headerSize     = 127
	rootDirWithin  = 16384
	magic          = "PMTiles"
	pmtilesVersion = 3
)

// TileType is the archive's tile format.
type TileType uint8

const (
	TileMVT  TileType = 1
	TilePNG  TileType = 2
	TileJPEG TileType = 3
	TileWebP TileType = 4
	TileAVIF TileType = 5
)

// Compression of the archive's directories or tiles. The browser's reader (the pmtiles
// package) decompresses only gzip, so an archive packed otherwise cannot be drawn.
type Compression uint8

const (
	CompressionUnknown Compression = 0
	CompressionNone    Compression = 1
	CompressionGzip    Compression = 2
)

// Header is what Sightline reads of an archive's header.
type Header struct {
	RootOffset, RootLength         uint64
	TileDataOffset, TileDataLength uint64
	InternalCompression            Compression
	TileCompression                Compression
	TileType                       TileType
	MinZoom, MaxZoom               uint8
	// The area covered, in degrees.
	MinLon, MinLat, MaxLon, MaxLat float64
}

// Archive is an open PMTiles file, served by range requests. It stays open for the server's
// life: replacing the file takes a restart, so a browser never mixes two files' bytes.
type Archive struct {
	Header  Header
	file    *os.File
	size    int64
	modTime time.Time
	etag    string
}

// OpenArchive opens a PMTiles v3 file and checks that the browser can draw it: the header, a
// root directory that decodes, a tile format it knows and compression it can undo.
func OpenArchive(path string) (*Archive, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	a, err := readArchive(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

func readArchive(f *os.File) (*Archive, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	b := make([]byte, headerSize)
	if _, err := f.ReadAt(b, 0); err != nil {
		return nil, errors.New("not a PMTiles archive (too short for its header)")
	}
	h, err := parseHeader(b, uint64(info.Size()))
	if err != nil {
		return nil, err
	}
	root := make([]byte, h.RootLength)
	if _, err := f.ReadAt(root, int64(h.RootOffset)); err != nil {
		return nil, fmt.Errorf("read the root directory: %w", err)
	}
	entries, err := directoryEntries(root, h.InternalCompression)
	if err != nil {
		return nil, fmt.Errorf("root directory: %w", err)
	}
	if entries == 0 {
		return nil, errors.New("the archive holds no tiles")
	}
	return &Archive{Header: h, file: f, size: info.Size(), modTime: info.ModTime(),
		etag: fmt.Sprintf(`"%x-%x"`, info.Size(), info.ModTime().UnixNano())}, nil
}

// parseHeader reads the fixed header of an archive of the given size.
func parseHeader(b []byte, size uint64) (Header, error) {
	if string(b[:7]) != magic {
		return Header{}, errors.New("not a PMTiles archive (no PMTiles magic)")
	}
	if b[7] != pmtilesVersion {
		return Header{}, fmt.Errorf("PMTiles version %d; Sightline reads version 3 (convert with `pmtiles convert`)", b[7])
	}
	u64 := func(at int) uint64 { return binary.LittleEndian.Uint64(b[at:]) }
	degrees := func(at int) float64 { return float64(int32(binary.LittleEndian.Uint32(b[at:]))) / 1e7 }
	h := Header{
		RootOffset: u64(8), RootLength: u64(16),
		TileDataOffset: u64(56), TileDataLength: u64(64),
		InternalCompression: Compression(b[97]), TileCompression: Compression(b[98]), TileType: TileType(b[99]),
		MinZoom: b[100], MaxZoom: b[101],
		MinLon: degrees(102), MinLat: degrees(106), MaxLon: degrees(110), MaxLat: degrees(114),
	}
	switch {
	case h.RootOffset < headerSize || h.RootLength == 0 || h.RootOffset+h.RootLength > rootDirWithin ||
		h.RootOffset+h.RootLength > size:
		return Header{}, errors.New("the root directory lies outside the first 16 KiB or the file")
	case h.TileDataOffset+h.TileDataLength > size || h.TileDataOffset+h.TileDataLength < h.TileDataOffset:
		return Header{}, fmt.Errorf("the tiles run past the end of the file (%d bytes): is it complete?", size)
	case h.TileType < TileMVT || h.TileType > TileAVIF:
		return Header{}, fmt.Errorf("tile type %d is neither vector (MVT) nor pictures (PNG, JPEG, WebP, AVIF)", h.TileType)
	case !browserReads(h.InternalCompression) || !browserReads(h.TileCompression):
		return Header{}, errors.New("compressed with other than gzip, which the browser cannot undo (rebuild with gzip)")
	case h.MinZoom > h.MaxZoom:
		return Header{}, fmt.Errorf("min zoom %d above max zoom %d", h.MinZoom, h.MaxZoom)
	}
	return h, nil
}

func browserReads(c Compression) bool {
	return c == CompressionUnknown || c == CompressionNone || c == CompressionGzip
}

// directoryEntries decodes a directory and returns its number of entries. Each column is a
// run of varints: tile id deltas, run lengths, lengths, offsets.
func directoryEntries(b []byte, c Compression) (int, error) {
	if c == CompressionGzip {
		z, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return 0, err
		}
		if b, err = io.ReadAll(io.LimitReader(z, 1<<20)); err != nil {
			return 0, err
		}
	}
	r := bytes.NewReader(b)
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return 0, err
	}
	if n > uint64(len(b))/4 { // every entry takes at least four bytes
		return 0, fmt.Errorf("%d entries in %d bytes", n, len(b))
	}
	for range 4 * n {
		if _, err := binary.ReadUvarint(r); err != nil {
			return 0, errors.New("truncated")
		}
	}
	if r.Len() != 0 {
		return 0, fmt.Errorf("%d bytes left over", r.Len())
	}
	return int(n), nil
}

// ServeHTTP answers GET and HEAD with the whole file or, as the browser asks, byte ranges
// (Range, If-Range against the ETag, 206 Partial Content).
func (a *Archive) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/vnd.pmtiles")
	h.Set("ETag", a.etag)
	// The browser checks with the ETag before reusing a range: cheap, and never stale.
	h.Set("Cache-Control", "private, no-cache")
	http.ServeContent(w, r, "", a.modTime, io.NewSectionReader(a.file, 0, a.size))
}

// Close closes the file.
func (a *Archive) Close() error { return a.file.Close() }
