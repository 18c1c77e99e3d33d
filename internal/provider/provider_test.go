package provider

import (
	"encoding/json"
	"regexp"
	"slices"
	"testing"
)

func TestCatalogueHasEverySpecKey(t *testing.T) {
	specKeys := []string{
		"twitter", "facebook", "instagram", "reddit", "telegram", "discord", "youtube", "tiktok",
		"vk", "bluesky", "mastodon", "gab", "4chan", "8kun", "tor", "darkweb", "i2p", "irc",
		"pastebin", "leaks", "marketplaces", "hacking", "news", "webhose", "forum", "imageboard",
		"infectedhostdata", "gnip", "flickr", "nairaland", "raddle", "hackernews", "nostr", "lemmy",
		"blogs",
	}
	for _, key := range specKeys {
		if !Known(key) {
			t.Errorf("provider %q is missing from the catalogue", key)
		}
	}
}

func TestCatalogueEntriesAreComplete(t *testing.T) {
	colour := regexp.MustCompile(`^#[0-9A-F]{6}$`)
	regions := []Region{Global, NorthAmerica, AsiaPacific, Europe, MiddleEastAndAfrica}
	categories := []Category{Social, DarkWeb, OpenWeb, Documents, DeepWeb}
	contentTypes := []string{socialMediaPost, newsPost, threadPost}
	kinds := []Kind{KindSocial, KindForum, KindNewsBlogs, KindChat, KindImageSharing, KindVideoSharing, KindOther}
	seen := map[string]bool{}
	for _, p := range All() {
		t.Run(p.Name, func(t *testing.T) {
			if seen[p.Name] {
				t.Fatal("listed twice")
			}
			seen[p.Name] = true
			if p.DisplayName == "" || p.Icon == "" {
				t.Errorf("display name %q, icon %q: both are required", p.DisplayName, p.Icon)
			}
			if !colour.MatchString(p.Colour) {
				t.Errorf("colour %q is not #RRGGBB", p.Colour)
			}
			if !slices.Contains(regions, p.Region) {
				t.Errorf("region %q is not one of the five", p.Region)
			}
			if !slices.Contains(categories, p.Category) {
				t.Errorf("category %q is not a Beacon category", p.Category)
			}
			if !slices.Contains(kinds, p.Kind) {
				t.Errorf("kind %q is not one of the selector's", p.Kind)
			}
			if !slices.Contains(contentTypes, p.ContentType) {
				t.Errorf("content type %q is not known", p.ContentType)
			}
			if !p.Search.Keyword {
				t.Error("every provider is keyword-searchable")
			}
			for _, sub := range p.SupersetOf {
				if !Known(sub) || sub == p.Name {
					t.Errorf("superset member %q is not another provider", sub)
				}
			}
		})
	}
}

func TestTwitterIsShownAsX(t *testing.T) {
	p, ok := Lookup("twitter")
	if !ok || p.DisplayName != "X" {
		t.Fatalf("Lookup(twitter) = %+v, %v; want display name X", p, ok)
	}
}

func TestGnipContainsTwitter(t *testing.T) {
	p, _ := Lookup("gnip")
	if !slices.Equal(p.SupersetOf, []string{"twitter"}) {
		t.Fatalf("gnip superset of %v, want [twitter]", p.SupersetOf)
	}
}

