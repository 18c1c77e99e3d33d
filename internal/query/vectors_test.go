package query

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// vectors is testdata/vectors.json, the file the browser port runs too.
type vectors struct {
	Messages []struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"messages"`
	Validation []struct {
		Query  string `json:"query"`
		Mode   Mode   `json:"mode"`
		Issues []struct {
			Code     string   `json:"code"`
			Severity Severity `json:"severity"`
		} `json:"issues"`
	} `json:"validation"`
	Match []struct {
		Query string `json:"query"`
		Title string `json:"title"`
		Text  string `json:"text"`
		Match bool   `json:"match"`
		Valid *bool  `json:"valid"`
	} `json:"match"`
	Keywords []struct {
		Query    string   `json:"query"`
		Keywords []string `json:"keywords"`
		Summary  string   `json:"summary"`
	} `json:"keywords"`
	AutoName []struct {
		Current, Location, Keywords, Author, Name string
	} `json:"autoName"`
	DuplicateName []struct {
		Name      string `json:"name"`
		Duplicate string `json:"duplicate"`
	} `json:"duplicateName"`
}

func loadVectors(t *testing.T) vectors {
	t.Helper()
	data, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestVectorMessages(t *testing.T) {
	v := loadVectors(t)
	if len(v.Messages) != len(Codes) {
		t.Fatalf("vectors list %d messages, Codes %d", len(v.Messages), len(Codes))
	}
	for i, m := range v.Messages {
		if Codes[i].Code != m.Code || Codes[i].Message != m.Message {
			t.Errorf("message %d: got %q %q, vectors say %q %q", i, Codes[i].Code, Codes[i].Message, m.Code, m.Message)
		}
	}
}

func TestVectorValidation(t *testing.T) {
	v := loadVectors(t)
	messages := map[string]string{}
	for _, m := range v.Messages {
		messages[m.Code] = m.Message
	}
	for _, tt := range v.Validation {
		t.Run(string(tt.Mode)+"/"+short(tt.Query), func(t *testing.T) {
			var want []Issue
			for _, is := range tt.Issues {
				want = append(want, Issue{Code: is.Code, Message: messages[is.Code], Severity: is.Severity})
			}
			got := Validate(tt.Query, tt.Mode)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Validate(%q, %s)\n got  %v\n want %v", tt.Query, tt.Mode, got, want)
			}
		})
	}
}

func TestVectorMatch(t *testing.T) {
	v := loadVectors(t)
	var text Text
	for _, tt := range v.Match {
		t.Run(short(tt.Query)+"/"+short(tt.Text), func(t *testing.T) {
			q, issues := Parse(tt.Query, ModeSavedSearch)
			wantValid := tt.Valid == nil || *tt.Valid
			if (q != nil) != wantValid {
				t.Fatalf("Parse(%q): valid = %v, want %v (%v)", tt.Query, q != nil, wantValid, issues)
			}
			got := false
			if q != nil {
				text.Reset(tt.Title, tt.Text)
				got = q.Match(&text)
			}
			if got != tt.Match {
				t.Fatalf("%q on title %q text %q: match = %v, want %v", tt.Query, tt.Title, tt.Text, got, tt.Match)
			}
		})
	}
}

func TestVectorKeywords(t *testing.T) {
	v := loadVectors(t)
	for _, tt := range v.Keywords {
		t.Run(short(tt.Query), func(t *testing.T) {
			got := Keywords(tt.Query)
			if len(got) == 0 && len(tt.Keywords) == 0 {
				got = tt.Keywords
			}
			if !reflect.DeepEqual(got, tt.Keywords) {
				t.Errorf("Keywords(%q) = %q, want %q", tt.Query, got, tt.Keywords)
			}
			if s := Summary(tt.Query); s != tt.Summary {
				t.Errorf("Summary(%q) = %q, want %q", tt.Query, s, tt.Summary)
			}
		})
	}
}

func TestVectorNames(t *testing.T) {
	v := loadVectors(t)
	for _, tt := range v.AutoName {
		if got := AutoName(tt.Current, tt.Location, tt.Keywords, tt.Author); got != tt.Name {
			t.Errorf("AutoName(%q, %q, %q, %q) = %q, want %q", short(tt.Current), short(tt.Location), short(tt.Keywords), tt.Author, short(got), short(tt.Name))
		}
	}
	for _, tt := range v.DuplicateName {
		if got := DuplicateName(tt.Name); got != tt.Duplicate {
			t.Errorf("DuplicateName(%q) = %q, want %q", tt.Name, got, tt.Duplicate)
		}
	}
}

func short(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
