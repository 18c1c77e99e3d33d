package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/sightline/sightline/internal/eval"
)

func runEval(args []string) error {
	fs := newFlagSet("eval", "Score what Sightline says about a post (threat, language, places) against the labelled sets, and fail when a task misses its target.")
	var sets, splitName, only string
	var asJSON bool
	var maxErrors int
	fs.StringVar(&sets, "sets", "testdata/eval", "directory of the labelled sets, one TASK.jsonl per task")
	fs.StringVar(&splitName, "split", string(eval.Holdout), "which half to score: holdout (reported), tune (the half to tune on) or all")
	fs.StringVar(&only, "task", "", "score only these tasks, comma-separated (threat,language,places)")
	fs.IntVar(&maxErrors, "errors", -1, "errors listed per task (default 20 on the tune half and all; none on the held-out half, whose errors nobody tunes on)")
	fs.BoolVar(&asJSON, "json", false, "print the results as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	split, err := eval.ParseSplit(splitName)
	if err != nil {
		return err
	}
	if maxErrors < 0 {
		maxErrors = 20
		if split == eval.Holdout {
			maxErrors = 0
		}
	}
	tasks := eval.Tasks()
	if only != "" {
		names := strings.Split(only, ",")
		for _, n := range names {
			if !slices.ContainsFunc(tasks, func(t eval.Task) bool { return t.Name == n }) {
				return fmt.Errorf("eval: no task %q", n)
			}
		}
		tasks = slices.DeleteFunc(tasks, func(t eval.Task) bool { return !slices.Contains(names, t.Name) })
	}
	results, err := eval.Run(sets, tasks, split)
	if err != nil {
		return err
	}
	if asJSON {
		if err := json.NewEncoder(os.Stdout).Encode(results); err != nil {
			return err
		}
	} else {
		eval.WriteText(os.Stdout, results, maxErrors)
	}
	return eval.Check(results)
}
