// Package story joins the posts that report the same event into stories: exact copies (same
// canonical link or same folded text), near copies (close SimHash over word pairs) and
// paraphrases, in one language or across languages, within a sliding window of a few days. It
// is pure computation over the posts given to it in order: the same posts in the same order give
// the same stories, on any node and after any restart (docs/stories.md).
package story

import (
	"math"
	"math/bits"
	"slices"
	"time"

	"github.com/sightline/sightline/internal/post"
)

// Window is how long a post can gather others into its story.
const Window = 72 * time.Hour

const (
	// evidenceWindow is how close in time posts worded differently must be: their wording
	// says little, so their time counts for more.
	evidenceWindow = 24 * time.Hour
	// nearBits is how many SimHash bits near copies differ in at most; minNearTokens keeps short
	// posts, whose hash shifts with any word, to the other tests.
	nearBits      = 3
	minNearTokens = 10
	// sameLanguageScore is the cosine over weighted features a paraphrase needs.
	sameLanguageScore = 0.22
	// halfLife is how long it takes for the similarity two posts need to double.
	halfLife = 24 * time.Hour
	// minEvidence is the weight of identifying features two posts worded differently must share.
	minEvidence = 3.5
	// Shared evidence adds up to maxEvidence/evidenceScale to a candidate's score.
	maxEvidence, evidenceScale = 10.0, 20.0
	// placeEvidence is a place's weight as evidence; in the cosine it weighs as a word.
	placeEvidence = 3.0
	// commonNumber is how many posts of the window may write a number before it weighs less.
	commonNumber = 20
	// maxPostings caps how many posts a feature is looked up in: a feature that common (a
	// grammar word, a big country) picks no story out.
	maxPostings    = 400
	recentPostings = 48
	// maxCandidates is how many of the posts sharing the most with a post are compared with it.
	maxCandidates = 8
	// perStory is how many of them may be posts of one story.
	perStory = 2
	// keptCandidates is how many of the posts sharing the most are ranked to choose them from.
	keptCandidates = 4 * maxCandidates

	// idfScale sets how fast a word's weight falls with the posts of the window that use it.
	idfScale = 20.0
)

// weights of the kinds of feature: places, numbers, links and handles say which event it is.
var weights = [kinds]float64{kindWord: 1, kindPlace: 1, kindNumber: 2, kindSmallNumber: 0.5, kindLink: 6, kindHandle: 2, kindTag: 1.5, kindEventTag: 3.5}

// entry is a post of the window.
type entry struct {
	id, story string
	native    string // provider and native id: what a reply names as its parent
	lang      string
	at        time.Time
	sig       signature
	norm      float64 // the length of its weights when it was added, links left out
	seq       uint32  // its number in the order added (wrapping): what postings hold
	gone      bool
}

// Clusterer assigns posts to stories. It is not safe for concurrent use: posts are added in one
// order, the stream's.
type Clusterer struct {
	entries []*entry // in the order added, oldest first, from head on
	head    int
	first   uint32 // the seq of entries[0]
	next    uint32 // the seq of the next post added
	// feats numbers the features and words of the window's posts and keeps their postings.
	feats featureTable
	texts map[uint64]*entry
	// bands are the posts of ten tokens or more (the only ones near copies are looked for
	// among) by each 16-bit quarter of their SimHash, oldest first.
	bands [4]map[uint16][]banded
	now   time.Time // the latest publication time seen: the window ends there
	// tallies[i] is what entries[i] shares with the post of the lookup that last found it a
	// candidate (lookups are counted by epoch): in an array rather than on the posts, so that
	// summing a long post's candidates reads memory in a few places, and the mark beside the
	// sum, one cache line a candidate in a window of a million.
	epoch    uint32
	tallies  []tally
	keys     []uint64  // keys[i] is idKey of entries[i]: ties between candidates are broken by id
	touched  []int32   // the candidates of this lookup, as indexes into entries
	finders  []finder  // the features of this lookup that find candidates
	weights  []float64 // the weights of this lookup's post's features
	dfs      []int     // and their dfs
	flags    []uint8   // and their flags for evidence, from the lookup numbered flagged
	flagged  uint32
	cands    []candidate
	compared []string          // the stories of this lookup's candidates compared so far
	roots    map[string]*entry // each story's first post, while in the window
	ids      map[string]*entry
	natives  map[string]*entry // by provider and native id, for replies to find their parent
	analyzer analyzer
}

