// Package eval scores what Sightline says about a post (threat, language, places) against
// labelled sets written by hand and kept in testdata/eval, one JSONL file per task. Each item
// falls by its id into the tuning half or the held-out half (or, for a task with a HoldoutSet,
// by the file it is in); figures are reported on the held-out half, which nobody tunes on
// (docs/accuracy.md).
package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Item is one labelled post: a line of a set's JSONL file.
type Item struct {
	ID     string `json:"id"`
	Lang   string `json:"lang"`   // the language the text is written in, ISO 639-1
	Text   string `json:"text"`   // the post's text
	Source string `json:"source"` // where the text comes from or what it is modelled on
	// Expect is the task's label; each task reads its own shape.
	Expect json.RawMessage `json:"expect"`
}

// Split names a half of a set.
type Split string

const (
	Tune    Split = "tune"    // the half a developer may read and tune on
	Holdout Split = "holdout" // the half reported, read only at the end
	All     Split = "all"
)

// ParseSplit reads a --split value.
func ParseSplit(s string) (Split, error) {
	switch sp := Split(s); sp {
	case Tune, Holdout, All:
		return sp, nil
	}
	return "", fmt.Errorf("split %q: want tune, holdout or all", s)
}

// SplitOf is the half an item belongs to, fixed by its id so that nobody chooses which items
// are held out.
func SplitOf(id string) Split {
	h := fnv.New32a()
	h.Write([]byte(id))
	if h.Sum32()%2 == 0 {
		return Tune
	}
	return Holdout
}

// Task is one thing Sightline says about a post, scored on its own set.
type Task struct {
	Name   string // the set's file name without .jsonl
	Target string // the targets in words, for the report
	// Score runs the product on the items and compares with their labels.
	Score func(items []Item) (Result, error)
	// HoldoutSet, when set, names a file (without .jsonl) written after the others were read:
	// the whole of it is then the held-out half, and the whole of Name.jsonl and of TuneSets the
	// tuning half, instead of halves drawn by id from one file.
	HoldoutSet string
	// TuneSets are earlier held-out files, tuned on once read.
	TuneSets []string
	// Pending names the open issue still building the task's feature: it is scored and its
	// misses reported, but they do not fail `sightline eval` or `make test` until the issue
	// closes and this is emptied. Never set it on a task that once met its targets.
	Pending string
}

// Result is a task's figures on one split.
type Result struct {
	Task      string              `json:"task"`
	Split     Split               `json:"split"`
	Items     int                 `json:"items"`
	Overall   Figures             `json:"overall"`
	Languages map[string]*Figures `json:"languages"`
	// Extra holds task-specific figures (false-positive rate, accuracy on short posts).
	Extra  map[string]float64 `json:"extra,omitempty"`
	Target string             `json:"target"`
	// Failures name each target missed; empty when the task meets its targets.
	Failures []string `json:"failures"`
	// Pending is the task's Pending: its failures are reported, not counted by Check.
	Pending string  `json:"pending,omitempty"`
	Errors  []Error `json:"errors"`
}

// Error is one item the product got wrong.
type Error struct {
	ID   string `json:"id"`
	Lang string `json:"lang"`
	Text string `json:"text"`
	Want string `json:"want"`
	Got  string `json:"got"`
}

// Figures are counts of true and false positives and false negatives, and what they make.
type Figures struct {
	TP int `json:"tp"`
	FP int `json:"fp"`
	FN int `json:"fn"`
	TN int `json:"tn"`
}

func (f *Figures) add(g Figures) { f.TP += g.TP; f.FP += g.FP; f.FN += g.FN; f.TN += g.TN }

// Precision is TP/(TP+FP), 1 when nothing was predicted.
func (f Figures) Precision() float64 { return ratio(f.TP, f.TP+f.FP) }

// Recall is TP/(TP+FN), 1 when nothing was expected.
func (f Figures) Recall() float64 { return ratio(f.TP, f.TP+f.FN) }

