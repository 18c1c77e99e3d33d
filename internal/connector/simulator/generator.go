package simulator

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/post"
)

// Rhythm of the invented events: one every eventEvery posts, during which burstShare of the
// posts are about it for burstLength posts.
const (
	eventEvery  = 1200
	burstLength = 360
	burstShare  = 0.45
	replyShare  = 0.22
	threatShare = 0.04
	recentSize  = 200
)

// Generator makes the simulated posts. The same seed and the same times give the same posts.
type Generator struct {
	rng *rand.Rand
	// counts draws the engagement counts apart from rng, so the stream of posts is the one it
	// was before posts had counts.
	counts     *rand.Rand
	runID      string
	authors    []author
	byProvider map[string][]int // author indices per provider
	n          int
	event      *event
	recent     []post.Post // posts that can be replied to
}

// event is an invented happening that many people post about for a while.
type event struct {
	kind eventKind
	city city
	org  string
	tag  string
	end  int // the post number it ends at
}

// NewGenerator returns a generator; posts of generators with different seeds never share ids.
func NewGenerator(seed uint64) *Generator {
	g := &Generator{
		rng:        rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		counts:     rand.New(rand.NewPCG(seed^0x5bd1e995, seed)),
		runID:      strconv.FormatUint(seed, 36),
		authors:    castAuthors(),
		byProvider: map[string][]int{},
	}
	for i, a := range g.authors {
		name := profiles[a.profile].name
		g.byProvider[name] = append(g.byProvider[name], i)
	}
	return g
}

// Next returns the next post, as discovered at now.
func (g *Generator) Next(now time.Time) post.Post {
	g.n++
	g.updateEvent()
	var p post.Post
	if len(g.recent) > 0 && g.rng.Float64() < replyShare {
		p = g.reply(now)
	} else {
		p = g.original(now)
	}
	p.NativeID = fmt.Sprintf("sim-%s-%d", g.runID, g.n)
	p.PostLink = "https://demo.sightline.invalid/" + p.Provider + "/" + p.NativeID
	if p.ThreadID == "" {
		p.ThreadID = p.NativeID
	}
	p.DiscoveredAt = now
	p.Demo = true
	p.Engagement = g.engagement(p)
	if threadable(p.Provider) {
		g.remember(p)
	}
	return p
}

// engagement invents how much a post was reacted to when read: on social networks and news a
// share of the author's followers (most posts get little, a few take off), on forums a
// heavy-tailed score, on dark-web boards a few replies, on pastes nothing. Replies get less,
// and a post about the current event more.
func (g *Generator) engagement(p post.Post) int64 {
	var n float64
	i := slices.IndexFunc(profiles, func(prof profile) bool { return prof.name == p.Provider })
	if i < 0 {
		return 0
	}
	switch profiles[i].kind {
	case social, news:
		n = float64(p.AuthorFollowers) * 0.02 * math.Exp(g.counts.NormFloat64()*1.2)
	case forum:
		n = math.Exp(2 + g.counts.NormFloat64()*1.4)
	case darkweb:
		n = math.Exp(g.counts.NormFloat64())
	default:
		return 0
	}
	if p.ParentID != "" {
		n /= 8
	}
	if g.event != nil && slices.Contains(p.Tags, strings.TrimPrefix(g.event.tag, "#")) {
		n *= 3
	}
	return int64(n)
}

// updateEvent starts a new event at the start of each period and ends it after the burst.
func (g *Generator) updateEvent() {
	if g.event != nil && g.n >= g.event.end {
		g.event = nil
	}
	if g.n%eventEvery != eventEvery/4 {
		return
	}
	kind := pick(g.rng, eventKinds)
	c := pick(g.rng, cities)
	g.event = &event{
		kind: kind,
		city: c,
		org:  pick(g.rng, organizations),
		tag:  "#" + strings.Join(strings.Fields(asciiFold.Replace(c.name)), "") + kind.name,
		end:  g.n + burstLength,
	}
}

// ActiveEventTag returns the hashtag of the event under way, or "".
func (g *Generator) ActiveEventTag() string {
	if g.event == nil {
		return ""
	}
	return g.event.tag
}

func (g *Generator) pickAuthor() author {
	// Squaring skews the choice: a few authors post a lot, most post now and then.
	u := g.rng.Float64()
	return g.authors[int(u*u*float64(len(g.authors)))]
}