// New returns an empty clusterer.
func New() *Clusterer {
	c := &Clusterer{feats: newFeatureTable(), texts: map[uint64]*entry{}, roots: map[string]*entry{}, ids: map[string]*entry{}, natives: map[string]*entry{}}
	for i := range c.bands {
		c.bands[i] = map[uint16][]banded{}
	}
	return c
}

// Len is the number of posts in the window.
func (c *Clusterer) Len() int { return len(c.entries) - c.head }

// Add assigns p to a story and returns the story's id: the id of the story's first post, so a
// post that joins nothing has its own id.
func (c *Clusterer) Add(p *post.Post) string {
	// A redelivered post keeps the story it was given.
	if e := c.ids[p.ID]; e != nil {
		return e.story
	}
	c.advance(p.PublishedAt)
	sig := c.analyzer.sign(p)
	norm := c.weigh(&sig)
	story := p.ID
	if e := c.parent(p); e != nil {
		// A reply is part of its thread's conversation about the event ("Can confirm, I'm
		// nearby"), whatever it says.
		story = e.story
	} else if e := c.match(p, &sig, norm); e != nil {
		story = e.story
	}
	c.insert(p, sig, story, norm)
	return story
}

// Seed puts a post already assigned to a story into the window, as when the window is rebuilt
// from the store at start.
func (c *Clusterer) Seed(p *post.Post, story string) {
	if c.ids[p.ID] != nil {
		return
	}
	c.advance(p.PublishedAt)
	sig := c.analyzer.sign(p)
	c.insert(p, sig, story, c.weigh(&sig))
}

// weigh looks sig's features up in the table (their ids, 0 for those no post of the window has)
// and weighs them by their df, into c.weights and c.dfs; it returns the length of the weights
// the cosine compares (links left out). Matching and adding the post both use them: nothing
// changes the table between the two.
func (c *Clusterer) weigh(sig *signature) float64 {
	n := len(sig.features)
	c.weights = slices.Grow(c.weights[:0], n)[:n]
	c.dfs = slices.Grow(c.dfs[:0], n)[:n]
	var norm float64
	for i := range sig.features {
		f := &sig.features[i]
		f.id = c.feats.lookup(f.hash)
		df := c.feats.df(f.id)
		w := weight(*f, df)
		c.weights[i], c.dfs[i] = w, df
		if inCosine(f.kind) {
			norm += w * w
		}
	}
	return math.Sqrt(norm)
}

// parent is the post of the window p replies to, else its thread's first post, nil when neither
// is in the window.
func (c *Clusterer) parent(p *post.Post) *entry {
	for _, id := range []string{p.ParentID, p.ThreadID} {
		if id == "" || id == p.NativeID {
			continue
		}
		if e := c.natives[nativeKey(p.Provider, id)]; e != nil && !e.gone {
			return e
		}
	}
	return nil
}

func nativeKey(provider, id string) string {
	if id == "" {
		return ""
	}
	return provider + "\x00" + id
}