// F1 is the harmonic mean of precision and recall.
func (f Figures) F1() float64 {
	p, r := f.Precision(), f.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// MarshalJSON adds the derived figures.
func (f Figures) MarshalJSON() ([]byte, error) {
	type counts Figures
	return json.Marshal(struct {
		counts
		Precision float64 `json:"precision"`
		Recall    float64 `json:"recall"`
		F1        float64 `json:"f1"`
	}{counts(f), f.Precision(), f.Recall(), f.F1()})
}

// count adds g to the overall figures and to the item's language.
func (r *Result) count(lang string, g Figures) {
	r.Overall.add(g)
	if r.Languages == nil {
		r.Languages = map[string]*Figures{}
	}
	if r.Languages[lang] == nil {
		r.Languages[lang] = &Figures{}
	}
	r.Languages[lang].add(g)
}

// Load reads a task's set from dir and keeps the items of the split: drawn by id from Name.jsonl,
// or, for a task with a HoldoutSet, whole files: HoldoutSet for the held-out half, Name and
// TuneSets for the tuning half, all of them for All.
func Load(dir string, t Task, split Split) ([]Item, error) {
	if t.HoldoutSet != "" {
		var files []string
		if split != Holdout {
			files = append(append(files, t.Name), t.TuneSets...)
		}
		if split != Tune {
			files = append(files, t.HoldoutSet)
		}
		var items []Item
		ids := map[string]bool{}
		for _, name := range files {
			got, err := loadFile(dir, name)
			if err != nil {
				return nil, err
			}
			for _, it := range got {
				if ids[it.ID] {
					return nil, fmt.Errorf("%s.jsonl: id %q is in two files", name, it.ID)
				}
				ids[it.ID] = true
			}
			items = append(items, got...)
		}
		return items, nil
	}
	items, err := loadFile(dir, t.Name)
	if err != nil || split == All {
		return items, err
	}
	return slices.DeleteFunc(items, func(it Item) bool { return SplitOf(it.ID) != split }), nil
}

func loadFile(dir, name string) ([]Item, error) {
	f, err := os.Open(filepath.Join(dir, name+".jsonl"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	items, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s.jsonl: %w", name, err)
	}
	return items, nil
}

// Read parses a JSONL set: one item a line, blank lines skipped. Every item needs an id (unique),
// a language, a text, a source and a label.
func Read(r io.Reader) ([]Item, error) {
	var items []Item
	ids := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var it Item
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&it); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		switch {
		case it.ID == "" || it.Lang == "" || it.Text == "" || it.Source == "" || len(it.Expect) == 0:
			return nil, fmt.Errorf("line %d: id, lang, text, source and expect are required", line)
		case ids[it.ID]:
			return nil, fmt.Errorf("line %d: id %q repeats", line, it.ID)
		}
		ids[it.ID] = true
		items = append(items, it)
	}
	return items, sc.Err()
}

// Run scores each task on the split of its set in dir.
func Run(dir string, tasks []Task, split Split) ([]Result, error) {
	var results []Result
	for _, t := range tasks {
		items, err := Load(dir, t, split)
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			return nil, fmt.Errorf("%s: no items in the %s split", t.Name, split)
		}
		res, err := t.Score(items)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		res.Task, res.Split, res.Items, res.Target, res.Pending = t.Name, split, len(items), t.Target, t.Pending
		results = append(results, res)
	}
	return results, nil
}

// ErrBelowTarget is returned by Check when a task misses a target.
var ErrBelowTarget = errors.New("below target")

// Check returns ErrBelowTarget, naming the tasks, when any result misses a target.
func Check(results []Result) error {
	var missed []string
	for _, r := range results {
		if r.Pending != "" {
			continue
		}
		for _, f := range r.Failures {
			missed = append(missed, r.Task+": "+f)
		}
	}
	if len(missed) > 0 {
		return fmt.Errorf("%w: %s", ErrBelowTarget, strings.Join(missed, "; "))
	}
	return nil
}

// WriteText prints the results as a report: figures per task and language, then up to
// maxErrors errors per task.
func WriteText(w io.Writer, results []Result, maxErrors int) {
	for _, r := range results {
		status := "meets its targets"
		if len(r.Failures) > 0 {
			status = "BELOW TARGET: " + strings.Join(r.Failures, "; ")
			if r.Pending != "" {
				status += " (not yet failing the run: " + r.Pending + " is open)"
			}
		}
		fmt.Fprintf(w, "%s (%s half, %d items): %s\n  target: %s\n", r.Task, r.Split, r.Items, status, r.Target)
		fmt.Fprintf(w, "  %-8s %9s %9s %9s %6s %6s %6s\n", "language", "precision", "recall", "F1", "TP", "FP", "FN")
		writeFigures(w, "all", r.Overall)
		langs := make([]string, 0, len(r.Languages))
		for l := range r.Languages {
			langs = append(langs, l)
		}
		slices.Sort(langs)
		for _, l := range langs {
			writeFigures(w, l, *r.Languages[l])
		}
		extras := make([]string, 0, len(r.Extra))
		for k := range r.Extra {
			extras = append(extras, k)
		}
		slices.Sort(extras)
		for _, k := range extras {
			fmt.Fprintf(w, "  %s: %.3f\n", k, r.Extra[k])
		}
		fmt.Fprintf(w, "  %d errors", len(r.Errors))
		if len(r.Errors) > maxErrors {
			fmt.Fprintf(w, " (first %d)", maxErrors)
		}
		fmt.Fprintln(w)
		for i, e := range r.Errors {
			if i == maxErrors {
				break
			}
			fmt.Fprintf(w, "    %s [%s] want %s, got %s: %s\n", e.ID, e.Lang, e.Want, e.Got, clip(e.Text, 100))
		}
		fmt.Fprintln(w)
	}
}

func writeFigures(w io.Writer, name string, f Figures) {
	fmt.Fprintf(w, "  %-8s %9.3f %9.3f %9.3f %6d %6d %6d\n", name, f.Precision(), f.Recall(), f.F1(), f.TP, f.FP, f.FN)
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
