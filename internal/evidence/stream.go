package evidence

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"math"
	"mime"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/sightline/sightline/internal/outbound"
)

// Limits of the streams (HLS and DASH) one record follows: their playlists and segments
// together. Past them the rest is not fetched and the capture's errors say how much was left.
const (
	MaxStreamFiles = 400
	MaxStreamBytes = 64 << 20
	// maxPlaylists bounds the playlists fetched for one stream (variants and renditions).
	maxPlaylists = 20
)

// Stream formats.
const (
	streamHLS  = "hls"
	streamDASH = "dash"
)

// streamKind says whether a reply is an HLS playlist or a DASH manifest, by its type, its
// address or its first line, or "".
func streamKind(ex exchange) string {
	if ex.response == nil || ex.response.StatusCode >= 300 {
		return ""
	}
	t, _, _ := mime.ParseMediaType(ex.response.Header.Get("Content-Type"))
	switch strings.ToLower(t) {
	case "application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl", "audio/x-mpegurl":
		return streamHLS
	case "application/dash+xml":
		return streamDASH
	}
	switch strings.ToLower(path.Ext(ex.request.URL.Path)) {
	case ".m3u8":
		return streamHLS
	case ".mpd":
		return streamDASH
	}
	if bytes.HasPrefix(bytes.TrimLeft(ex.body, "\ufeff \t\r\n"), []byte("#EXTM3U")) {
		return streamHLS
	}
	return ""
}

// streamBudget is what is left of the record's stream limits.
type streamBudget struct {
	files int
	bytes int64
}

// stream follows one playlist: it fetches the playlists and segments it names into the
// archive and returns them as files under dir ("media/01/playlist-01.m3u8",
// "media/01/segment-001.ts"), each hashed like any file of the record, with what failed.
type stream struct {
	s         *Service
	ctx       context.Context
	archive   *warcWriter
	dir       string
	budget    *streamBudget
	files     []File
	errs      []string
	playlists int
	segments  int
	leftOut   int
}

// followStream fetches what the playlist or manifest ex names. label names it in errors
// ("media 01").
func (s *Service) followStream(ctx context.Context, archive *warcWriter, ex exchange, dir, label string, budget *streamBudget) ([]File, []string) {
	st := &stream{s: s, ctx: ctx, archive: archive, dir: dir, budget: budget}
	switch streamKind(ex) {
	case streamHLS:
		st.hls(ex, 0)
	case streamDASH:
		st.dash(ex)
	default:
		return nil, nil
	}
	errs := make([]string, 0, len(st.errs)+1)
	for _, e := range st.errs {
		errs = append(errs, label+" stream: "+e)
	}
	if st.leftOut > 0 {
		errs = append(errs, fmt.Sprintf("%s stream: %d files not fetched: past %d files or %d KiB of streams in a record",
			label, st.leftOut, s.limits.streamFiles, s.limits.streamBytes>>10))
	}
	return st.files, errs
}

// get fetches one file of the stream within the budget; ok is false when it was not kept.
func (st *stream) get(u, name string) (exchange, bool) {
	if st.budget.files <= 0 || st.budget.bytes <= 0 {
		st.leftOut++
		return exchange{}, false
	}
	ex, err := st.s.fetch(st.ctx, u)
	if ex.response != nil && int64(len(ex.body)) > st.budget.bytes {
		st.budget.bytes = 0
		st.leftOut++
		return exchange{}, false
	}
	if ex.response != nil {
		st.archive.add(ex)
		st.budget.files--
		st.budget.bytes -= int64(len(ex.body))
	}
	if err != nil {
		st.errs = append(st.errs, outbound.RedactURL(u)+": "+err.Error())
		return ex, false
	}
	st.files = append(st.files, NewFile(path.Join(st.dir, name+extension(ex)), ex.body))
	return ex, true
}

func (st *stream) playlist(u string) (exchange, bool) {
	if st.playlists == maxPlaylists {
		st.leftOut++
		return exchange{}, false
	}
	st.playlists++
	return st.get(u, fmt.Sprintf("playlist-%02d", st.playlists))
}

func (st *stream) segment(u string) bool {
	st.segments++
	_, ok := st.get(u, fmt.Sprintf("segment-%03d", st.segments))
	return ok
}

// resolve is ref against base, or "" when it is not an http or https address.
func resolve(base *url.URL, ref string) string {
	u, err := base.Parse(strings.TrimSpace(ref))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	u.Fragment = ""
	return u.String()
}

var hlsAttr = regexp.MustCompile(`([A-Z0-9-]+)=("[^"]*"|[^,]*)`)

func hlsAttrs(line string) map[string]string {
	_, list, _ := strings.Cut(line, ":")
	out := map[string]string{}
	for _, m := range hlsAttr.FindAllStringSubmatch(list, -1) {
		out[m[1]] = strings.Trim(m[2], `"`)
	}
	return out
}

// hlsPlaylist is what an HLS playlist (RFC 8216) names, as absolute addresses.
type hlsPlaylist struct {
	// Follow are the playlists whose segments are fetched: of a master playlist, the variant of
	// the highest BANDWIDTH and its AUDIO group's renditions; Others the other variants.
	Follow, Others []string
	// Segments of a media playlist, in order, with its EXT-X-MAP and EXT-X-KEY addresses.
	Segments []string
}

