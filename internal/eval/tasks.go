package eval

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sightline/sightline/internal/enrich"
	"github.com/sightline/sightline/internal/geo"
)

// Tasks are the scored tasks, in report order.
func Tasks() []Task {
	return []Task{
		{Name: "threat", Target: fmt.Sprintf("recall ≥ %.2f at score ≥ %d; benign false-positive rate ≤ %.2f at score ≥ %d", threatRecallTarget, enrich.HighThreat, benignFPRTarget, benignCeiling), Score: scoreThreat},
		{Name: "language", Target: fmt.Sprintf("accuracy ≥ %.2f on posts of %d to %d characters; below, a wrong language detected (not und, not the provider's declared one kept) ≤ %.2f", languageAccuracyTarget, shortPost, longPost, shortWrongTarget), Score: scoreLanguage},
		{Name: "places", Target: fmt.Sprintf("precision ≥ %.2f, recall ≥ %.2f on place mentions", placePrecisionTarget, placeRecallTarget), Score: scorePlaces},
		{Name: "stories", Target: fmt.Sprintf("pairwise F1 ≥ %.2f within a language, ≥ %.2f across languages; precision ≥ %.2f on look-alike pairs", storiesWithinF1Target, storiesAcrossF1Target, storiesLookalikePrecision), Score: scoreStories,
			HoldoutSet: "stories-round5", TuneSets: []string{"stories-round3"}, Pending: "issue 30"},
	}
}

const (
	threatRecallTarget = 0.90
	benignFPRTarget    = 0.05
	// benignCeiling is the score a benign use of threatening words stays under.
	benignCeiling = 15

	languageAccuracyTarget = 0.95
	shortWrongTarget       = 0.02
	shortPost, longPost    = 20, 120

	placePrecisionTarget = 0.90
	placeRecallTarget    = 0.85
)

func decodeExpect(it Item, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(it.Expect)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: expect: %w", it.ID, err)
	}
	return nil
}

// scoreThreat counts a post as flagged when its score is high (enrich.HighThreat or more).
// A "threat" item should be flagged; a "benign" one should stay under benignCeiling.
func scoreThreat(items []Item) (Result, error) {
	var res Result
	benign, benignOver := 0, 0
	for _, it := range items {
		var want struct {
			Threat string `json:"threat"` // "threat" or "benign"
		}
		if err := decodeExpect(it, &want); err != nil {
			return res, err
		}
		score := enrich.Threat(it.Text, enrich.Entities(it.Text))
		flagged := score.Score >= enrich.HighThreat
		got := fmt.Sprintf("%d (%s)", score.Score, strings.Join(score.Reasons, "; "))
		switch want.Threat {
		case "threat":
			if flagged {
				res.count(it.Lang, Figures{TP: 1})
			} else {
				res.count(it.Lang, Figures{FN: 1})
				res.Errors = append(res.Errors, Error{it.ID, it.Lang, it.Text, fmt.Sprintf("≥ %d", enrich.HighThreat), got})
			}
		case "benign":
			benign++
			if flagged {
				res.count(it.Lang, Figures{FP: 1})
			} else {
				res.count(it.Lang, Figures{TN: 1})
			}
			if score.Score >= benignCeiling {
				benignOver++
				res.Errors = append(res.Errors, Error{it.ID, it.Lang, it.Text, fmt.Sprintf("< %d", benignCeiling), got})
			}
		default:
			return res, fmt.Errorf("%s: expect.threat is %q, want threat or benign", it.ID, want.Threat)
		}
	}
	fpr := ratioOrZero(benignOver, benign)
	res.Extra = map[string]float64{"benign_false_positive_rate": fpr}
	if r := res.Overall.Recall(); r < threatRecallTarget {
		res.Failures = append(res.Failures, fmt.Sprintf("recall %.3f < %.2f", r, threatRecallTarget))
	}
	if fpr > benignFPRTarget {
		res.Failures = append(res.Failures, fmt.Sprintf("benign false-positive rate %.3f > %.2f", fpr, benignFPRTarget))
	}
	return res, nil
}

