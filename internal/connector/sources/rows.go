package sources

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/connector/rss"
)

// A managed source (a row of the sources table) is a type and that type's settings. The type
// is the key of its section of Config ("rss", "mastodon", "hackernews", ...) and the settings
// are that section's JSON without "enabled": a new connector that adds its section to Config
// and its branch to Build is a type rows may use, with no change here. RSS alone differs: a
// row is one feed, {"url", "provider", "interval", "backoff"}.

// Seed is a source to create: from the default public set or from a --sources file.
type Seed struct {
	Type    string          `json:"type"`
	Name    string          `json:"name"`
	Config  json.RawMessage `json:"config"`
	Enabled bool            `json:"enabled"`
}

// rssRow is an RSS row's settings: one feed.
type rssRow struct {
	URL      string             `json:"url"`
	Provider string             `json:"provider,omitempty"`
	Interval connector.Duration `json:"interval,omitzero"`
	Backoff  *connector.Backoff `json:"backoff,omitempty"`
}

// Types are the source types rows may have, sorted: every section of Config but the simulator,
// which is the node's own (--simulator).
func Types() []string {
	var types []string
	t := reflect.TypeFor[Config]()
	for i := range t.NumField() {
		if key := jsonKey(t.Field(i)); key != "" && key != "simulator" {
			types = append(types, key)
		}
	}
	slices.Sort(types)
	return types
}

func jsonKey(f reflect.StructField) string {
	key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if key == "-" {
		return ""
	}
	return key
}

// RowConfig is the configuration that runs exactly one row: its section on with the row's
// settings over the section's defaults, everything else off, and every wait at least its
// type's floor (Floors), whatever the stored settings say.
func RowConfig(typ, name string, settings json.RawMessage) (Config, error) {
	return Builder{}.rowConfig(typ, name, settings)
}

// rowConfig is RowConfig with the floors lifted when the builder lifts them.
func (b Builder) rowConfig(typ, name string, settings json.RawMessage) (Config, error) {
	cfg, err := rowConfig(typ, name, settings)
	if err != nil {
		return Config{}, err
	}
	if !b.LiftFloors {
		raiseToFloors(typ, &cfg)
	}
	return cfg, nil
}

// rowConfig is RowConfig with the waits as the settings say.
func rowConfig(typ, name string, settings json.RawMessage) (Config, error) {
	cfg := Default()
	cfg.Simulator.Enabled = false
	if !slices.Contains(Types(), typ) {
		return Config{}, &SettingsError{Field: "type", Message: fmt.Sprintf("The type must be one of: %s.", strings.Join(Types(), ", "))}
	}
	if len(bytes.TrimSpace(settings)) == 0 || string(bytes.TrimSpace(settings)) == "null" {
		settings = json.RawMessage(`{}`)
	}
	if typ == "rss" {
		var row rssRow
		if err := strictDecode(settings, &row); err != nil {
			return Config{}, settingsError(typ, err)
		}
		if strings.TrimSpace(row.URL) == "" {
			return Config{}, &SettingsError{Field: "config.url", Message: "An RSS or Atom source needs the feed's address (config.url)."}
		}
		cfg.RSS.Enabled = true
		cfg.RSS.Feeds = []rss.Feed{{Name: name, URL: strings.TrimSpace(row.URL), Provider: row.Provider, Interval: row.Interval}}
		if row.Backoff != nil {
			cfg.RSS.Backoff = *row.Backoff
		}
		return cfg, nil
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(settings, &probe); err != nil {
		return Config{}, &SettingsError{Field: "config", Message: "The settings (config) must be a JSON object."}
	}
	if _, ok := probe["enabled"]; ok {
		return Config{}, &SettingsError{Field: "config.enabled", Message: "Switch a source on or off with its enabled field, not in config."}
	}
	wrapped, err := json.Marshal(map[string]json.RawMessage{typ: settings})
	if err != nil {
		return Config{}, err
	}
	if err := strictDecode(wrapped, &cfg); err != nil {
		return Config{}, settingsError(typ, err)
	}
	if err := json.Unmarshal([]byte(`{"`+typ+`":{"enabled":true}}`), &cfg); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

func strictDecode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// SettingsError is a row whose settings cannot run: Field names the part at fault (type,
// config, config.url, ...).
type SettingsError struct {
	Field   string
	Message string
}

func (e *SettingsError) Error() string { return e.Message }

func settingsError(typ string, err error) error {
	var syntax *json.SyntaxError
	var mistyped *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return &SettingsError{Field: "config", Message: "The settings (config) are not valid JSON: " + err.Error() + "."}
	case errors.As(err, &mistyped):
		field := mistyped.Field
		if i := strings.Index(field, "."); i >= 0 && strings.HasPrefix(field, typ+".") {
			field = field[i+1:]
		}
		return &SettingsError{Field: "config." + field, Message: fmt.Sprintf("config.%s must be a %s, not a %s.", field, jsonKind(mistyped.Type), mistyped.Value)}
	}
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		name, _ := strconv.Unquote(rest)
		return &SettingsError{Field: "config." + name, Message: fmt.Sprintf("A %s source has no setting %s.", typ, rest)}
	}
	return &SettingsError{Field: "config", Message: "The settings (config) are not valid: " + msg + "."}
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "list"
	case reflect.Struct, reflect.Map:
		return "object"
	default:
		return "number"
	}
}

