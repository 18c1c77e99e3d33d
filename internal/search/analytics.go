package search

import (
	"cmp"
	"context"
	"embed"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/query"
)

// Analytics bounds. A search can match most of a million posts; reading them all would take
// seconds, so the analysis reads the newest matches for a fixed time and says so.
const (
	WordCloudSize = 100
	DailyDays     = 7
	// analyticsBudget and maxAnalyzed bound the candidates read; the daily counts of the days
	// the reading did not reach are estimated from the candidates' counts.
	analyticsBudget = 200 * time.Millisecond
	maxAnalyzed     = 20_000
	analyticsBatch  = 500
	minWordRunes    = 3
)

// countBudget bounds the count of the candidates of the days the reading did not reach (a
// variable so that tests can take it away).
var countBudget = 150 * time.Millisecond

// readTimeout cuts short a read of candidates that outlasts the budget (a variable so that
// tests on a clock of their own are not cut short by a busy machine's real one).
var readTimeout = analyticsBudget

// Analytics is what a search's results are about: their most used words and how many there
// were each day of the last week.
type Analytics struct {
	WordCloud []WordCount `json:"wordCloud"`
	Daily     []DayCount  `json:"daily"`
	// Analyzed is how many matching posts the word cloud counts; Complete is false when they
	// are the newest of more (the rest were not read in time).
	Analyzed int  `json:"analyzed"`
	Complete bool `json:"complete"`
	// DailyIsEstimate is true when some day's count is estimated rather than counted.
	DailyIsEstimate bool `json:"dailyIsEstimate"`
}

// WordCount is a word and the number of analyzed posts that use it.
type WordCount struct {
	Word  string `json:"word"`
	Count int    `json:"count"`
}

// DayCount is the number of matching posts published on a UTC day (YYYY-MM-DD).
type DayCount struct {
	Date  string `json:"date"`
	Count int    `json:"count"`
}

// Analyze reads a search's matches, newest first, for the word cloud and the daily graph.
func (s *Service) Analyze(ctx context.Context, e provider.Entitlements, category provider.Category, r Request) (Analytics, error) {
	p, err := s.prepare(e, category, r)
	if err != nil {
		return Analytics{}, err
	}
	q := PostQuery{Keywords: p.keywords, From: p.from, To: p.to, Providers: p.providers,
		ImagesOnly: r.ImagesOnly, VideosOnly: r.VideosOnly, MinThreat: r.MinThreatScore, Within: p.within,
		Sort: post.SortPublishedDesc}

	days := lastDays(p.to, DailyDays)
	daily := make([]int, len(days))
	words := map[string]int{}
	var text query.Text
	a := Analytics{Complete: true}
	scanned, matched := 0, 0
	reached := p.to // everything published after reached has been read
	started := s.now()
	// One read of candidates can itself outlast the budget (a word in most posts, sorted by
	// time): the budget bounds the reads too, and a read it cuts short ends the reading.
	readCtx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	for {
		if scanned >= maxAnalyzed || s.now().Sub(started) >= analyticsBudget {
			a.Complete = false
			break
		}
		q.Limit = analyticsBatch
		candidates, err := s.store.CandidatePosts(readCtx, q)
		if err != nil && ctx.Err() == nil && readCtx.Err() != nil {
			a.Complete = false
			break
		}
		if err != nil {
			return Analytics{}, err
		}
		for i, c := range candidates {
			scanned++
			reached = c.Post.PublishedAt
			q.After = &candidates[i].Cursor
			if !p.compiled.Match(percolate.DocOf(c.Post), p.to) {
				continue
			}
			matched++
			if d := dayIndex(days, c.Post.PublishedAt); d >= 0 {
				daily[d]++
			}
			countWords(&text, c.Post, words)
		}
		if len(candidates) < analyticsBatch {
			break
		}
	}
	a.Analyzed = matched
	a.WordCloud = topWords(words, WordCloudSize)

	// The days the reading did not reach: their candidates counted (in one pass), times the
	// share of the read candidates that matched. When even the count would take too long, the
	// rate of the matches read is carried over those days instead.
	if !a.Complete && scanned > 0 && !reached.Before(days[0]) {
		from := latest(days[0], p.from)
		// Up to just before the last post read: those at that instant were partly read.
		to := reached.Add(-time.Millisecond)
		if !to.Before(from) {
			a.DailyIsEstimate = true
			cq := q
			cq.After, cq.From, cq.To = nil, from, to
			countCtx, cancelCount := context.WithTimeout(ctx, countBudget)
			counts, err := s.store.CountCandidatesByDay(countCtx, cq)
			cancelCount()
			switch {
			case err == nil:
				for i, day := range days {
					daily[i] += counts[day.Unix()/86400] * matched / scanned
				}
			case ctx.Err() == nil && countCtx.Err() != nil:
				perMs := float64(matched) / float64(max(p.to.Sub(reached).Milliseconds(), 1))
				for i, day := range days {
					start, end := latest(day, from), earliestOf(day.Add(24*time.Hour), to)
					if end.After(start) {
						daily[i] += int(perMs * float64(end.Sub(start).Milliseconds()))
					}
				}
			default:
				return Analytics{}, err
			}
		}
	}
	a.Daily = make([]DayCount, len(days))
	for i, day := range days {
		a.Daily[i] = DayCount{Date: day.Format(time.DateOnly), Count: daily[i]}
	}
	return a, nil
}

