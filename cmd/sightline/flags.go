package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// parseFlags parses args, then fills every flag not given on the command line from its
// environment variable: --data-dir from SIGHTLINE_DATA_DIR, and so on.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] || err != nil {
			return
		}
		if v, ok := os.LookupEnv(envName(f.Name)); ok {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s: %w", envName(f.Name), e)
			}
		}
	})
	return err
}

func envName(flagName string) string {
	return "SIGHTLINE_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// newFlagSet makes a flag set whose usage lists each flag's environment variable.
func newFlagSet(name, summary string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: sightline %s [flags]\n\n%s\n\nflags (each also read from its environment variable):\n", name, summary)
		fs.VisitAll(func(f *flag.Flag) {
			fmt.Fprintf(fs.Output(), "  --%s (%s)\n    \t%s", f.Name, envName(f.Name), f.Usage)
			if f.DefValue != "" {
				fmt.Fprintf(fs.Output(), " (default %q)", f.DefValue)
			}
			fmt.Fprintln(fs.Output())
		})
	}
	return fs
}

// storeFlags are the flags of every command that opens the store.
type storeFlags struct {
	dataDir       string
	db            string
	secretKeyFile string
}

func (s *storeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.dataDir, "data-dir", "./data", "directory for the SQLite store and the embedded stream")
	fs.StringVar(&s.db, "db", "", "store: a postgres:// URL, or a SQLite file (default: sightline.db in the data dir)")
	fs.StringVar(&s.secretKeyFile, "secret-key-file", "", "file holding the base64 key that seals the store's secrets; "+
		"or the key itself in SIGHTLINE_SECRET_KEY (default: secret.key in the data dir, generated once)")
}

// switchFlag is a boolean flag that also reads on/off and yes/no, as people write them in
// environment variables (SIGHTLINE_SIMULATOR=off).
type switchFlag struct{ value *bool }

func (s switchFlag) String() string {
	if s.value != nil && *s.value {
		return "on"
	}
	return "off"
}

func (s switchFlag) Set(v string) error {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "yes", "1":
		*s.value = true
	case "off", "false", "no", "0":
		*s.value = false
	default:
		return fmt.Errorf("%q is not on or off", v)
	}
	return nil
}

// IsBoolFlag lets --simulator stand alone for --simulator=on.
func (s switchFlag) IsBoolFlag() bool { return true }
