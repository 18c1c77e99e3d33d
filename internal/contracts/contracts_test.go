package contracts

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/query"
)

// The committed files are what the generator writes from today's Go: a change to a contract
// or to an alert channel's rules on either side without `make contracts` fails here.
func TestGeneratedFileIsCurrent(t *testing.T) {
	files, err := Files(os.DirFS(filepath.Join("..", "..")))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range files {
		got, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is out of date: run `make contracts` and commit it", path)
		}
	}
}

type inner struct {
	Shared string `json:"shared"`
}

type sample struct {
	inner
	Plain      string         `json:"plain"`
	Optional   int64          `json:"optional,omitempty"`
	Nullable   *int64         `json:"nullable"`
	Maybe      *inner         `json:"maybe,omitempty"`
	Hidden     string         `json:"-"`
	When       time.Time      `json:"when"`
	Tags       []string       `json:"tags"`
	Counts     map[string]int `json:"counts"`
	Kinds      []string       `json:"kinds"`
	AsString   int64          `json:"asString,string"`
	Untagged   bool
	Anonymous  struct{ N int } `json:"anonymous"`
	unexported int
}

// narrowed embeds sample's inner and narrows its promoted field, as a sharer narrows a person's role.
type narrowed struct {
	inner
	Extra string `json:"extra"`
}

type withMarshaler struct {
	D custom `json:"d"`
}

type custom struct{}

func (custom) MarshalJSON() ([]byte, error) { return []byte(`1`), nil }

type namesake struct {
	A int `json:"a"`
}

// twice has "shared" at two depths: encoding/json keeps the shallower one, which the generator
// does not model yet, so it refuses rather than write the wrong one.
type twice struct {
	inner
	Shared int `json:"shared"`
}

func TestGenerate(t *testing.T) {
	sampleType := reflect.TypeFor[sample]()
	cases := []struct {
		name    string
		in      Contracts
		want    []string // each must appear in the output
		wantErr string
	}{
		{
			name: "fields as encoding/json writes them",
			in: Contracts{
				Unions:     []Union{{Const: "KINDS", Type: "Kind", Values: []string{"a", "it's"}}},
				Types:      []Type{{Go: sampleType, Name: "Sample"}},
				UnionField: []UnionField{{Struct: sampleType, Field: "Kinds", Union: "Kind"}},
			},
			want: []string{
				"export const KINDS = ['a', 'it\\'s'] as const;\nexport type Kind = (typeof KINDS)[number];",
				"export interface Sample {\n  shared: string;\n  plain: string;\n  optional?: number;\n  nullable: number | null;\n  maybe?: inner;\n  when: string;\n  tags: string[];\n  counts: Record<string, number>;\n  kinds: Kind[];\n  asString: string;\n  Untagged: boolean;\n  anonymous: {\n    N: number;\n  };\n}",
				"export interface inner {\n  shared: string;\n}",
			},
		},
		{
			name: "numbers and lists of numbers",
			in:   Contracts{Constants: []Constant{{Name: "MAX", Doc: "At most.", Value: 4}, {Name: "INTERVALS", Values: []int{0, 60, 300}}}},
			want: []string{"/** At most. */\nexport const MAX = 4;\nexport const INTERVALS = [0, 60, 300] as const;"},
		},
		{
			name: "live events and their payloads",
			in:   Contracts{Events: []Event{{Key: "ping", Name: "a.ping", Payload: reflect.TypeFor[inner]()}}},
			want: []string{"export const LIVE_EVENTS = {\n  ping: 'a.ping',\n} as const;", "  'a.ping': inner;", "export interface inner {"},
		},
		{
			name: "an outer struct narrows a promoted field",
			in: Contracts{
				Unions:     []Union{{Const: "KINDS", Type: "Kind", Values: []string{"a"}}},
				Types:      []Type{{Go: reflect.TypeFor[narrowed]()}},
				UnionField: []UnionField{{Struct: reflect.TypeFor[narrowed](), Field: "Shared", Union: "Kind"}},
			},
			want: []string{"export interface narrowed {\n  shared: Kind;\n  extra: string;\n}"},
		},
		{
			name: "the Go doc comments of types and fields come along",
			in:   Contracts{Types: []Type{{Go: reflect.TypeFor[query.Hit](), Name: "MatchedTerm"}}},
			want: []string{
				"/**\n * Hit is a term of a query that a field of a post contains: why the post matched.\n *\n * Go: query.Hit (internal/query).\n */\nexport interface MatchedTerm {",
				"  /** Term is the term as the query language writes it: flood, \"bridge closed\", flo*, flod~1. */\n  term: string;",
			},
		},
		{
			name:    "a type with its own MarshalJSON is refused",
			in:      Contracts{Types: []Type{{Go: reflect.TypeFor[withMarshaler]()}}},
			wantErr: "MarshalJSON",
		},
		{
			name:    "two Go types under one name are refused",
			in:      Contracts{Types: []Type{{Go: reflect.TypeFor[namesake](), Name: "Same"}, {Go: reflect.TypeFor[inner](), Name: "Same"}}},
			wantErr: "names both",
		},
		{
			name:    "two fields under one JSON name are refused",
			in:      Contracts{Types: []Type{{Go: reflect.TypeFor[twice]()}}},
			wantErr: "two fields named shared",
		},
		{
			name:    "a field narrowed to an unknown union is refused",
			in:      Contracts{Types: []Type{{Go: sampleType}}, UnionField: []UnionField{{Struct: sampleType, Field: "Plain", Union: "Nope"}}},
			wantErr: "unknown union",
		},
		{
			name: "a union on a field that is not a string is refused",
			in: Contracts{
				Unions:     []Union{{Const: "KINDS", Type: "Kind", Values: []string{"a"}}},
				Types:      []Type{{Go: sampleType}},
				UnionField: []UnionField{{Struct: sampleType, Field: "Untagged", Union: "Kind"}},
			},
			wantErr: "not a string",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Generate(tc.in, os.DirFS(filepath.Join("..", "..")))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks\n%s\n--- output:\n%s", w, out)
				}
			}
		})
	}
}