// BuildRow makes the running sources of one row (usually one). Their cursors are kept under a
// key of the row's own (prefix), so that two rows never share a position. A row that cannot
// run is a *SettingsError.
func (b Builder) BuildRow(typ, name string, settings json.RawMessage, cursors connector.CursorStore, prefix string) ([]connector.Source, error) {
	cfg, err := b.rowConfig(typ, name, settings)
	if err != nil {
		return nil, err
	}
	srcs, err := b.Build(cfg, prefixed{cursors, prefix})
	if err != nil {
		return nil, &SettingsError{Field: "config", Message: strings.TrimSuffix(err.Error(), ".") + "."}
	}
	if len(srcs) == 0 {
		return nil, &SettingsError{Field: "config", Message: "These settings run nothing."}
	}
	return srcs, nil
}

type prefixed struct {
	connector.CursorStore
	prefix string
}

func (p prefixed) Load(ctx context.Context, source string) (string, error) {
	return p.CursorStore.Load(ctx, p.prefix+source)
}

func (p prefixed) Save(ctx context.Context, source, cursor string) error {
	return p.CursorStore.Save(ctx, p.prefix+source, cursor)
}

// MemoryCursors keeps cursors in memory: a test fetch starts from nothing and leaves nothing.
type MemoryCursors map[string]string

func (m MemoryCursors) Load(_ context.Context, source string) (string, error) { return m[source], nil }
func (m MemoryCursors) Save(_ context.Context, source, cursor string) error {
	m[source] = cursor
	return nil
}

// Seeds are the rows a --sources file describes: one per RSS feed and one per other enabled
// section (the simulator stays the node's own). Sections the file leaves off become no rows.
func Seeds(cfg Config) ([]Seed, error) {
	var seeds []Seed
	if cfg.RSS.Enabled {
		for _, f := range cfg.RSS.Feeds {
			row := rssRow{URL: f.URL, Provider: f.Provider, Interval: f.Interval}
			if f.Interval == 0 && cfg.RSS.Interval != rss.DefaultConfig().Interval {
				row.Interval = cfg.RSS.Interval
			}
			if cfg.RSS.Backoff != connector.DefaultBackoff {
				b := cfg.RSS.Backoff
				row.Backoff = &b
			}
			b, err := json.Marshal(row)
			if err != nil {
				return nil, err
			}
			seeds = append(seeds, Seed{Type: "rss", Name: f.Name, Config: b, Enabled: true})
		}
	}
	v := reflect.ValueOf(cfg)
	for i := range v.NumField() {
		key := jsonKey(v.Type().Field(i))
		if key == "" || key == "simulator" || key == "rss" {
			continue
		}
		section, err := json.Marshal(v.Field(i).Interface())
		if err != nil {
			return nil, err
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(section, &fields); err != nil {
			return nil, err
		}
		if string(fields["enabled"]) != "true" {
			continue
		}
		delete(fields, "enabled")
		b, err := json.Marshal(fields)
		if err != nil {
			return nil, err
		}
		seeds = append(seeds, Seed{Type: key, Name: key, Config: b, Enabled: true})
	}
	return seeds, nil
}

// Interval is how often a row's source fetches when it polls (0 for streams): what a gap is
// measured against.
func (b Builder) Interval(typ string, settings json.RawMessage) time.Duration {
	cfg, err := b.rowConfig(typ, "x", settings)
	if err != nil {
		return 0
	}
	if typ == "rss" {
		if f := cfg.RSS.Feeds[0]; f.Interval > 0 {
			return time.Duration(f.Interval)
		}
		return time.Duration(cfg.RSS.Interval)
	}
	v := reflect.ValueOf(cfg)
	for i := range v.NumField() {
		if jsonKey(v.Type().Field(i)) != typ {
			continue
		}
		if f := v.Field(i).FieldByName("Interval"); f.IsValid() && f.CanInt() {
			return time.Duration(f.Int())
		}
	}
	return 0
}

// SettingsField is the part of the row at fault: type, config or config.<setting>.
func (e *SettingsError) SettingsField() string { return e.Field }