func (g *Generator) original(now time.Time) post.Post {
	a := g.pickAuthor()
	prof := profiles[a.profile]
	p := g.base(a, prof, now)
	place := a.home
	threat := false
	about := g.event != nil && prof.kind != paste && g.rng.Float64() < burstShare

	switch {
	case about:
		text := g.fill(pick(g.rng, phrasesFor(g.event.kind.phrases, a.language)), a, g.event.city.name)
		place, threat = g.event.city, g.event.kind.threat
		switch prof.kind {
		case news:
			p.TitleText = strings.TrimSpace(strings.ReplaceAll(text, g.event.tag, ""))
			p.ContentText = p.TitleText + " " + developing[a.language]
		case forum, darkweb:
			p.TitleText = strings.TrimSpace(strings.ReplaceAll(text, g.event.tag, ""))
			p.ContentText = text + " " + askOpinion[a.language]
		default:
			p.ContentText = text
		}
		p.Tags = append(p.Tags, strings.TrimPrefix(g.event.tag, "#"))
	case prof.kind == paste:
		l := pick(g.rng, listings["en"])
		p.TitleText, p.ContentText = g.fill(l.title, a, place.name), g.dump(a)
		threat = true
	case prof.kind == darkweb && g.rng.Float64() < 0.7:
		l := pick(g.rng, phrasesFor(listings, a.language))
		p.TitleText, p.ContentText = g.fill(l.title, a, place.name), g.fill(l.body, a, place.name)
		threat = true
	case g.rng.Float64() < threatShare || (prof.kind == darkweb):
		p.ContentText = g.fill(pick(g.rng, phrasesFor(threats, a.language)), a, place.name)
		if prof.kind == forum || prof.kind == darkweb {
			p.TitleText = firstWords(p.ContentText, 8)
		}
		threat = true
	case g.rng.Float64() < topicShare:
		p.ContentText = g.fill(pick(g.rng, phrasesFor(topics, a.language)), a, place.name)
		if prof.kind == news || prof.kind == forum || prof.kind == darkweb {
			p.TitleText = firstWords(p.ContentText, 10)
		}
	case prof.kind == news:
		h := pick(g.rng, headlines[a.language])
		p.TitleText, p.ContentText = g.fill(h.title, a, place.name), g.fill(h.body, a, place.name)
	case prof.kind == forum:
		p.TitleText = g.fill(pick(g.rng, everyday[a.language]), a, place.name)
		p.ContentText = askOpinion[a.language]
	default:
		p.ContentText = g.fill(pick(g.rng, everyday[a.language]), a, place.name)
	}

	if prof.geo && g.rng.Float64() < 0.6 {
		p.Location = g.near(place)
		p.PlaceName = place.name
	}
	if g.rng.Float64() < prof.media {
		g.addMedia(&p, prof, threat)
	}
	if len(prof.boards) > 0 {
		p.Board = pick(g.rng, prof.boards)
		p.CommunityKind = prof.community
	}
	return p
}

// reply answers a recent post in the same place, in its language, by an author who writes it
// when the provider has one.
func (g *Generator) reply(now time.Time) post.Post {
	parent := g.recent[g.rng.IntN(len(g.recent))]
	candidates := g.byProvider[parent.Provider]
	var sameLanguage []int
	for _, i := range candidates {
		if g.authors[i].language == parent.Language {
			sameLanguage = append(sameLanguage, i)
		}
	}
	if len(sameLanguage) > 0 {
		candidates = sameLanguage
	}
	a := g.authors[pick(g.rng, candidates)]
	prof := profiles[a.profile]
	p := g.base(a, prof, now)
	p.Language = parent.Language
	p.ContentText = pick(g.rng, replies[parent.Language])
	if g.event != nil && slices.Contains(parent.Tags, strings.TrimPrefix(g.event.tag, "#")) {
		p.ContentText += " " + g.event.tag
		p.Tags = []string{strings.TrimPrefix(g.event.tag, "#")}
	}
	p.Board, p.CommunityKind = parent.Board, parent.CommunityKind
	p.ThreadID, p.ParentID = parent.ThreadID, parent.NativeID
	return p
}

// base is what every post of author a has.
func (g *Generator) base(a author, prof profile, now time.Time) post.Post {
	delay := time.Duration(g.rng.IntN(90)) * time.Second
	if prof.kind == news {
		delay = time.Duration(g.rng.IntN(600)) * time.Second
	}
	return post.Post{
		Provider:         prof.name,
		AuthorID:         a.id,
		AuthorName:       a.name,
		AuthorScreenName: a.handle,
		AuthorThumbnail:  a.avatar,
		AuthorURL:        "https://demo.sightline.invalid/" + prof.name + "/@" + a.handle,
		AuthorFollowers:  a.followers,
		Language:         a.language,
		PublishedAt:      now.Add(-delay).UTC(),
	}
}

