package evidence

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestParseHLS(t *testing.T) {
	base, _ := url.Parse("https://cdn.example/v/master.m3u8?token=1")
	for _, tc := range []struct {
		name, body           string
		follow, others, segs []string
	}{
		{"master with an audio group: the best variant and its renditions",
			"#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"en\",URI=\"audio/en.m3u8\"\n" +
				"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",URI=\"subs/en.m3u8\"\n" +
				"#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",AUDIO=\"aac\"\nlow/index.m3u8\n" +
				"#EXT-X-STREAM-INF:BANDWIDTH=2400000,AUDIO=\"aac\"\nhttps://other.example/high.m3u8\n" +
				"#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,URI=\"iframes.m3u8\"\n",
			[]string{"https://other.example/high.m3u8", "https://cdn.example/v/audio/en.m3u8"},
			[]string{"https://cdn.example/v/low/index.m3u8"}, nil},
		{"media playlist with a map, a key and a byte-range segment",
			"#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXT-X-KEY:METHOD=AES-128,URI=\"/keys/1\",IV=0x1\n" +
				"#EXTINF:4,\n0.m4s\n#EXTINF:4,\n#EXT-X-BYTERANGE:100@0\n1.m4s#frag\n#EXT-X-KEY:METHOD=NONE\n#EXTINF:4,\n\n2.m4s\n" +
				"#EXTINF:4,\ndata:text/plain,x\n#EXT-X-ENDLIST\n",
			nil, nil,
			[]string{"https://cdn.example/v/init.mp4", "https://cdn.example/keys/1", "https://cdn.example/v/0.m4s",
				"https://cdn.example/v/1.m4s", "https://cdn.example/v/2.m4s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := parseHLS(base, []byte(tc.body))
			if !slices.Equal(got.Follow, tc.follow) || !slices.Equal(got.Others, tc.others) || !slices.Equal(got.Segments, tc.segs) {
				t.Errorf("got follow %v others %v segments %v", got.Follow, got.Others, got.Segments)
			}
		})
	}
}

func TestDashURLs(t *testing.T) {
	base, _ := url.Parse("https://cdn.example/d/manifest.mpd")
	for _, tc := range []struct {
		name, body string
		limit      int
		want       []string
	}{
		{"template with a fixed duration over the presentation, nested BaseURLs",
			`<MPD mediaPresentationDuration="PT0H0M5.5S"><BaseURL>media/</BaseURL><Period>
			<AdaptationSet><BaseURL>video/</BaseURL>
			<SegmentTemplate timescale="10" duration="20" startNumber="5" initialization="$RepresentationID$-init.mp4" media="$RepresentationID$-$Number%04d$-$Bandwidth$.m4s"/>
			<Representation id="a" bandwidth="100"/><Representation id="b" bandwidth="300"/><Representation id="c" bandwidth="200"/>
			</AdaptationSet>
			<AdaptationSet><Representation id="en" bandwidth="64"><BaseURL>audio/en.mp4</BaseURL><SegmentBase indexRange="0-99"/></Representation></AdaptationSet>
			</Period></MPD>`, 400,
			[]string{"https://cdn.example/d/media/video/b-init.mp4", "https://cdn.example/d/media/video/b-0005-300.m4s",
				"https://cdn.example/d/media/video/b-0006-300.m4s", "https://cdn.example/d/media/video/b-0007-300.m4s",
				"https://cdn.example/d/media/audio/en.mp4"}},
		{"timeline with $Time$ and repeats, within a limit",
			`<MPD><Period duration="PT8S"><AdaptationSet><Representation id="v" bandwidth="1">
			<SegmentTemplate media="t/$Time$.m4s"><SegmentTimeline><S t="100" d="10" r="2"/><S d="5"/></SegmentTimeline></SegmentTemplate>
			</Representation></AdaptationSet></Period></MPD>`, 3,
			[]string{"https://cdn.example/d/t/100.m4s", "https://cdn.example/d/t/110.m4s", "https://cdn.example/d/t/120.m4s"}},
		{"segment list",
			`<MPD><Period><AdaptationSet><Representation id="v" bandwidth="1"><SegmentList>
			<Initialization sourceURL="init.mp4"/><SegmentURL media="s1.m4s"/><SegmentURL media="https://x.example/s2.m4s"/>
			</SegmentList></Representation></AdaptationSet></Period></MPD>`, 400,
			[]string{"https://cdn.example/d/init.mp4", "https://cdn.example/d/s1.m4s", "https://x.example/s2.m4s"}},
		{"a representation without any address", `<MPD><Period><AdaptationSet><Representation id="v"/></AdaptationSet></Period></MPD>`, 400, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := dashURLs(base, []byte(tc.body), tc.limit)
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("got %v (%v)\nwant %v", got, err, tc.want)
			}
		})
	}
	if _, err := dashURLs(base, []byte("<MPD><Period>"), 10); err == nil {
		t.Error("a broken manifest was read")
	}
}

func TestIsoSeconds(t *testing.T) {
	for in, want := range map[string]float64{"PT1M30.5S": 90.5, "P1DT1H": 90000, "PT6S": 6, "": 0, "6": 0, "PT": 0} {
		if got := isoSeconds(in); got != want {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
	if got := expandTemplate("$$x$Number%03d$-$Time$-$RepresentationID$", mpdRep{ID: "v1"}, 7, 42); got != "$x007-42-v1" {
		t.Errorf("expandTemplate: %q", got)
	}
}

func TestUsableChromium(t *testing.T) {
	dir := t.TempDir()
	plain, program := filepath.Join(dir, "plain"), filepath.Join(dir, "chromium")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(program, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{"": false, "off": false, dir: false, plain: false,
		filepath.Join(dir, "missing"): false, program: true} {
		if got := UsableChromium(path); got != want {
			t.Errorf("%q: %v, want %v", path, got, want)
		}
	}
}
