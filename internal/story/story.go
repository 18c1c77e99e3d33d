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
	// mark is the lookup that last found it a candidate, and shared what it shares with that
	// lookup's post.
	mark   uint64
	shared float64
	gone   bool
}

// Clusterer assigns posts to stories. It is not safe for concurrent use: posts are added in one
// order, the stream's.
type Clusterer struct {
	entries  []*entry // in the order added, oldest first, from head on
	head     int
	postings map[uint64][]*entry
	texts    map[uint64]*entry
	bands    [4]map[uint16][]*entry
	lower    map[uint64]int32 // how many posts of the window write a word in lowercase
	now      time.Time        // the latest publication time seen: the window ends there
	epoch    uint64           // counts lookups: a post of the window marked with it is a candidate of this one
	touched  []*entry         // the candidates of this lookup
	finders  []finder         // the features of this lookup that find candidates
	cands    []candidate
	perStory map[string]int
	roots    map[string]*entry // each story's first post, while in the window
	ids      map[string]*entry
	natives  map[string]*entry // by provider and native id, for replies to find their parent
	analyzer analyzer
}

// New returns an empty clusterer.
func New() *Clusterer {
	c := &Clusterer{postings: map[uint64][]*entry{}, texts: map[uint64]*entry{}, lower: map[uint64]int32{}, roots: map[string]*entry{}, ids: map[string]*entry{}, natives: map[string]*entry{}, perStory: map[string]int{}}
	for i := range c.bands {
		c.bands[i] = map[uint16][]*entry{}
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
	story := p.ID
	if e := c.parent(p); e != nil {
		// A reply is part of its thread's conversation about the event ("Can confirm, I'm
		// nearby"), whatever it says.
		story = e.story
	} else if e := c.match(p, &sig); e != nil {
		story = e.story
	}
	c.insert(p, sig, story)
	return story
}

// Seed puts a post already assigned to a story into the window, as when the window is rebuilt
// from the store at start.
func (c *Clusterer) Seed(p *post.Post, story string) {
	if c.ids[p.ID] != nil {
		return
	}
	c.advance(p.PublishedAt)
	c.insert(p, c.analyzer.sign(p), story)
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
func (c *Clusterer) match(p *post.Post, sig *signature) *entry {
	if e := c.texts[sig.text]; e != nil && !e.gone && sig.tokens > 0 {
		return e
	}
	if sig.tokens >= minNearTokens {
		for i, b := range c.bands {
			for _, e := range b[band(sig.simhash, i)] {
				if !e.gone && e.sig.tokens >= minNearTokens && bits.OnesCount64(e.sig.simhash^sig.simhash) <= nearBits && !vetoed(c, sig, &e.sig, comparable(e.lang, p.Language)) {
					return e
				}
			}
		}
	}

	c.epoch++
	c.touched = c.touched[:0]
	var norm float64 // over the features the cosine compares: not links, which decide alone
	w := make([]float64, len(sig.features))
	c.finders = c.finders[:0]
	for i, f := range sig.features {
		list := c.live(f.hash)
		w[i] = weight(f, len(list))
		if inCosine(f.kind) {
			norm += w[i] * w[i]
		}
		// A word many posts use picks no story out: it counts in the cosine (computed in full
		// for the best candidates below), not in finding them, which bounds the work a long
		// post costs.
		if len(list) == 0 || len(list) > maxPostings || (f.kind == kindWord || f.kind == kindSkeleton) && len(list) > recentPostings {
			continue
		}
		c.finders = append(c.finders, finder{i, len(list), list})
	}
	for _, fd := range c.finders {
		i, list := fd.i, fd.list
		// The latest posts with a feature are the likeliest to report the same event; looking
		// no further bounds the work a post. What a post shares is summed on the post itself
		// (marked with this lookup's epoch), not in a map: a long post touches thousands.
		for _, e := range list[max(0, len(list)-recentPostings):] {
			if e.mark != c.epoch {
				e.mark, e.shared = c.epoch, 0
				c.touched = append(c.touched, e)
			}
			e.shared += w[i] * w[i] // a feature weighs the same in both posts but for its df
		}
	}
	norm = math.Sqrt(norm)

	// The cosine's numerator costs a merge of the two posts' features: only the candidates
	// sharing the most are worth it, kept in order as they are found (most of them are
	// turned away by one comparison) rather than all sorted. A candidate's norm is the one it
	// had when added: the weights drift slowly, and reweighing it costs a lookup a feature.
	c.cands = c.cands[:0]
	for _, e := range c.touched {
		c.cands = keepBest(c.cands, candidate{e, overlap{shared: e.shared}})
	}
	var best *entry
	bestScore := 0.0
	// The candidates come from different stories where they can: eight copies of one story's
	// template would hide the story the post belongs to.
	clear(c.perStory)
	compared := 0
	for _, cand := range c.cands {
		if compared == maxCandidates {
			break
		}
		e := cand.e
		if c.perStory[e.story] == perStory {
			continue
		}
		c.perStory[e.story]++
		compared++
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
			if vetoed(c, sig, &e.sig, sameLang) || root != nil && vetoed(c, sig, &root.sig, comparable(root.lang, p.Language)) {
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
	list := c.postings[f.hash]
	if len(list) > maxPostings {
		return len(list) // a word that common names nothing
	}
	n := 0
	for _, e := range list {
		if e.story != story {
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
	for i, j := 0, 0; i < len(a.features) && j < len(b.features); {
		switch c := compareFeatures(a.features[i], b.features[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			if inCosine(a.features[i].kind) {
				d += w[i] * w[i]
			}
			i++
			j++
		}
	}
	return d
}

// finder is a feature of the post being placed that finds candidates: its index, its postings.
type finder struct {
	i, df int
	list  []*entry
}

// keepBest inserts cand into cands, kept in order (most shared first, then by id) and to
// keptCandidates at most.
func keepBest(cands []candidate, cand candidate) []candidate {
	less := func(a, b candidate) bool { // a goes before b
		if a.shared != b.shared {
			return a.shared > b.shared
		}
		return a.e.id < b.e.id
	}
	n := len(cands)
	if n == keptCandidates && !less(cand, cands[n-1]) {
		return cands
	}
	i := n
	for i > 0 && less(cand, cands[i-1]) {
		i--
	}
	if n < keptCandidates {
		cands = append(cands, candidate{})
	}
	copy(cands[i+1:], cands[i:len(cands)-1])
	cands[i] = cand
	return cands
}

// candidate is a post of the window sharing features with the post being placed.
type candidate struct {
	e *entry
	overlap
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
	var s float64
	n := 0
	for _, f := range a.features {
		// Other words are the ones two events of a kind share ("strike", "outage").
		if f.kind == kindSmallNumber || f.kind == kindWord && !slices.Contains(a.names, f.hash) && !slices.Contains(b.names, f.hash) {
			continue
		}
		// A name both write alike counts once, as a word.
		if f.kind == kindSkeleton && sameNameWritten(a, b, f.hash) {
			continue
		}
		placeName := slices.Contains(a.placeNames, f.hash) || slices.Contains(b.placeNames, f.hash)
		if hasFeature(b, f) {
			df := len(c.postings[f.hash])
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

// vetoed reports whether two posts name different things the same way: different places, or
// (with no place in common) different names where both are named ("MICRON CROSSES $900B", "SK
// HYNIX CROSSES $900B"), which only posts in one language can be compared on. A shared link overrides: it is the same
// article.
func vetoed(c *Clusterer, a, b *signature, sameLang bool) bool {
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
	if !mentions(b, na[0]) && !mentions(a, nb[0]) {
		return true
	}
	return !sharesName(a, b, na, nb)
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
		if sk.skel == skel && hasFeature(b, feature{kindWord, sk.word}) {
			return true
		}
	}
	return false
}

// sharesName reports whether either post writes a name of the other (na of a, nb of b).
func sharesName(a, b *signature, na, nb []uint64) bool {
	for _, h := range na {
		if mentions(b, h) {
			return true
		}
	}
	for _, h := range nb {
		if mentions(a, h) {
			return true
		}
	}
	return false
}

// mentions reports whether a post writes a word: among its features, or among its names for
// the words too short to be features ("SK", "EU").
func mentions(s *signature, word uint64) bool {
	return hasFeature(s, feature{kindWord, word}) || slices.Contains(s.names, word)
}

// names are the words a post writes as names that no post of the window writes in lowercase.
func (c *Clusterer) names(s *signature) []uint64 {
	var out []uint64
	for i, h := range s.names {
		if i >= 64 || s.proper&(1<<i) == 0 {
			continue
		}
		if c.lower[h] == 0 {
			out = append(out, h)
		}
	}
	return out
}

// locatedOnlyIn reports whether a names, after a preposition of place, a name b does not write
// (in any script) nor name as a place.
func locatedOnlyIn(a, b *signature) bool {
	for _, h := range a.located {
		if !hasFeature(b, feature{kindSkeleton, h}) && !slices.Contains(b.placeNames, h) {
			return true
		}
	}
	return false
}

// placeOnlyIn reports whether a names a place b does not.
func placeOnlyIn(a, b *signature) bool {
	for _, f := range a.features {
		if f.kind == kindPlace && !hasFeature(b, f) {
			return true
		}
	}
	return false
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
	_, found := slices.BinarySearchFunc(s.features, f, compareFeatures)
	return found
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

func (c *Clusterer) insert(p *post.Post, sig signature, story string) {
	e := &entry{id: p.ID, story: story, native: nativeKey(p.Provider, p.NativeID), lang: p.Language, at: p.PublishedAt, sig: sig}
	if e.native != "" {
		c.natives[e.native] = e
	}
	var norm float64
	for _, f := range sig.features {
		list := c.live(f.hash)
		w := weight(f, len(list))
		if inCosine(f.kind) {
			norm += w * w
		}
		c.postings[f.hash] = append(list, e)
	}
	e.norm = math.Sqrt(norm)
	if e.norm == 0 {
		e.norm = 1
	}
	if _, ok := c.texts[sig.text]; !ok || c.texts[sig.text].gone {
		c.texts[sig.text] = e
	}
	for i, b := range c.bands {
		k := band(sig.simhash, i)
		b[k] = append(live(b[k]), e)
	}
	for _, h := range sig.lower {
		c.lower[h]++
	}
	if c.roots[story] == nil {
		c.roots[story] = e
	}
	c.ids[e.id] = e
	c.entries = append(c.entries, e)
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
		for _, h := range e.sig.lower {
			if c.lower[h]--; c.lower[h] <= 0 {
				delete(c.lower, h)
			}
		}
		// Trimming the lists the post is in keeps memory to the window's posts.
		for _, f := range e.sig.features {
			c.live(f.hash)
		}
		for i, b := range c.bands {
			k := band(e.sig.simhash, i)
			if l := live(b[k]); len(l) == 0 {
				delete(b, k)
			} else {
				b[k] = l
			}
		}
	}
	// Moving the live posts down once half the slice is gone keeps eviction O(1) a post.
	if c.head > 0 && c.head >= len(c.entries)/2 {
		c.entries = append(c.entries[:0], c.entries[c.head:]...)
		c.head = 0
	}
}

// live returns the feature's postings without the posts gone from the window, which sit at the
// front since posts are added in time order (mostly).
func (c *Clusterer) live(h uint64) []*entry {
	list := c.postings[h]
	trimmed := live(list)
	if len(trimmed) == 0 && len(list) > 0 {
		delete(c.postings, h)
		return nil
	}
	if len(trimmed) != len(list) {
		c.postings[h] = trimmed
	}
	return trimmed
}

func live(list []*entry) []*entry {
	i := 0
	for i < len(list) && list[i].gone {
		i++
	}
	return list[i:]
}

func band(h uint64, i int) uint16 { return uint16(h >> (16 * i)) }

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
