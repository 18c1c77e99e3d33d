package sources

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sightline/sightline/internal/connector/imageboard"
	"github.com/sightline/sightline/internal/provider"
)

// CheckTenantProviders refuses a tenant's own row whose feeds or pages claim a platform's
// provider key: a tenant's RSS feed, HTML page, onion site or imageboard site may give its
// posts only a generic key (provider.Generic), except an imageboard site that reads the
// platform itself (the default 4chan site's address). The operator's shared rows may claim
// any key. A row that does not read as settings is left to BuildRow to refuse.
func CheckTenantProviders(typ, name string, settings json.RawMessage) error {
	cfg, err := RowConfig(typ, name, settings)
	if err != nil {
		return nil
	}
	check := func(field, key, byDefault string) error {
		key = cmp.Or(key, byDefault)
		if provider.Generic(key) {
			return nil
		}
		return &SettingsError{Field: field, Message: fmt.Sprintf("A source of your own may not claim the provider %q, "+
			"which names a platform: choose one of %s.", key, strings.Join(provider.GenericKeys(), ", "))}
	}
	switch typ {
	case "rss":
		return check("config.provider", cfg.RSS.Feeds[0].Provider, "news")
	case "html":
		for i, p := range cfg.HTML.Pages {
			if err := check(fmt.Sprintf("config.pages.%d.provider", i), p.Provider, "forum"); err != nil {
				return err
			}
		}
	case "onion":
		for i, s := range cfg.Onion.Sites {
			if err := check(fmt.Sprintf("config.sites.%d.provider", i), s.Provider, "tor"); err != nil {
				return err
			}
		}
	case "imageboard":
		platforms := map[string]string{}
		for _, s := range imageboard.DefaultConfig().Sites {
			platforms[s.Provider] = s.APIURL
		}
		for i, s := range cfg.Imageboard.Sites {
			if api, ok := platforms[s.Provider]; ok && strings.TrimRight(s.APIURL, "/") == api {
				continue
			}
			if err := check(fmt.Sprintf("config.sites.%d.provider", i), s.Provider, "imageboard"); err != nil {
				return err
			}
		}
	}
	return nil
}
