package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestQueryMatch(t *testing.T) {
	in := strings.Join([]string{
		`{"query": "café OR tea", "text": "Un CAFE noir"}`,
		`{"query": "a and b", "text": "a and b"}`,
		`not json`,
		``,
		`{"query": "\"new york\" -rain", "title": "Weather", "text": "sunny in new york"}`,
	}, "\n")
	var out bytes.Buffer
	if err := runQueryMatch(nil, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	var got []matchOutput
	dec := json.NewDecoder(&out)
	for dec.More() {
		var line matchOutput
		if err := dec.Decode(&line); err != nil {
			t.Fatal(err)
		}
		got = append(got, line)
	}
	if len(got) != 4 {
		t.Fatalf("got %d lines, want one per non-blank input line: %+v", len(got), got)
	}
	if !got[0].Valid || !got[0].Match || len(got[0].Errors) != 0 {
		t.Errorf("line 1: %+v", got[0])
	}
	if got[1].Valid || got[1].Match || len(got[1].Errors) != 1 || got[1].Errors[0].Code != "lowercase_operator" {
		t.Errorf("line 2: %+v", got[1])
	}
	if got[2].Valid || got[2].Errors[0].Code != "bad_input" {
		t.Errorf("line 3: %+v", got[2])
	}
	if !got[3].Valid || !got[3].Match {
		t.Errorf("line 5: %+v", got[3])
	}
}

func TestQueryMatchBeaconWarns(t *testing.T) {
	var out bytes.Buffer
	if err := runQueryMatch([]string{"--mode", "beacon"}, strings.NewReader(`{"query": "rock and roll", "text": "rock and roll"}`), &out); err != nil {
		t.Fatal(err)
	}
	var line matchOutput
	if err := json.Unmarshal(out.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	if !line.Valid || !line.Match || len(line.Warnings) != 1 || len(line.Errors) != 0 {
		t.Fatalf("%+v", line)
	}
}

func TestQueryCheck(t *testing.T) {
	var out bytes.Buffer
	if err := runQueryCheck([]string{`a b OR "c d", e`}, &out); err != nil {
		t.Fatal(err)
	}
	want := "valid\nparsed: ((a AND b) OR \"c d\" OR e)\nkeywords:\n  - a b\n  - \"c d\"\n  - e\nsummary: (a AND b) OR (\"c d\") OR (e)\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
	out.Reset()
	if err := runQueryCheck([]string{"-spam"}, &out); err == nil || !strings.Contains(out.String(), "no_positive_clause") {
		t.Fatalf("invalid query: err %v, output %q", err, out.String())
	}
}

// Deeply nested input is refused on its length or depth, in both commands.
func TestQueryDeepNesting(t *testing.T) {
	var out bytes.Buffer
	if err := runQueryCheck([]string{strings.Repeat("(", 800_000)}, &out); err == nil || !strings.Contains(out.String(), "error too_long:") {
		t.Fatalf("check: err %v, output %.200q", err, out.String())
	}
	out.Reset()
	in, _ := json.Marshal(matchLine{Query: "x " + strings.Repeat("-(", 600) + "a" + strings.Repeat(")", 600), Text: "x"})
	if err := runQueryMatch(nil, bytes.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	var line matchOutput
	if err := json.Unmarshal(out.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	if line.Valid || len(line.Errors) != 1 || line.Errors[0].Code != "too_deep" {
		t.Fatalf("match: %+v", line)
	}
}
