package filters

import (
	"slices"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/problem"
)

func TestParseCSV(t *testing.T) {
	tests := []struct {
		name    string
		upload  Upload
		want    []string
		wantErr string // the message on the "file" field
	}{
		{"one column", Upload{Filename: "list.csv", Body: []byte("riot\nlooting\n")},
			[]string{"riot", "looting"}, ""},
		{"one row, upper-case extension", Upload{Filename: "LIST.CSV", Body: []byte("riot, looting ,arson")},
			[]string{"riot", "looting ", "arson"}, ""},
		{"ragged rows, quoted commas, empty cells", Upload{Filename: "l.csv", Body: []byte("a1,\"b, c\"\n\n,d4,\ne5\r\n")},
			[]string{"a1", "b, c", "d4", "e5"}, ""},
		{"a header row is skipped", Upload{Filename: "l.csv", Body: []byte("Keywords,\nriot\n")},
			[]string{"riot"}, ""},
		{"a header word later is a keyword", Upload{Filename: "l.csv", Body: []byte("riot\nkeyword\n")},
			[]string{"riot", "keyword"}, ""},
		{"Excel's byte-order mark", Upload{Filename: "l.csv", Body: []byte("\uFEFFkeyword\nriot")},
			[]string{"riot"}, ""},
		{"raw text/csv body", Upload{ContentType: "text/csv; charset=utf-8", Body: []byte("riot")},
			[]string{"riot"}, ""},
		{"raw body as Excel's type", Upload{ContentType: "application/vnd.ms-excel", Body: []byte("riot")},
			[]string{"riot"}, ""},
		{"empty file", Upload{Filename: "l.csv", Body: nil}, nil, ""},
		{"named file that is not .csv", Upload{Filename: "list.xlsx", ContentType: "text/csv", Body: []byte("riot")},
			nil, MsgNotCSV},
		{"raw body that is not CSV", Upload{ContentType: "application/json", Body: []byte(`["riot"]`)},
			nil, MsgNotCSV},
		{"raw body without a type", Upload{Body: []byte("riot")}, nil, MsgNotCSV},
		{"binary content", Upload{Filename: "l.csv", Body: []byte("PK\x03\x04\x00\x00")}, nil, MsgNotUTF8},
		{"not UTF-8", Upload{Filename: "l.csv", Body: []byte("caf\xe9\n")}, nil, MsgNotUTF8},
		{"unbalanced quote", Upload{Filename: "l.csv", Body: []byte("riot\n\"looting\n")},
			nil, `The file is not well-formed CSV: line 2: extraneous or missing " in quoted-field.`},
		{"bare quote", Upload{Filename: "l.csv", Body: []byte("ri\"ot\n")},
			nil, `The file is not well-formed CSV: line 1: bare " in non-quoted-field.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseCSV(tt.upload)
			if tt.wantErr != "" {
				p, ok := problem.As(err)
				if !ok || p.Kind != problem.KindInvalid || len(p.Fields["file"]) != 1 || p.Fields["file"][0] != tt.wantErr {
					t.Fatalf("error %v (%+v), want %q on file", err, p, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("cells %q, want %q", got, tt.want)
			}
		})
	}
}

func FuzzParseCSV(f *testing.F) {
	for _, seed := range []string{"riot\nlooting", "a,\"b, c\"\n\n,d", "keyword\nx", "\"unclosed", "a\"b", "\uFEFFx,y\r\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		cells, err := ParseCSV(Upload{Filename: "f.csv", Body: body})
		if err != nil {
			if p, ok := problem.As(err); !ok || p.Kind != problem.KindInvalid || len(p.Fields["file"]) == 0 {
				t.Fatalf("error is not a problem on the file field: %v", err)
			}
			return
		}
		for _, c := range cells {
			if strings.TrimSpace(c) == "" {
				t.Fatalf("blank cell returned from %q", body)
			}
		}
		// Whatever parses must go through cleaning without surprises.
		kept, _, _ := clean(Keyword, cells, nil)
		for _, e := range kept {
			if e.Value == "" || e.Key == "" {
				t.Fatalf("empty entry %+v from %q", e, body)
			}
		}
	})
}