func TestAuthorSearchableProvidersAreThoseOfTheSpec(t *testing.T) {
	want := []string{"discord", "flickr", "gab", "mastodon", "nairaland", "raddle", "reddit", "telegram", "twitter", "youtube"}
	var got []string
	for _, p := range All() {
		if p.Search.Author {
			got = append(got, p.Name)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("author-searchable providers = %v, want %v", got, want)
	}
}

func TestSubscriptions(t *testing.T) {
	tests := []struct {
		name string
		want Subscription
	}{
		{"tor", Beacon}, {"darkweb", Beacon}, {"i2p", Beacon}, {"marketplaces", Beacon}, {"hacking", Beacon},
		{"pastebin", Beacon}, {"leaks", Beacon}, {"infectedhostdata", Beacon},
		{"news", Locate}, {"blogs", Locate}, {"webhose", Locate},
		{"twitter", AnySubscription}, {"reddit", AnySubscription}, {"4chan", AnySubscription},
	}
	for _, tt := range tests {
		p, _ := Lookup(tt.name)
		if p.Needs != tt.want {
			t.Errorf("%s needs %q, want %q", tt.name, p.Needs, tt.want)
		}
	}
	// Every dark-web and documents provider needs Beacon, whatever its key.
	for _, p := range All() {
		if (p.Category == DarkWeb || p.Category == Documents) && p.Needs != Beacon {
			t.Errorf("%s is in %s but does not need Beacon", p.Name, p.Category)
		}
	}
}

func TestFor(t *testing.T) {
	tests := []struct {
		name        string
		ent         Entitlements
		wantIn      []string
		wantMissing []string
	}{
		{"no subscription", Entitlements{}, []string{"twitter", "4chan", "hackernews"}, []string{"tor", "leaks", "news", "blogs"}},
		{"beacon only", Entitlements{Beacon: true}, []string{"twitter", "tor", "leaks", "pastebin"}, []string{"news", "blogs"}},
		{"pro only", Entitlements{Pro: true}, []string{"twitter", "news", "blogs"}, []string{"tor", "leaks"}},
		{"enterprise only", Entitlements{Enterprise: true}, []string{"news"}, []string{"darkweb"}},
		{"everything", Entitlements{Beacon: true, Pro: true, Enterprise: true}, []string{"tor", "news", "gnip"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			names := map[string]Entry{}
			for _, e := range For(tt.ent) {
				names[e.Name] = e
			}
			for _, n := range tt.wantIn {
				if _, ok := names[n]; !ok {
					t.Errorf("%s missing", n)
				}
			}
			for _, n := range tt.wantMissing {
				if _, ok := names[n]; ok {
					t.Errorf("%s should be left out", n)
				}
			}
		})
	}
	if n := len(For(Entitlements{Beacon: true, Pro: true})); n != len(All()) {
		t.Errorf("a user with every subscription sees %d of %d providers", n, len(All()))
	}
}

func TestEntryJSONShape(t *testing.T) {
	var tor Entry
	for _, e := range For(Entitlements{Beacon: true}) {
		if e.Name == "tor" {
			tor = e
		}
	}
	got, err := json.Marshal(tor)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"tor","displayName":"Tor","enabled":true,"beaconFeature":true,` +
		`"searchFeatures":{"location":false,"keyword":true,"author":false,"boardName":true},` +
		`"region":"global","kind":"forum","color":"#7D4698","icon":"tor","supersetOf":[],"category":"darkweb"}`
	if string(got) != want {
		t.Fatalf("tor entry JSON\n got %s\nwant %s", got, want)
	}
}

func TestDefaultSelection(t *testing.T) {
	got := DefaultSelection(For(Entitlements{Beacon: true, Pro: true}))
	for _, left := range []string{"gnip", "flickr", "infectedhostdata"} {
		if slices.Contains(got, left) {
			t.Errorf("default selection contains %s", left)
		}
	}
	for _, in := range []string{"twitter", "reddit", "tor", "news"} {
		if !slices.Contains(got, in) {
			t.Errorf("default selection lacks %s", in)
		}
	}
}

func TestReaches(t *testing.T) {
	for _, c := range []struct {
		e        Entitlements
		provider string
		want     bool
	}{
		{Entitlements{}, "reddit", true},
		{Entitlements{}, "tor", false},
		{Entitlements{Beacon: true}, "tor", true},
		{Entitlements{}, "news", false},
		{Entitlements{Enterprise: true}, "news", true},
		{Entitlements{Beacon: true, Pro: true, Enterprise: true}, "no-such-provider", false},
	} {
		if got := c.e.Reaches(c.provider); got != c.want {
			t.Errorf("%+v reaches %s = %v, want %v", c.e, c.provider, got, c.want)
		}
	}
}
