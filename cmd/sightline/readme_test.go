package main

import (
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readme is the repository's README.md.
func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every package directory under internal/ has its line in the README's layout block, and the
// block names no package that is gone.
func TestReadmeLayoutNamesEveryPackage(t *testing.T) {
	doc := readme(t)
	var layout string
	if _, after, ok := strings.Cut(doc, "```\ncmd/sightline/"); ok {
		layout, _, _ = strings.Cut(after, "```")
	}
	if layout == "" {
		t.Fatal("the README has no layout block starting with cmd/sightline/")
	}
	entries, err := os.ReadDir("../../internal")
	if err != nil {
		t.Fatal(err)
	}
	var packages []string
	for _, e := range entries {
		if e.IsDir() {
			packages = append(packages, e.Name())
		}
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(layout, "\n") {
		if m := regexp.MustCompile(`^internal/([a-z0-9]+)/`).FindStringSubmatch(line); m != nil {
			listed[m[1]] = true
		}
	}
	for _, p := range packages {
		if !listed[p] {
			t.Errorf("internal/%s/ has no line of its own in the README's layout block", p)
		}
	}
	for p := range listed {
		if !slices.Contains(packages, p) {
			t.Errorf("the README's layout block names internal/%s/, which does not exist", p)
		}
	}
}

// The README's configuration table and serve's flags are the same set, each row with the
// flag's environment variable.
func TestReadmeConfigurationTable(t *testing.T) {
	doc := readme(t)
	start := strings.Index(doc, "## Configuration (`sightline serve`)")
	if start < 0 {
		t.Fatal("the README has no configuration section")
	}
	section := doc[start:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	rows := regexp.MustCompile("(?m)^\\| `--([a-z0-9-]+)` \\| `([A-Z0-9_]+)` \\|").FindAllStringSubmatch(section, -1)
	if len(rows) == 0 {
		t.Fatal("the configuration table has no flag rows")
	}
	documented := map[string]bool{}
	for _, r := range rows {
		documented[r[1]] = true
		if r[2] != envName(r[1]) {
			t.Errorf("--%s: the table says %s, the flag reads %s", r[1], r[2], envName(r[1]))
		}
	}
	fs := serveFlags(&serveOptions{})
	fs.VisitAll(func(f *flag.Flag) {
		if !documented[f.Name] {
			t.Errorf("serve's --%s is not in the README's configuration table", f.Name)
		}
	})
	for name := range documented {
		if fs.Lookup(name) == nil {
			t.Errorf("the README's configuration table lists --%s, which serve does not take", name)
		}
	}
}
