package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sightline/sightline/internal/query"
)

func runQuery(args []string) error {
	if len(args) == 0 {
		return errors.New(`usage: sightline query match < lines.ndjson | sightline query check [--mode beacon] "QUERY"`)
	}
	switch args[0] {
	case "match":
		return runQueryMatch(args[1:], os.Stdin, os.Stdout)
	case "check":
		return runQueryCheck(args[1:], os.Stdout)
	}
	return fmt.Errorf("query: unknown subcommand %q (match, check)", args[0])
}

func modeFlag(args []string, name, summary string) (query.Mode, []string, error) {
	fs := newFlagSet("query "+name, summary)
	mode := fs.String("mode", string(query.ModeSavedSearch), "validation rules: saved_search or beacon")
	if err := parseFlagsAndArgs(fs, args); err != nil {
		return "", nil, err
	}
	m := query.Mode(*mode)
	if m != query.ModeSavedSearch && m != query.ModeBeacon {
		return "", nil, fmt.Errorf("--mode: %q is neither saved_search nor beacon", *mode)
	}
	return m, fs.Args(), nil
}

// matchLine is one input line of `query match`; title is optional.
type matchLine struct {
	Query string `json:"query"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

type matchError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

type matchOutput struct {
	Valid    bool         `json:"valid"`
	Errors   []matchError `json:"errors"`
	Warnings []matchError `json:"warnings,omitempty"`
	Match    bool         `json:"match"`
}

// runQueryMatch answers one output line per input line, in order; a line that is not valid
// JSON gets an answer with the error bad_input rather than stopping the run.
func runQueryMatch(args []string, in io.Reader, out io.Writer) error {
	mode, rest, err := modeFlag(args, "match", "Read NDJSON lines {\"query\", \"text\"[, \"title\"]} on stdin; write {\"valid\", \"errors\", \"match\"} for each.")
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return errors.New("query match takes no arguments; it reads stdin")
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	var text query.Text
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		res := matchOutput{Errors: []matchError{}}
		var line matchLine
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			res.Errors = append(res.Errors, matchError{Code: "bad_input", Message: err.Error()})
		} else {
			q, issues := query.Parse(line.Query, mode)
			for _, is := range issues {
				e := matchError{Code: is.Code, Message: is.Message}
				if is.Severity == query.SeverityError {
					res.Errors = append(res.Errors, e)
				} else {
					res.Warnings = append(res.Warnings, e)
				}
			}
			if q != nil {
				res.Valid = true
				text.Reset(line.Title, line.Text)
				res.Match = q.Match(&text)
			}
		}
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return w.Flush()
}

func runQueryCheck(args []string, out io.Writer) error {
	usage := errors.New(`usage: sightline query check [--mode beacon] "QUERY"`)
	if len(args) == 0 {
		return usage
	}
	// The query is the last argument, so one starting with '-' ("-spam") is not taken for a flag.
	text := args[len(args)-1]
	mode, rest, err := modeFlag(args[:len(args)-1], "check", "Print the validation messages, the keyword list and the summary of QUERY.")
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return usage
	}
	q, issues := query.Parse(text, mode)
	if q != nil {
		fmt.Fprintln(out, "valid")
	} else {
		fmt.Fprintln(out, "invalid")
	}
	for _, is := range issues {
		fmt.Fprintf(out, "%s %s: %s\n", is.Severity, is.Code, is.Message)
	}
	if q != nil {
		fmt.Fprintln(out, "parsed:", q.String())
	}
	fmt.Fprintln(out, "keywords:")
	for _, k := range query.Keywords(text) {
		fmt.Fprintln(out, "  -", k)
	}
	fmt.Fprintln(out, "summary:", query.Summary(text))
	if q == nil {
		return errors.New("the query is not valid")
	}
	return nil
}