// match finds the post of the window p is a copy or a paraphrase of, nil when none.
func (c *Clusterer) match(p *post.Post, sig *signature, norm float64) *entry {
	if e := c.texts[sig.text]; e != nil && !e.gone && sig.tokens > 0 {
		return e
	}
	if sig.tokens >= minNearTokens {
		for i, b := range c.bands {
			for _, bd := range b[band(sig.simhash, i)] {
				if bits.OnesCount64(bd.simhash^sig.simhash) > nearBits || c.gone(bd.seq) {
					continue
				}
				if e := c.entry(bd.seq); !vetoed(c, sig, &e.sig, comparable(e.lang, p.Language), e.story) {
					return e
				}
			}
		}
	}

	c.epoch++
	if c.epoch == 0 { // wrapped: no mark may be taken for this lookup's
		clear(c.tallies)
		c.epoch, c.flagged = 1, 0
	}
	c.touched = c.touched[:0]
	w := c.weights
	c.finders = c.finders[:0]
	for i := range sig.features {
		f := &sig.features[i]
		df := c.dfs[i]
		// A word many posts use picks no story out: it counts in the cosine (computed in full
		// for the best candidates below), not in finding them, which bounds the work a long
		// post costs.
		if df == 0 || df > maxPostings || (f.kind == kindWord || f.kind == kindSkeleton) && df > recentPostings {
			continue
		}
		c.finders = append(c.finders, finder{i, df, f.id})
	}
	lo, n := c.first+uint32(c.head), uint32(c.Len())
	for _, fd := range c.finders {
		ww := w[fd.i] * w[fd.i] // a feature weighs the same in both posts but for its df
		// The latest posts with a feature are the likeliest to report the same event; looking
		// no further than the latest recentPostings bounds the work a post.
		// What a post shares is summed in an array by its place in the window (marked with
		// this lookup's epoch), not in a map: a long post touches thousands.
		newer, newest := c.feats.recent(fd.id)
		for _, part := range [2][]uint32{newer, newest} {
			for _, seq := range part {
				if seq-lo >= n {
					continue // gone from the window
				}
				j := int32(seq - c.first)
				t := &c.tallies[j]
				if t.mark != c.epoch {
					t.mark, t.shared = c.epoch, 0
					c.touched = append(c.touched, j)
				}
				t.shared += ww
			}
		}
	}

	// The cosine's numerator costs a merge of the two posts' features: only the candidates
	// sharing the most are worth it, kept in order as they are found (most of them are
	// turned away by one comparison) rather than all sorted. A candidate's norm is the one it
	// had when added: the weights drift slowly, and reweighing it costs a lookup a feature.
	c.cands = c.cands[:0]
	for _, j := range c.touched {
		shared := c.tallies[j].shared
		if len(c.cands) == keptCandidates && shared < c.cands[keptCandidates-1].shared {
			continue // what keepBest would turn away, without reading the post
		}
		c.cands = keepBest(c.cands, candidate{c.entries[j], c.keys[j], overlap{shared: shared}})
	}
	var best *entry
	bestScore := 0.0
	// The candidates come from different stories where they can: eight copies of one story's
	// template would hide the story the post belongs to.
	// At most maxCandidates stories: counted in a list, which costs less than a map that size.
	c.compared = c.compared[:0]
	for _, cand := range c.cands {
		if len(c.compared) == maxCandidates {
			break
		}
		e := cand.e
		same := 0
		for _, st := range c.compared {
			if st == e.story {
				same++
			}
		}
		if same == perStory {
			continue
		}
		c.compared = append(c.compared, e.story)
		cand.dot = dot(sig, w, &e.sig)
		sameLang := comparable(e.lang, p.Language)
		s := 0.0
		if sharesKind(sig, &e.sig, kindLink) {
			s = 1 // the same article, whatever is said around it
		} else if sameLang {
			// A paraphrase a day later is less likely the same event than one the same hour.
			s = cand.dot / (norm * e.norm) * math.Exp2(-float64(absDuration(p.PublishedAt.Sub(e.at)))/float64(halfLife))
			if s < sameLanguageScore {
				s = 0
			}
		}
		// Posts worded differently, in two languages or in one, report the same event when
		// they are close in time and share what identifies it: two pieces of evidence at least,
		// as a city alone is many events a day.
		// Evidence adds to the wording: a post that shares the event's place and hashtag with
		// one candidate and only common words with another belongs with the first.
		if absDuration(p.PublishedAt.Sub(e.at)) <= evidenceWindow {
			if shared, n := c.evidence(sig, e); shared >= minEvidence && n >= 2 {
				s += min(shared, maxEvidence) / evidenceScale
			}
		}
		if s == 0 {
			continue
		}
		if s > bestScore {
			// The story's first post vetoes too, so that a story does not drift from one
			// event to a look-alike through a post that names neither.
			root := c.roots[e.story]
			if vetoed(c, sig, &e.sig, sameLang, e.story) || root != nil && vetoed(c, sig, &root.sig, comparable(root.lang, p.Language), e.story) {
				continue
			}
			best, bestScore = e, s
		}
	}
	return best
}

// outside is how many posts of the window outside a story write a feature: a name says which event a post reports by how few other events name it, not by
// how few posts do, since the more posts report an event the more write its names ("OpenAI"
// in every version of its launch).
func (c *Clusterer) outside(f feature, story string) int {
	df := c.dfOf(f)
	if df > maxPostings {
		return df // a word that common names nothing
	}
	// The table keeps the latest maxPostings posts with the feature: all of the window's.
	id := f.id // the placed post's features have their ids from match
	if id == 0 {
		id = c.feats.lookup(f.hash)
	}
	n := 0
	for _, seq := range c.feats.all(id) {
		if !c.gone(seq) && c.entry(seq).story != story {
			n++
		}
	}
	return n
}

// comparable reports whether posts in two languages can be compared word for word: the same
// language, or one too short to tell (und), which is then most likely the other's.
func comparable(a, b string) bool {
	return a == b || a == "" || b == "" || a == "und" || b == "und"
}