// lastDays is the start of each of the n UTC days up to and including the one holding end,
// oldest first.
func lastDays(end time.Time, n int) []time.Time {
	last := end.UTC().Truncate(24 * time.Hour)
	days := make([]time.Time, n)
	for i := range days {
		days[i] = last.AddDate(0, 0, i-n+1)
	}
	return days
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earliestOf(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func dayIndex(days []time.Time, t time.Time) int {
	i := int(t.UTC().Sub(days[0]) / (24 * time.Hour))
	if t.Before(days[0]) || i >= len(days) {
		return -1
	}
	return i
}

// countWords adds one to each word the post uses, once per post, leaving out stop words of
// the post's language and of English, numbers and words shorter than three letters.
func countWords(text *query.Text, p post.Post, words map[string]int) {
	text.Reset(p.TitleText, p.ContentText)
	stop := stopWordsOf(p.Language)
	english := stopWordsOf("en")
	for i := range text.Len() {
		w := text.Token(i)
		if utf8.RuneCountInString(w) < minWordRunes || stop[w] || english[w] || !hasLetter(w) {
			continue
		}
		if n, ok := words[w]; ok {
			words[w] = n + 1
		} else {
			words[strings.Clone(w)] = 1 // not the analyzed text's whole buffer
		}
	}
}

func hasLetter(w string) bool {
	return strings.IndexFunc(w, unicode.IsLetter) >= 0
}

// topWords is the n most used words, most used first, ties alphabetical.
func topWords(words map[string]int, n int) []WordCount {
	all := make([]WordCount, 0, len(words))
	for w, c := range words {
		all = append(all, WordCount{Word: w, Count: c})
	}
	slices.SortFunc(all, func(a, b WordCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Word, b.Word))
	})
	return all[:min(n, len(all))]
}

//go:embed stopwords/*.txt
var stopWordFiles embed.FS

var (
	stopWordsOnce sync.Once
	stopWords     map[string]map[string]bool // language code to folded words
)

// stopWordsOf is the stop-word set of a language (ISO 639-1), empty for languages without a
// list. The lists are folded as posts are, so "très" and "tres" are the same word.
func stopWordsOf(language string) map[string]bool {
	stopWordsOnce.Do(func() {
		stopWords = map[string]map[string]bool{}
		files, _ := stopWordFiles.ReadDir("stopwords")
		for _, f := range files {
			raw, _ := stopWordFiles.ReadFile("stopwords/" + f.Name())
			set := map[string]bool{}
			for _, w := range query.Tokens(string(raw)) {
				set[w] = true
			}
			stopWords[strings.TrimSuffix(f.Name(), ".txt")] = set
		}
	})
	return stopWords[strings.ToLower(language)]
}
