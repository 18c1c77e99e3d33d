package evidence_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/evidence"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// TestStreamsAreFollowed captures a post whose video is an HLS master playlist, the same video's
// DASH manifest as a page, and the HLS video with limits that cut it: the playlists and
// segments are files of the record, each hashed, and records of the WARC; a cut says so.
func TestStreamsAreFollowed(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		f := newFixture(t, s, true)
		p := f.post(t, "p-1", f.site+"/post/1")
		p.ID, p.NativeID, p.Photos = "p-video", "p-video", nil
		p.Videos = []post.Media{{Large: f.site + "/video/master.m3u8"}}
		if _, err := s.InsertPosts(ctx, []post.Post{p}); err != nil {
			t.Fatal(err)
		}
		hls := "capture.json,media/01.m3u8,media/01/playlist-01.m3u8,media/01/playlist-02.m3u8," +
			"media/01/segment-001.ts,media/01/segment-002.ts,media/01/segment-003.ts,page.warc,post.json"
		for _, tc := range []struct {
			name  string
			in    evidence.Input
			limit int
			state string
			want  string
			// content is a file's expected bytes; cut the error a limit adds.
			content map[string]string
			cut     string
		}{
			{name: "HLS of a post", in: evidence.Input{PostID: "p-video"}, state: evidence.StateDone, want: hls,
				content: map[string]string{"media/01/segment-002.ts": "segment seg1.ts of the 720p video"}},
			{name: "DASH page", in: evidence.Input{URL: f.site + "/video/manifest.mpd"}, state: evidence.StateDone,
				want: "capture.json,page.warc,page/01.mpd,page/01/segment-001.mp4,page/01/segment-002.m4s," +
					"page/01/segment-003.m4s,page/01/segment-004.m4s",
				content: map[string]string{"page/01/segment-001.mp4": "high segment init.mp4", "page/01/segment-004.m4s": "high segment 003.m4s"}},
			{name: "HLS past the limit", in: evidence.Input{PostID: "p-video"}, limit: 3, state: evidence.StatePartial,
				want: "capture.json,media/01.m3u8,media/01/playlist-01.m3u8,media/01/segment-001.ts,media/01/segment-002.ts,page.warc,post.json",
				cut:  "media/01 stream: 2 files not fetched"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if tc.limit > 0 {
					evidence.SetLimits(f.svc, evidence.MaxBrowserRecords, evidence.MaxBrowserBytes, tc.limit, evidence.MaxStreamBytes)
					defer evidence.SetLimits(f.svc, evidence.MaxBrowserRecords, evidence.MaxBrowserBytes, evidence.MaxStreamFiles, evidence.MaxStreamBytes)
				}
				r := f.capture(t, f.owner, tc.in)
				if r.State != tc.state || names(r) != tc.want {
					t.Fatalf("state %s, errors %v\n got %s\nwant %s", r.State, r.Errors, names(r), tc.want)
				}
				if tc.cut != "" && (len(r.Errors) != 1 || !strings.HasPrefix(r.Errors[0], tc.cut)) {
					t.Errorf("errors %v, want %q", r.Errors, tc.cut)
				}
				for name, want := range tc.content {
					if got := string(f.file(t, r, name)); got != want {
						t.Errorf("%s holds %q, want %q", name, got, want)
					}
				}
				// Every file of the stream is a response of the WARC too.
				warc := f.file(t, r, "page.warc")
				for _, file := range r.Files {
					if strings.Contains(file.Name, "/") && !bytes.Contains(warc, f.file(t, r, file.Name)) {
						t.Errorf("%s is not in the WARC", file.Name)
					}
				}
				b := bundle(t, f, f.owner, r)
				if rep := verify(t, b, nil); !rep.OK() {
					t.Fatalf("verify: %s", failures(rep))
				}
				if tc.name != "HLS of a post" {
					return
				}
				// A changed byte of a segment's WARC record is named, with the segment's address.
				rep := verify(t, changeWARCRecord(t, b, "segment seg2.ts of the 720p"), nil)
				if !strings.Contains(failures(rep), "page.warc: WARC: record") || !strings.Contains(failures(rep), "/video/720/seg2.ts") {
					t.Errorf("a changed segment record:\n%s", failures(rep))
				}
				var doc struct{ Media []string }
				if err := json.Unmarshal(f.file(t, r, "capture.json"), &doc); err != nil || len(doc.Media) != 1 {
					t.Errorf("capture.json: %v %v", doc, err)
				}
			})
		}
	})
}