// dot is the sum of the squared weights w (of a's features, in order) of the features a and b
// share, links left out: the cosine's numerator. Both lists are sorted, so it is one merge.
func dot(a *signature, w []float64, b *signature) float64 {
	var d float64
	af, bf := a.features, b.features
	for i, j := 0, 0; i < len(af) && j < len(bf); {
		// compareFeatures written out: called through cmp.Compare it was most of the merge's cost.
		x, y := &af[i], &bf[j]
		switch {
		case x.hash < y.hash || x.hash == y.hash && x.kind < y.kind:
			i++
		case x.hash > y.hash || x.kind > y.kind:
			j++
		default:
			if inCosine(x.kind) {
				d += w[i] * w[i]
			}
			i++
			j++
		}
	}
	return d
}

// finder is a feature of the post being placed that finds candidates: its index, its df, its id.
type finder struct {
	i, df int
	id    uint32
}

// keepBest inserts cand into cands, kept in order (most shared first, then by id) and to
// keptCandidates at most.
func keepBest(cands []candidate, cand candidate) []candidate {
	n := len(cands)
	if n == keptCandidates && !before(&cand, &cands[n-1]) {
		return cands
	}
	i := n
	for i > 0 && before(&cand, &cands[i-1]) {
		i--
	}
	if n < keptCandidates {
		cands = append(cands, candidate{})
	}
	copy(cands[i+1:], cands[i:len(cands)-1])
	cands[i] = cand
	return cands
}

// before reports whether candidate a goes before b: the one sharing more, else the smaller id.
func before(a, b *candidate) bool {
	if a.shared != b.shared {
		return a.shared > b.shared
	}
	if a.key != b.key { // the ids' first bytes, read without reading the posts
		return a.key < b.key
	}
	return a.e.id < b.e.id
}

// candidate is a post of the window sharing features with the post being placed.
type candidate struct {
	e   *entry
	key uint64 // idKey(e.id)
	overlap
}

// idKey is the first 8 bytes of an id, big-endian, zeros after its end: where two keys differ,
// they order as the ids do (a shorter id is a prefix, padded with the smallest byte).
func idKey(id string) uint64 {
	var k uint64
	for i := range 8 {
		k <<= 8
		if i < len(id) {
			k |= uint64(id[i])
		}
	}
	return k
}

// overlap is what a post of the window shares with the post being placed: the squared weights
// of the common features it was found through (to rank candidates), and of all their common
// features but links (the cosine's numerator, computed for the best candidates only).
type overlap struct{ shared, dot float64 }

// evidence is what identifies an event that two posts share: places, numbers, links and
// handles, and the words they both write, across languages mostly names ("Schiphol", "OpenAI")
// and names' skeletons ("Malatya", "Малатьи"), weighed by how rare they are; and how many such
// features there are. a is the post being placed, e the post of the window.
func (c *Clusterer) evidence(a *signature, e *entry) (float64, int) {
	b := &e.sig
	// Which of a's features are among its names and its places' names is the same for every
	// candidate: read once a lookup.
	if c.flagged != c.epoch {
		c.flagged = c.epoch
		c.flags = slices.Grow(c.flags[:0], len(a.features))[:len(a.features)]
		for i, f := range a.features {
			var fl uint8
			if slices.Contains(a.names, f.hash) {
				fl |= flagName
			}
			if slices.Contains(a.placeNames, f.hash) {
				fl |= flagPlaceName
			}
			c.flags[i] = fl
		}
	}
	var s float64
	n := 0
	for i, f := range a.features {
		fl := c.flags[i]
		// Other words are the ones two events of a kind share ("strike", "outage").
		if f.kind == kindSmallNumber || f.kind == kindWord && fl&flagName == 0 && !slices.Contains(b.names, f.hash) {
			continue
		}
		// A name both write alike counts once, as a word.
		if f.kind == kindSkeleton && sameNameWritten(a, b, f.hash) {
			continue
		}
		placeName := fl&flagPlaceName != 0 || slices.Contains(b.placeNames, f.hash)
		if hasFeature(b, f) {
			df := c.dfOf(f)
			// A place's name weighs by the posts that write it: many events happen in one
			// city, and the place counts already.
			if (f.kind == kindWord || f.kind == kindSkeleton) && !placeName {
				df = c.outside(f, e.story)
			}
			s += evidenceWeight(f, df)
			n++
			if f.kind == kindEventTag {
				n++ // a hashtag of several words names the event alone, as a link does
			}
		}
	}
	return s, n
}

// flags of a feature of the post being placed, for evidence.
const (
	flagName      = 1 << iota // among the post's names
	flagPlaceName             // among the names of its places
)