// scoreLanguage compares the language a post is given (from its text and the provider's
// declared language, as ingest does) with the language it is written in. Each wrong answer is
// a false negative for the right language and a false positive for the one named.
func scoreLanguage(items []Item) (Result, error) {
	var res Result
	inRange, inRangeRight, short, shortWrong, shortDeclared := 0, 0, 0, 0, 0
	for _, it := range items {
		var want struct {
			Language string `json:"language"` // ISO 639-1, or "und" for a text too short to tell
			Declared string `json:"declared"` // what the provider says, which may be wrong
		}
		if err := decodeExpect(it, &want); err != nil {
			return res, err
		}
		got := enrich.PostLanguage(it.Text, want.Declared)
		n := len([]rune(it.Text))
		right := got == want.Language
		switch {
		case n < shortPost:
			short++
			switch {
			case right || got == enrich.Undetermined:
			case got == strings.ToLower(want.Declared):
				// Too short to contradict, the provider's word stands (the rule); a wrong one
				// is the provider's error, counted apart from the detector's.
				shortDeclared++
			default:
				shortWrong++
			}
		case n <= longPost:
			inRange++
			if right {
				inRangeRight++
			}
		}
		if right {
			res.count(want.Language, Figures{TP: 1})
			continue
		}
		res.count(want.Language, Figures{FN: 1})
		if got != enrich.Undetermined {
			res.count(got, Figures{FP: 1})
		}
		res.Errors = append(res.Errors, Error{it.ID, it.Lang, it.Text, want.Language, got})
	}
	acc := ratioOrZero(inRangeRight, inRange)
	wrong := ratioOrZero(shortWrong, short)
	res.Extra = map[string]float64{"accuracy_20_to_120_chars": acc, "wrong_language_below_20_chars": wrong,
		"wrong_declared_language_kept_below_20_chars": ratioOrZero(shortDeclared, short)}
	if inRange == 0 {
		res.Failures = append(res.Failures, "no items of 20 to 120 characters")
	} else if acc < languageAccuracyTarget {
		res.Failures = append(res.Failures, fmt.Sprintf("accuracy %.3f < %.2f", acc, languageAccuracyTarget))
	}
	if wrong > shortWrongTarget {
		res.Failures = append(res.Failures, fmt.Sprintf("wrong language below %d characters %.3f > %.2f", shortPost, wrong, shortWrongTarget))
	}
	return res, nil
}

// place is a labelled mention: a place's name as the gazetteer writes it and its country.
type place struct {
	Name    string `json:"name"`
	Country string `json:"country"`
}

func (p place) key() string { return geo.NameKey(p.Name) + "|" + strings.ToUpper(p.Country) }

// scorePlaces compares the places found in each post with the labelled ones, by name and
// country.
func scorePlaces(items []Item) (Result, error) {
	var res Result
	g, err := geo.LoadGazetteer()
	if err != nil {
		return res, err
	}
	for _, it := range items {
		var want struct {
			Places []place `json:"places"`
		}
		if err := decodeExpect(it, &want); err != nil {
			return res, err
		}
		expected := map[string]bool{}
		for _, p := range want.Places {
			expected[p.key()] = true
		}
		var gotNames []string
		found := map[string]bool{}
		for _, m := range g.MentionedLocations(it.Text) {
			p := place{m.Name, m.CountryCode}
			found[p.key()] = true
			gotNames = append(gotNames, m.Name+", "+m.CountryCode)
		}
		var f Figures
		for k := range found {
			if expected[k] {
				f.TP++
			} else {
				f.FP++
			}
		}
		for k := range expected {
			if !found[k] {
				f.FN++
			}
		}
		res.count(it.Lang, f)
		if f.FP+f.FN > 0 {
			var wantNames []string
			for _, p := range want.Places {
				wantNames = append(wantNames, p.Name+", "+p.Country)
			}
			res.Errors = append(res.Errors, Error{it.ID, it.Lang, it.Text, listOrNone(wantNames), listOrNone(gotNames)})
		}
	}
	if p := res.Overall.Precision(); p < placePrecisionTarget {
		res.Failures = append(res.Failures, fmt.Sprintf("precision %.3f < %.2f", p, placePrecisionTarget))
	}
	if r := res.Overall.Recall(); r < placeRecallTarget {
		res.Failures = append(res.Failures, fmt.Sprintf("recall %.3f < %.2f", r, placeRecallTarget))
	}
	return res, nil
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	slices.Sort(s)
	return "[" + strings.Join(s, "; ") + "]"
}

func ratioOrZero(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