func parseHLS(base *url.URL, body []byte) hlsPlaylist {
	type variant struct {
		uri       string
		bandwidth int
		audio     string
	}
	var variants []variant
	renditions := map[string][]string{} // audio group → URIs
	var out hlsPlaylist
	seen := map[string]bool{}
	next := variant{bandwidth: -1}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
		case strings.HasPrefix(line, "#EXT-X-STREAM-INF:"):
			a := hlsAttrs(line)
			bw, _ := strconv.Atoi(a["BANDWIDTH"])
			next = variant{bandwidth: bw, audio: a["AUDIO"]}
		case strings.HasPrefix(line, "#EXT-X-MEDIA:"):
			if a := hlsAttrs(line); a["URI"] != "" && a["TYPE"] == "AUDIO" {
				if u := resolve(base, a["URI"]); u != "" {
					renditions[a["GROUP-ID"]] = append(renditions[a["GROUP-ID"]], u)
				}
			}
		case strings.HasPrefix(line, "#EXT-X-MAP:"), strings.HasPrefix(line, "#EXT-X-KEY:"):
			if a := hlsAttrs(line); a["URI"] != "" && a["METHOD"] != "NONE" {
				if u := resolve(base, a["URI"]); u != "" && !seen[u] {
					seen[u] = true
					out.Segments = append(out.Segments, u)
				}
			}
		case strings.HasPrefix(line, "#"):
		default:
			u := resolve(base, line)
			if u == "" {
				continue
			}
			if next.bandwidth >= 0 {
				next.uri = u
				variants = append(variants, next)
				next = variant{bandwidth: -1}
				continue
			}
			out.Segments = append(out.Segments, u)
		}
	}
	if len(variants) == 0 {
		return out
	}
	best := 0
	for i, v := range variants {
		if v.bandwidth > variants[best].bandwidth {
			best = i
		}
	}
	out.Follow = append([]string{variants[best].uri}, renditions[variants[best].audio]...)
	for i, v := range variants {
		if i != best {
			out.Others = append(out.Others, v.uri)
		}
	}
	return out
}

// hls follows an HLS playlist: its segments, then the playlists it names to follow with their
// segments (one level: a variant's playlist is a media playlist), then the other variants'
// playlists without their segments.
func (st *stream) hls(ex exchange, depth int) {
	pl := parseHLS(ex.request.URL, ex.body)
	for _, u := range pl.Segments {
		st.segment(u)
	}
	if depth > 0 {
		return
	}
	for _, u := range pl.Follow {
		if got, ok := st.playlist(u); ok {
			st.hls(got, depth+1)
		}
	}
	for _, u := range pl.Others {
		st.playlist(u)
	}
}

// mpd is the part of a DASH manifest (ISO/IEC 23009-1) that says where the segments are.
type mpd struct {
	Duration string      `xml:"mediaPresentationDuration,attr"`
	BaseURL  string      `xml:"BaseURL"`
	Periods  []mpdPeriod `xml:"Period"`
}

type mpdPeriod struct {
	Duration string       `xml:"duration,attr"`
	BaseURL  string       `xml:"BaseURL"`
	Sets     []mpdSet     `xml:"AdaptationSet"`
	Template *mpdTemplate `xml:"SegmentTemplate"`
}

type mpdSet struct {
	BaseURL  string       `xml:"BaseURL"`
	Template *mpdTemplate `xml:"SegmentTemplate"`
	List     *mpdList     `xml:"SegmentList"`
	Reps     []mpdRep     `xml:"Representation"`
}

type mpdRep struct {
	ID        string       `xml:"id,attr"`
	Bandwidth int          `xml:"bandwidth,attr"`
	BaseURL   string       `xml:"BaseURL"`
	Template  *mpdTemplate `xml:"SegmentTemplate"`
	List      *mpdList     `xml:"SegmentList"`
}

type mpdTemplate struct {
	Media          string `xml:"media,attr"`
	Initialization string `xml:"initialization,attr"`
	StartNumber    *int64 `xml:"startNumber,attr"`
	Timescale      int64  `xml:"timescale,attr"`
	Duration       int64  `xml:"duration,attr"`
	Timeline       []struct {
		T *int64 `xml:"t,attr"`
		D int64  `xml:"d,attr"`
		R int64  `xml:"r,attr"`
	} `xml:"SegmentTimeline>S"`
}

type mpdList struct {
	Initialization struct {
		SourceURL string `xml:"sourceURL,attr"`
	} `xml:"Initialization"`
	Segments []struct {
		Media string `xml:"media,attr"`
	} `xml:"SegmentURL"`
}

// dash follows a DASH manifest: every segment dashURLs names, in order.
func (st *stream) dash(ex exchange) {
	urls, err := dashURLs(ex.request.URL, ex.body, st.s.limits.streamFiles)
	if err != nil {
		st.errs = append(st.errs, "the DASH manifest could not be read: "+err.Error())
		return
	}
	for _, u := range urls {
		st.segment(u)
	}
}