// vetoed reports whether two posts name different things the same way: different places, or
// (with no place in common) different names where both are named ("MICRON CROSSES $900B", "SK
// HYNIX CROSSES $900B"), which only posts in one language can be compared on. A shared link overrides: it is the same
// article.
func vetoed(c *Clusterer, a, b *signature, sameLang bool, story string) bool {
	if sharesKind(a, b, kindLink) || sharesKind(a, b, kindEventTag) {
		return false
	}
	// Two sums of money that differ are two deals, fines or records, whatever else the posts
	// share: Apple fined €1.8bn and Google €2.4bn, bitcoin over $150,000 and ether over $10,000.
	if len(a.amounts) > 0 && len(b.amounts) > 0 && !sharesAny(a.amounts, b.amounts) {
		return true
	}
	// Two matches in Madrid the same night: each names a place the other does not.
	if placeOnlyIn(a, b) && placeOnlyIn(b, a) {
		return true
	}
	// The same where the gazetteer knows neither place ("в Рязани", "в Саратове"): the names
	// after a preposition of place, compared by skeleton with every name of the other post.
	if locatedOnlyIn(a, b) && locatedOnlyIn(b, a) {
		return true
	}
	if sharesKind(a, b, kindPlace) {
		return false
	}
	if !sameLang {
		return false
	}
	na, nb := c.names(a), c.names(b)
	if len(na) == 0 || len(nb) == 0 {
		return false
	}
	// The first name is what a report is about: two reports about different subjects are two
	// events however alike the rest ("Northwind Bank says hackers stole..." and "Contoso Bank
	// says hackers stole...").
	if !namesAlike(b, a, na[0]) && !namesAlike(a, b, nb[0]) && !c.storyNamed(a, b, nb, story) {
		return true
	}
	return !sharesName(a, b, na, nb)
}

// storyNamed reports whether a writes the names of b's story: those of b's names that several
// posts of the story write and no post outside it. A post that writes them reports the story's
// subject ("Meta" in "EU fines Meta…" and in "RT @EUCompetition: The Commission fines Meta…"),
// though neither post starts with it; one that writes only some ("Bank" of "Northwind Bank",
// in "Contoso Bank says…") reports another event on the same template.
func (c *Clusterer) storyNamed(a, b *signature, nb []uint64, story string) bool {
	owned := false
	for _, h := range nb {
		id := c.feats.lookup(h)
		if id == 0 {
			continue
		}
		in, out := 0, 0
		for _, seq := range c.feats.all(id) {
			if c.gone(seq) {
				continue
			}
			if c.entry(seq).story == story {
				in++
			} else {
				out++
			}
		}
		if in < 2 || out > 0 {
			continue
		}
		if !namesAlike(a, b, h) {
			return false
		}
		owned = true
	}
	return owned
}

// namesAlike reports whether s writes the name h of o, or the same name inflected: its
// skeleton ("Харкова", "Харкову"; "Warnstreik", "Warnstreiks"), which finds the name as a
// feature of s only where s writes it as a name.
func namesAlike(s, o *signature, h uint64) bool {
	if mentions(s, h) {
		return true
	}
	for _, sk := range o.skels {
		if sk.word == h && hasFeature(s, feature{kind: kindSkeleton, hash: sk.skel}) {
			return true
		}
	}
	return false
}

func sharesAny(a, b []uint64) bool {
	for _, h := range a {
		if slices.Contains(b, h) {
			return true
		}
	}
	return false
}

// inCosine reports whether a kind of feature counts in the cosine: links decide alone, and a
// name's skeleton would count the name twice.
func inCosine(k kind) bool { return k != kindLink && k != kindSkeleton }

// sameNameWritten reports whether a name of a with the skeleton skel is a word of b: the name is
// then written alike in both.
func sameNameWritten(a, b *signature, skel uint64) bool {
	for _, sk := range a.skels {
		if sk.skel == skel && hasFeature(b, feature{kind: kindWord, hash: sk.word}) {
			return true
		}
	}
	return false
}

// sharesName reports whether either post writes a name of the other (na of a, nb of b).
func sharesName(a, b *signature, na, nb []uint64) bool {
	for _, h := range na {
		if namesAlike(b, a, h) {
			return true
		}
	}
	for _, h := range nb {
		if namesAlike(a, b, h) {
			return true
		}
	}
	return false
}

// mentions reports whether a post writes a word: among its features, or among its names for
// the words too short to be features ("SK", "EU").
func mentions(s *signature, word uint64) bool {
	return hasFeature(s, feature{kind: kindWord, hash: word}) || slices.Contains(s.names, word)
}

