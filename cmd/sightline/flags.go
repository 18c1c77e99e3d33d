package main

import (
	"errors"
	"flag"
	"fmt"
	"net/netip"
	"os"
	"slices"
	"strings"

	"github.com/sightline/sightline/internal/outbound"
)

// parseFlags parses args, which must all be flags, then fills every flag not given on the
// command line from its environment variable: --data-dir from SIGHTLINE_DATA_DIR, and so on.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := parseFlagsAndArgs(fs, args); err != nil {
		return err
	}
	// The flag package stops at the first argument that is not a flag, so a stray word would
	// silently drop every flag after it.
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q (flags are written --name value or --name=value)", fs.Name(), fs.Arg(0))
	}
	return nil
}

// parseFlagsAndArgs is parseFlags for commands that take arguments after their flags.
func parseFlagsAndArgs(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(joinSwitchValues(fs, args)); err != nil {
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

// joinSwitchValues turns "--simulator off" into "--simulator=off": a switch may stand alone,
// so the flag package would otherwise take "off" for the first argument and stop there.
func joinSwitchValues(fs *flag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		out = append(out, a)
		if a == "--" || !strings.HasPrefix(a, "-") || len(a) == 1 {
			out = append(out, args[i+1:]...)
			break
		}
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") || i+1 == len(args) {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if _, ok := f.Value.(switchFlag); ok {
			if _, err := switchValue(args[i+1]); err == nil {
				out[len(out)-1] = a + "=" + args[i+1]
				i++
			}
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
			out = append(out, args[i+1]) // the flag's value, even when it starts with a dash
			i++
		}
	}
	return out
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
	on, err := switchValue(v)
	if err != nil {
		return err
	}
	*s.value = on
	return nil
}

func switchValue(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "yes", "1":
		return true, nil
	case "off", "false", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("%q is not on or off", v)
}

// IsBoolFlag lets --simulator stand alone for --simulator=on; parseFlags also reads the
// separate value of "--simulator off".
func (s switchFlag) IsBoolFlag() bool { return true }

// allowlistFlag reads an operator's allowlist of addresses and CIDR ranges that a kind of
// outbound caller may reach although they are not public: "off" for none, or
// "127.0.0.1/32,10.1.2.0/24". Where everywhere is set, "on" allows every address (cloud metadata
// never is).
type allowlistFlag struct {
	value      *[]netip.Prefix
	everywhere bool
}

func (a allowlistFlag) String() string {
	if a.value == nil || len(*a.value) == 0 {
		return "off"
	}
	if slices.Equal(*a.value, outbound.Everywhere) {
		return "on"
	}
	var items []string
	for _, p := range *a.value {
		items = append(items, p.String())
	}
	return strings.Join(items, ",")
}

func (a allowlistFlag) Set(v string) error {
	if strings.EqualFold(strings.TrimSpace(v), "on") {
		if !a.everywhere {
			return errors.New(`"on" is not accepted here: list the addresses or CIDR ranges to allow`)
		}
		*a.value = outbound.Everywhere
		return nil
	}
	allow, err := outbound.ParseAllowlist(v)
	if err != nil {
		return err
	}
	*a.value = allow
	return nil
}