// fill replaces a template's placeholders.
func (g *Generator) fill(template string, a author, cityName string) string {
	var b strings.Builder
	rest := template
	for {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			b.WriteString(rest)
			return b.String()
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:open])
		b.WriteString(g.value(rest[open+1:open+end], a, cityName))
		rest = rest[open+end+1:]
	}
}

func (g *Generator) value(placeholder string, a author, cityName string) string {
	switch placeholder {
	case "city":
		return cityName
	case "n":
		return strconv.Itoa(2 + g.rng.IntN(40))
	case "tag":
		if g.event != nil {
			return g.event.tag
		}
		return ""
	case "org":
		if g.event != nil {
			return g.event.org
		}
		return pick(g.rng, organizations)
	case "email":
		return fmt.Sprintf("%s%d@%s", strings.ReplaceAll(a.handle, ".", "_"), g.rng.IntN(100), pick(g.rng, []string{"example.com", "example.net", "example.org"}))
	case "phone":
		return fmt.Sprintf("+1 202 555 01%02d", g.rng.IntN(100))
	case "ip":
		return fmt.Sprintf("%s.%d", pick(g.rng, []string{"192.0.2", "198.51.100", "203.0.113"}), 1+g.rng.IntN(254))
	case "card":
		return pick(g.rng, testCards)
	case "ssn":
		return pick(g.rng, testSSNs)
	case "onion":
		const base32 = "abcdefghijklmnopqrstuvwxyz234567"
		var b strings.Builder
		for range 56 {
			b.WriteByte(base32[g.rng.IntN(len(base32))])
		}
		return "http://" + b.String() + ".onion"
	}
	return "{" + placeholder + "}"
}

// dump is the body of a paste: a few leaked records.
func (g *Generator) dump(a author) string {
	var lines []string
	for range 3 + g.rng.IntN(4) {
		lines = append(lines, g.fill("{email}:{ip}:{phone}", a, ""))
	}
	lines = append(lines, g.fill("card {card} ssn {ssn}", a, ""))
	return strings.Join(lines, "\n")
}

// near returns a point within a few kilometres of c.
func (g *Generator) near(c city) *post.Point {
	const spread = 0.03 // degrees, about 3 km
	lat := c.lat + g.rng.NormFloat64()*spread
	lon := c.lon + g.rng.NormFloat64()*spread/math.Max(0.2, math.Cos(c.lat*math.Pi/180))
	return &post.Point{Lat: math.Round(lat*1e5) / 1e5, Lon: math.Round(lon*1e5) / 1e5}
}

func (g *Generator) addMedia(p *post.Post, prof profile, threat bool) {
	var item mediaItem
	if g.event != nil && slices.Contains(p.Tags, strings.TrimPrefix(g.event.tag, "#")) {
		name := pick(g.rng, g.event.kind.media)
		for _, m := range mediaLibrary {
			if m.name == name {
				item = m
			}
		}
	} else {
		for {
			item = pick(g.rng, mediaLibrary)
			if item.threat == threat || (!item.threat && g.rng.Float64() < 0.5) {
				break
			}
		}
	}
	m := post.Media{Large: mediaURL(item.name), Normal: mediaURL(item.name)}
	if g.rng.Float64() < prof.video {
		p.Videos = append(p.Videos, m)
	} else {
		p.Photos = append(p.Photos, m)
	}
	p.DetectedObjects = append(p.DetectedObjects, item.objects...)
}

func (g *Generator) remember(p post.Post) {
	if len(g.recent) == recentSize {
		copy(g.recent, g.recent[1:])
		g.recent = g.recent[:recentSize-1]
	}
	g.recent = append(g.recent, p)
}

// threadable reports whether a provider's posts get replies in the simulation.
func threadable(providerName string) bool {
	for _, p := range profiles {
		if p.name == providerName {
			return p.kind != news && p.kind != paste
		}
	}
	return false
}

// phrasesFor returns the phrases in lang, or in English when there are none.
func phrasesFor[T any](byLanguage map[string][]T, lang string) []T {
	if list, ok := byLanguage[lang]; ok {
		return list
	}
	return byLanguage["en"]
}

func firstWords(s string, n int) string {
	words := strings.Fields(s)
	if len(words) <= n {
		return s
	}
	return strings.Join(words[:n], " ") + "…"
}
