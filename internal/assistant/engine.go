package assistant

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/post"
)

// Cited is one sentence of an answer with the posts it comes from: 1-based positions in the
// posts the engine was given.
type Cited struct {
	Text  string
	Cites []int
}

// Answer is what an engine says: cited sentences, and the prompt it worked from (hashed into
// the audit log).
type Answer struct {
	Sentences []Cited
	Prompt    string
}

// Engine answers questions and summarizes, from the posts it is given only.
type Engine interface {
	// Model names the engine in the audit log: "extractive" or the language model's name.
	Model() string
	// Answer answers the question from posts (best first); history is the conversation so far.
	Answer(ctx context.Context, question string, history []Turn, posts []post.Post) (Answer, error)
	// Summarize says what the posts are about in at most n sentences.
	Summarize(ctx context.Context, posts []post.Post, n int) (Answer, error)
}

// Extractive is the embedded engine: it writes nothing, it quotes. An answer is the sentences of
// the retrieved posts that best match the question (BM25 over the posts' sentences), each cited;
// a summary is the sentences most representative of the posts.
type Extractive struct{}

// ExtractiveModel is the extractive engine's name in the audit log.
const ExtractiveModel = "extractive"

// answerSentences bounds an extractive answer; perPost bounds the sentences quoted of one post,
// so an answer spans posts.
const (
	answerSentences = 4
	perPost         = 2
	// maxMerged bounds the posts one repeated sentence cites.
	maxMerged = 3
)

func (Extractive) Model() string { return ExtractiveModel }

type candidate struct {
	text  string
	terms []string
	post  int // 0-based
	score float64
}

func (Extractive) Answer(_ context.Context, question string, history []Turn, posts []post.Post) (Answer, error) {
	weights := questionWeights(question, history)
	var all []candidate
	for i, p := range posts {
		for _, s := range postSentences(p) {
			all = append(all, candidate{text: s, terms: terms(s, p.Language), post: i})
		}
	}
	docs := make([][]string, len(all))
	for i, c := range all {
		docs[i] = c.terms
	}
	ranker := newBM25(docs)
	for i := range all {
		if !relevant(all[i].terms, weights, coverage(weights)) {
			continue
		}
		all[i].score = ranker.score(all[i].terms, weights)
		if len(all[i].terms) < 3 {
			all[i].score /= 2 // a fragment says less than a sentence
		}
	}
	slices.SortStableFunc(all, func(a, b candidate) int { return cmp.Compare(b.score, a.score) })
	var out []Cited
	var kept []candidate
	quoted := map[int]int{}
	for _, c := range all {
		if c.score <= 0 || len(out) == answerSentences {
			break
		}
		dup := slices.IndexFunc(kept, func(k candidate) bool { return similar(k.terms, c.terms) })
		if dup >= 0 {
			// The same words in another post: one more source for the sentence, not a repeat.
			if !slices.Contains(out[dup].Cites, c.post+1) && len(out[dup].Cites) < maxMerged {
				out[dup].Cites = append(out[dup].Cites, c.post+1)
			}
			continue
		}
		if quoted[c.post] == perPost {
			continue
		}
		quoted[c.post]++
		kept = append(kept, c)
		out = append(out, Cited{Text: Excerpt(c.text, maxSentenceRunes), Cites: []int{c.post + 1}})
	}
	return Answer{Sentences: out, Prompt: extractivePrompt(question, posts)}, nil
}

// questionWeights are the question's terms (weight 1) and the previous question's (0.5): a
// follow-up such as "and was anybody arrested?" keeps the topic of the question before.
func questionWeights(question string, history []Turn) map[string]float64 {
	w := map[string]float64{}
	if len(history) > 0 {
		for _, t := range terms(history[len(history)-1].Question, "en") {
			w[t] = 0.5
		}
	}
	for _, t := range terms(question, "en") {
		w[t] = 1
	}
	return w
}

// relevant says whether text holds at least need of the question's own terms (weight 1), or,
// for a question of none ("tell me more"), one of the previous question's: the topic of the
// question before ranks a follow-up's sentences but never answers a new question alone.
func relevant(text []string, weights map[string]float64, need int) bool {
	own := 0
	for _, w := range weights {
		if w == 1 {
			own++
		}
	}
	if own == 0 {
		need = 1
	}
	found := map[string]bool{}
	for _, t := range text {
		if w, ok := weights[t]; ok && (w == 1 || own == 0) {
			found[t] = true
		}
	}
	return len(found) >= need
}

// coverage is how many of the question's own terms a sentence must hold: one for a short
// question, a third of them (rounded up) for a longer one, so a broad question ("which
// cybersecurity threats to banks are discussed?") is not answered by one word ("banks").
func coverage(weights map[string]float64) int {
	own := 0
	for _, w := range weights {
		if w == 1 {
			own++
		}
	}
	return max(1, (own+2)/3)
}

func extractivePrompt(question string, posts []post.Post) string {
	var b strings.Builder
	b.WriteString(question)
	for i, p := range posts {
		fmt.Fprintf(&b, "\n[%d] %s", i+1, p.ID)
	}
	return b.String()
}

// Summarize picks the sentences that best represent the posts: each sentence scores by how
// common its words are across all the posts (a centroid), normalised by length, at most one
// sentence a post (of several), so the summary spans posts. Every sentence is quoted verbatim and cited.
func (Extractive) Summarize(_ context.Context, posts []post.Post, n int) (Answer, error) {
	freq := map[string]int{}
	var all []candidate
	for i, p := range posts {
		seen := map[string]bool{}
		for _, sentence := range postSentences(p) {
			ws := summaryWords(sentence)
			for _, w := range ws {
				if !seen[w] {
					seen[w] = true
					freq[w]++
				}
			}
			all = append(all, candidate{text: sentence, terms: ws, post: i})
		}
	}
	for i, c := range all {
		if len(c.terms) < 3 {
			continue // too short to say anything
		}
		var sum float64
		for _, w := range c.terms {
			sum += float64(freq[w])
		}
		all[i].score = sum / math.Sqrt(float64(len(c.terms)))
	}
	slices.SortStableFunc(all, func(a, b candidate) int { return cmp.Compare(b.score, a.score) })
	var out []Cited
	used := map[int]bool{}
	for _, c := range all {
		if len(out) == n || c.score == 0 {
			break
		}
		if used[c.post] && len(posts) > 1 {
			continue // one sentence a post, unless there is one post (an analysis)
		}
		used[c.post] = true
		out = append(out, Cited{Text: Excerpt(c.text, maxSentenceRunes), Cites: []int{c.post + 1}})
	}
	return Answer{Sentences: out, Prompt: extractivePrompt("summary", posts)}, nil
}

// summaryWords are a sentence's lowercased words of four letters or more (short words are mostly
// grammar).
func summaryWords(s string) []string {
	var out []string
	for _, w := range terms(s, "") {
		if utf8.RuneCountInString(w) >= 4 {
			out = append(out, w)
		}
	}
	return out
}