// names are the words a post writes as names that no post of the window writes in lowercase.
func (c *Clusterer) names(s *signature) []uint64 {
	var out []uint64
	for i, h := range s.names {
		if i >= 64 || s.proper&(1<<i) == 0 {
			continue
		}
		if c.lowerOf(s, h) == 0 {
			out = append(out, h)
		}
	}
	return out
}

// locatedOnlyIn reports whether a names, after a preposition of place, a name the gazetteer does
// not read as a place and b does not write (in any script) nor name as a place.
func locatedOnlyIn(a, b *signature) bool {
	for _, h := range a.located {
		if slices.Contains(a.placeNames, h) {
			continue // a place the gazetteer reads: the place veto judges it
		}
		if !hasFeature(b, feature{kind: kindSkeleton, hash: h}) && !slices.Contains(b.placeNames, h) {
			return true
		}
	}
	return false
}

// placeOnlyIn reports whether a names a place b does not, nor one of the same name (the gazetteer
// may read "Santa Rosa" as another country's) nor one within sameArea of it (a district of
// the city the other names: "Altona", "Hamburg").
func placeOnlyIn(a, b *signature) bool {
	for _, pa := range a.places {
		if hasFeature(b, feature{kind: kindPlace, hash: pa.hash}) {
			continue
		}
		near := false
		for _, pb := range b.places {
			if pb.name == pa.name || pa.distanceKm(pb) <= sameAreaKm {
				near = true
				break
			}
		}
		if !near {
			return true
		}
	}
	return false
}

// sameAreaKm is how far apart two places named by two posts may be and still be one area: a
// city and its districts, not its suburbs (Pinecrest is 19 km from Miami, and its own news).
const sameAreaKm = 8

// placeRef is a place a post names: its feature's hash, its name's and where it is.
type placeRef struct {
	hash, name uint64
	lat, lon   float32
}