// dashURLs are the segments of a DASH manifest fetched from base, at most limit of each
// representation: in each period, each adaptation set's representation of the highest
// bandwidth, its initialization segment and media segments (a SegmentList, a SegmentTemplate
// with a SegmentTimeline or a fixed duration, or a single file by its BaseURL).
func dashURLs(base *url.URL, body []byte, limit int) ([]string, error) {
	var m mpd
	if err := xml.Unmarshal(body, &m); err != nil {
		return nil, err
	}
	join := func(b *url.URL, ref string) *url.URL {
		if ref = strings.TrimSpace(ref); ref == "" {
			return b
		}
		if u, err := b.Parse(ref); err == nil {
			return u
		}
		return b
	}
	var out []string
	root := join(base, m.BaseURL)
	for _, p := range m.Periods {
		seconds := isoSeconds(p.Duration)
		if seconds == 0 {
			seconds = isoSeconds(m.Duration)
		}
		pb := join(root, p.BaseURL)
		for _, set := range p.Sets {
			if len(set.Reps) == 0 {
				continue
			}
			rep := set.Reps[0]
			for _, r := range set.Reps[1:] {
				if r.Bandwidth > rep.Bandwidth {
					rep = r
				}
			}
			rb := join(join(pb, set.BaseURL), rep.BaseURL)
			for _, u := range dashSegments(rb, rep, set, p, seconds, limit) {
				if u != base.String() { // a representation without any address is not the manifest
					out = append(out, u)
				}
			}
		}
	}
	return out, nil
}

// dashSegments are a representation's segment addresses, the initialization first, at most limit.
func dashSegments(base *url.URL, rep mpdRep, set mpdSet, p mpdPeriod, seconds float64, limit int) []string {
	var out []string
	add := func(ref string) {
		if ref == "" || len(out) >= limit {
			return
		}
		if u, err := base.Parse(ref); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
			u.Fragment = ""
			out = append(out, u.String())
		}
	}
	list := rep.List
	if list == nil {
		list = set.List
	}
	tmpl := rep.Template
	if tmpl == nil {
		tmpl = set.Template
	}
	if tmpl == nil {
		tmpl = p.Template
	}
	switch {
	case list != nil:
		add(list.Initialization.SourceURL)
		for _, s := range list.Segments {
			add(s.Media)
		}
	case tmpl != nil:
		fill := func(t string, number, time int64) string {
			return expandTemplate(t, rep, number, time)
		}
		add(fill(tmpl.Initialization, 0, 0))
		number := int64(1)
		if tmpl.StartNumber != nil {
			number = *tmpl.StartNumber
		}
		if len(tmpl.Timeline) > 0 {
			var t int64
			for _, s := range tmpl.Timeline {
				if s.T != nil {
					t = *s.T
				}
				for range max(s.R, 0) + 1 {
					if len(out) >= limit {
						return out
					}
					add(fill(tmpl.Media, number, t))
					number++
					t += s.D
				}
			}
			return out
		}
		if tmpl.Duration > 0 {
			scale := tmpl.Timescale
			if scale <= 0 {
				scale = 1
			}
			count := int64(limit)
			if seconds > 0 {
				count = int64(math.Ceil(seconds * float64(scale) / float64(tmpl.Duration)))
			}
			for i := range count {
				if len(out) >= limit {
					break
				}
				add(fill(tmpl.Media, number+i, i*tmpl.Duration))
			}
		}
	default:
		out = append(out, base.String())
	}
	return out
}

var templateVar = regexp.MustCompile(`\$(RepresentationID|Number|Time|Bandwidth|)(%0(\d+)d)?\$`)

// expandTemplate fills a SegmentTemplate's identifiers ($RepresentationID$, $Number$,
// $Number%05d$, $Time$, $Bandwidth$, $$).
func expandTemplate(t string, rep mpdRep, number, time int64) string {
	return templateVar.ReplaceAllStringFunc(t, func(v string) string {
		m := templateVar.FindStringSubmatch(v)
		width := 1
		if m[3] != "" {
			width, _ = strconv.Atoi(m[3])
		}
		switch m[1] {
		case "RepresentationID":
			return rep.ID
		case "Number":
			return fmt.Sprintf("%0*d", width, number)
		case "Time":
			return fmt.Sprintf("%0*d", width, time)
		case "Bandwidth":
			return fmt.Sprintf("%0*d", width, rep.Bandwidth)
		}
		return "$"
	})
}

var isoDuration = regexp.MustCompile(`^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$`)

// isoSeconds reads an xs:duration of days, hours, minutes and seconds ("PT1M30.5S"); 0 when
// it is empty or not one.
func isoSeconds(d string) float64 {
	m := isoDuration.FindStringSubmatch(strings.TrimSpace(d))
	if m == nil {
		return 0
	}
	total := 0.0
	for i, unit := range []float64{86400, 3600, 60, 1} {
		if v, err := strconv.ParseFloat(m[i+1], 64); err == nil {
			total += v * unit
		}
	}
	return total
}
