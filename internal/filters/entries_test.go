package filters

import (
	"slices"
	"strings"
	"testing"
)

func values(entries []Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Value
	}
	return out
}

func TestClean(t *testing.T) {
	long := strings.Repeat("x", MaxEntryLength+1)
	tests := []struct {
		name        string
		typ         Type
		in          []string
		existing    []Entry
		want        []string
		stripped    Stripped
		unsupported []string
	}{
		{"keywords are trimmed and inner space collapsed", Keyword, []string{"  dirty   bomb ", "protest"},
			nil, []string{"dirty bomb", "protest"}, Stripped{}, nil},
		{"blank values are skipped without a count", Keyword, []string{"", "   ", "riot"},
			nil, []string{"riot"}, Stripped{}, nil},
		{"duplicates compare folded: case, accents, spacing", Keyword, []string{"Café", "cafe", "CAFÉ ", "caf\u00e9"},
			nil, []string{"Café"}, Stripped{Duplicates: 3}, nil},
		{"duplicates of existing entries", Keyword, []string{"Riot", "looting"},
			[]Entry{{ID: 1, Value: "riot", Key: "riot"}}, []string{"looting"}, Stripped{Duplicates: 1}, nil},
		{"under three characters", Keyword, []string{"ai", "a", "war", "北京"},
			nil, []string{"war"}, Stripped{TooShort: 3}, nil},
		{"over the maximum length", Keyword, []string{long, "ok then"},
			nil, []string{"ok then"}, Stripped{TooLong: 1}, nil},
		{"keywords without letters or digits", Keyword, []string{"!!!", "***", "#osint"},
			nil, []string{"#osint"}, Stripped{Unsearchable: 1 + 1}, nil},
		{"authors: '@' does not count and does not make a new author", Author, []string{"@Bob_News", "bob_news", "@ab", "abc"},
			nil, []string{"@Bob_News", "abc"}, Stripped{Duplicates: 1, TooShort: 1}, nil},
		{"authors may be punctuation-heavy handles", Author, []string{"---", "j.doe"},
			nil, []string{"---", "j.doe"}, Stripped{}, nil},
		{"objects take the vocabulary's spelling", ObjectDetection, []string{"Police  Car", "RIFLE", "rifle"},
			nil, []string{"police car", "rifle"}, Stripped{Duplicates: 1}, nil},
		{"unsupported objects are reported once each", ObjectDetection, []string{"spaceship", "person", "Spaceship", "spaceship", "tv"},
			nil, []string{"person"}, Stripped{}, []string{"spaceship", "Spaceship", "tv"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, stripped, unsupported := clean(tt.typ, tt.in, tt.existing)
			if got := values(kept); !slices.Equal(got, tt.want) {
				t.Errorf("kept %q, want %q", got, tt.want)
			}
			if stripped != tt.stripped {
				t.Errorf("stripped %+v, want %+v", stripped, tt.stripped)
			}
			if !slices.Equal(unsupported, tt.unsupported) {
				t.Errorf("unsupported %q, want %q", unsupported, tt.unsupported)
			}
			for _, e := range kept {
				if e.Key != entryKey(tt.typ, e.Value) {
					t.Errorf("entry %q has key %q, want %q", e.Value, e.Key, entryKey(tt.typ, e.Value))
				}
			}
		})
	}
}

func TestStrippedMessage(t *testing.T) {
	tests := []struct {
		in   Stripped
		want string
	}{
		{Stripped{}, ""},
		{Stripped{Duplicates: 1}, "1 keyword was removed: 1 duplicate."},
		{Stripped{Duplicates: 2, TooShort: 1}, "3 keywords were removed: 2 duplicates and 1 shorter than 3 characters."},
		{Stripped{Duplicates: 1, TooShort: 1, TooLong: 1, Unsearchable: 2},
			"5 keywords were removed: 1 duplicate, 1 shorter than 3 characters, 1 longer than 255 characters and 2 without letters or digits."},
	}
	for _, tt := range tests {
		if got := tt.in.Message(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.in, got, tt.want)
		}
	}
}