// distanceKm is the distance between two places along the Earth's surface (haversine).
func (p placeRef) distanceKm(q placeRef) float64 {
	const r = 6371.0
	rad := math.Pi / 180
	dLat, dLon := float64(q.lat-p.lat)*rad, float64(q.lon-p.lon)*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(float64(p.lat)*rad)*math.Cos(float64(q.lat)*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * r * math.Asin(math.Sqrt(h))
}

func sharesKind(a, b *signature, k kind) bool {
	for _, f := range a.features {
		if f.kind == k && hasFeature(b, f) {
			return true
		}
	}
	return false
}

func hasFeature(s *signature, f feature) bool {
	_, found := search(s.features, f)
	return found
}

// search is where f is or would be in the sorted features, and whether it is there: a binary
// search written out, since evidence and the vetoes make hundreds a post.
func search(fs []feature, f feature) (int, bool) {
	lo, hi := 0, len(fs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if g := &fs[m]; g.hash < f.hash || g.hash == f.hash && g.kind < f.kind {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(fs) && fs[lo].hash == f.hash && fs[lo].kind == f.kind
}

// weight is a feature's weight given how many posts of the window have it: a word used by many
// posts says less about which event a post reports.
// evidenceWeight is a feature's weight as evidence of the event: a place weighs more there than
// in the cosine, where it would make any two short posts about one city alike.
func evidenceWeight(f feature, df int) float64 {
	if f.kind == kindPlace {
		return placeEvidence
	}
	return weight(f, df)
}

func weight(f feature, df int) float64 {
	if f.kind == kindNumber && df > commonNumber {
		// A number many posts write ("10", "2026") is not what tells their events apart.
		return weights[f.kind] * commonNumber / float64(df)
	}
	if f.kind != kindWord && f.kind != kindSkeleton {
		return weights[f.kind]
	}
	return math.Log1p(idfScale / float64(1+df))
}

// insert adds the post to the window; norm is its weights' length, from weigh.
func (c *Clusterer) insert(p *post.Post, sig signature, story string, norm float64) {
	e := &entry{id: p.ID, story: story, native: nativeKey(p.Provider, p.NativeID), lang: p.Language, at: p.PublishedAt, sig: sig, seq: c.next}
	c.next++
	if e.native != "" {
		c.natives[e.native] = e
	}
	for i := range e.sig.features {
		f := &e.sig.features[i]
		if f.id == 0 {
			f.id = c.feats.intern(f.hash)
		}
		c.feats.post(f.id, e.seq, ringSize(f.kind))
	}
	e.norm = norm
	if e.norm == 0 {
		e.norm = 1
	}
	if _, ok := c.texts[sig.text]; !ok || c.texts[sig.text].gone {
		c.texts[sig.text] = e
	}
	if sig.tokens >= minNearTokens {
		for i, b := range c.bands {
			k := band(sig.simhash, i)
			b[k] = append(c.live(b[k]), banded{sig.simhash, e.seq})
		}
	}
	// The words written in lowercase are counted by id; the post keeps the ids, not the hashes.
	// Most are among its features, which have their ids already.
	ids := make([]uint32, len(sig.lower))
	for i, h := range sig.lower {
		if id := featureID(&e.sig, feature{kind: kindWord, hash: h}); id != 0 {
			ids[i] = id
		} else {
			ids[i] = c.feats.intern(h)
		}
		c.feats.infos[ids[i]].lower++
	}
	e.sig.lower, e.sig.lowerIDs = nil, ids
	if c.roots[story] == nil {
		c.roots[story] = e
	}
	c.ids[e.id] = e
	c.entries = append(c.entries, e)
	c.keys = append(c.keys, idKey(e.id))
	if len(c.tallies) < len(c.entries) {
		c.tallies = append(c.tallies, tally{})
	}
}

// advance moves the window's end to t and drops the posts that fell out of it.
func (c *Clusterer) advance(t time.Time) {
	if t.After(c.now) {
		c.now = t
	}
	cut := c.now.Add(-Window)
	for c.head < len(c.entries) && c.entries[c.head].at.Before(cut) {
		e := c.entries[c.head]
		c.entries[c.head] = nil
		c.head++
		e.gone = true
		if c.texts[e.sig.text] == e {
			delete(c.texts, e.sig.text)
		}
		if c.roots[e.story] == e {
			delete(c.roots, e.story)
		}
		delete(c.ids, e.id)
		if c.natives[e.native] == e {
			delete(c.natives, e.native)
		}
		for _, id := range e.sig.lowerIDs {
			c.feats.unlower(id)
		}
		for _, f := range e.sig.features {
			c.feats.unpost(f.id)
		}
		// Trimming the lists the post is in keeps memory to the window's posts.
		if e.sig.tokens >= minNearTokens {
			for i, b := range c.bands {
				k := band(e.sig.simhash, i)
				if l := c.live(b[k]); len(l) == 0 {
					delete(b, k)
				} else {
					b[k] = l
				}
			}
		}
	}
	// Moving the live posts down once half the slice is gone keeps eviction O(1) a post.
	if c.head > 0 && c.head >= len(c.entries)/2 {
		c.entries = append(c.entries[:0], c.entries[c.head:]...)
		c.keys = append(c.keys[:0], c.keys[c.head:]...)
		c.first += uint32(c.head)
		c.head = 0
	}
}

// tally is what a post of the window shares with the post being placed, and the lookup it is of.
type tally struct {
	shared float64
	mark   uint32
}

// banded is a post of the window in a band: its SimHash, read without reading the post, and seq.
type banded struct {
	simhash uint64
	seq     uint32
}

// live returns the band's posts without those gone from the window, which sit at the front
// since posts are added in time order (mostly).
func (c *Clusterer) live(list []banded) []banded {
	i := 0
	for i < len(list) && c.gone(list[i].seq) {
		i++
	}
	return list[i:]
}

// gone reports whether the post numbered seq has left the window.
func (c *Clusterer) gone(seq uint32) bool {
	return seq-(c.first+uint32(c.head)) >= uint32(c.Len())
}

// entry is the post of the window numbered seq, which must not be gone.
func (c *Clusterer) entry(seq uint32) *entry { return c.entries[seq-c.first] }

// featureID is the id of a post's feature, 0 when it does not have it or has no id yet.
func featureID(s *signature, f feature) uint32 {
	if i, found := search(s.features, f); found {
		return s.features[i].id
	}
	return 0
}

// lowerOf is how many times posts of the window write a word of s in lowercase.
func (c *Clusterer) lowerOf(s *signature, h uint64) int32 {
	id := featureID(s, feature{kind: kindWord, hash: h}) // no lookup in the table when s has its id
	if id == 0 {
		id = c.feats.lookup(h)
	}
	return c.feats.infos[id].lower
}

// dfOf is how many posts of the window have a feature.
func (c *Clusterer) dfOf(f feature) int {
	if f.id != 0 {
		return c.feats.df(f.id)
	}
	return c.feats.df(c.feats.lookup(f.hash))
}

// featureTable numbers the features (and the words written in lowercase, in the same space of
// hashes) of the window's posts with 32-bit ids, and keeps for each how many posts of the
// window have it (its df), how many write it in lowercase and the latest posts that have it
// (ringSize): a slice of seqs, not a map entry a post. An id is free again once no post of the
// window has or writes it.
type featureTable struct {
	ids   map[uint64]uint32 // by hash; id 0 is no feature
	infos []featureInfo     // by id: what is read of a feature together, in one place
	free  []uint32
	chunk []uint32 // where new rings take their first slots
}

// featureInfo is what the window knows of a feature.
type featureInfo struct {
	hash  uint64
	df    int32 // posts of the window that have it
	lower int32 // times posts of the window write it in lowercase
	// ring holds the seqs of the latest posts with the feature (up to size, written round from
	// at once full); those gone from the window are the oldest.
	ring     []uint32
	at, size uint16
}

// ringSize is how many of the latest posts with a feature of a kind the table keeps: the
// recentPostings that find candidates, and for words and skeletons maxPostings, so that evidence
// can count the posts of the window outside a story that write a name (outside).
func ringSize(k kind) uint16 {
	if k == kindWord || k == kindSkeleton {
		return maxPostings
	}
	return recentPostings
}

// firstSlots is how many postings a new feature's ring holds before it grows.
const firstSlots = 4

func newFeatureTable() featureTable {
	return featureTable{ids: map[uint64]uint32{}, infos: make([]featureInfo, 1)}
}

// lookup is the feature's id, 0 when no post of the window has it.
func (t *featureTable) lookup(h uint64) uint32 { return t.ids[h] }

// df is how many posts of the window have the feature.
func (t *featureTable) df(id uint32) int { return int(t.infos[id].df) }

// intern returns the feature's id, numbering it if new.
func (t *featureTable) intern(h uint64) uint32 {
	if id, ok := t.ids[h]; ok {
		return id
	}
	var id uint32
	if n := len(t.free); n > 0 {
		id = t.free[n-1]
		t.free = t.free[:n-1]
	} else {
		id = uint32(len(t.infos))
		t.infos = append(t.infos, featureInfo{})
	}
	t.infos[id].hash = h
	t.ids[h] = id
	return id
}

// post records that the post numbered seq, the newest of the window, has the feature.
func (t *featureTable) post(id, seq uint32, size uint16) {
	f := &t.infos[id]
	f.df++
	if len(f.ring) == 0 {
		f.size, f.at = size, 0
	}
	if cap(f.ring) == 0 {
		// Most features are rare: their first slots come from a shared chunk, not an allocation
		// each.
		if len(t.chunk) < firstSlots {
			t.chunk = make([]uint32, 4096)
		}
		f.ring, t.chunk = t.chunk[:0:firstSlots], t.chunk[firstSlots:]
	}
	if len(f.ring) < int(f.size) {
		if len(f.ring) == cap(f.ring) {
			f.ring = append(make([]uint32, 0, min(2*cap(f.ring), int(f.size))), f.ring...)
		}
		f.ring = append(f.ring, seq)
		return
	}
	f.ring[f.at] = seq
	if f.at++; f.at == f.size {
		f.at = 0
	}
}

// recent returns the seqs of the latest recentPostings posts with the feature (some of them
// maybe gone) in two parts, since the ring may wrap between them.
func (t *featureTable) recent(id uint32) ([]uint32, []uint32) {
	f := &t.infos[id]
	if len(f.ring) < int(f.size) || f.size == 0 { // not full yet, or a word never posted
		return f.ring[max(0, len(f.ring)-recentPostings):], nil
	}
	at := int(f.at) // the oldest; the newest is before it
	if at >= recentPostings {
		return f.ring[at-recentPostings : at], nil
	}
	return f.ring[len(f.ring)-(recentPostings-at):], f.ring[:at]
}

// all returns the seqs of the latest posts with the feature kept (ringSize), some of them maybe
// gone: for a word or a skeleton, every post of the window that has it when its df is
// maxPostings or less.
func (t *featureTable) all(id uint32) []uint32 { return t.infos[id].ring }

// unpost and unlower undo post and a lowercase count for a post leaving the window.
func (t *featureTable) unpost(id uint32) {
	t.infos[id].df--
	t.release(id)
}

func (t *featureTable) unlower(id uint32) {
	t.infos[id].lower--
	t.release(id)
}

// release frees the id once no post of the window has or writes the feature.
func (t *featureTable) release(id uint32) {
	f := &t.infos[id]
	if f.df > 0 || f.lower > 0 {
		return
	}
	delete(t.ids, f.hash)
	f.ring, f.at = f.ring[:0], 0
	t.free = append(t.free, id)
}

func band(h uint64, i int) uint16 { return uint16(h >> (16 * i)) }

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
