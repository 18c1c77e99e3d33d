package post

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

var now = time.Date(2025, 3, 14, 12, 0, 0, 0, time.UTC)

func validPost() Post {
	return Post{
		Provider:    "reddit",
		NativeID:    "t3_abc",
		ContentText: "hello",
		PublishedAt: now.Add(-time.Minute),
	}
}

func TestNewIDIsStableAndDistinct(t *testing.T) {
	a := NewID("reddit", "t3_abc")
	if a != NewID("reddit", "t3_abc") {
		t.Fatal("same input gave two ids")
	}
	if len(a) != 32 {
		t.Fatalf("id %q: want 32 hex characters", a)
	}
	for _, other := range [][2]string{{"reddit", "t3_abd"}, {"twitter", "t3_abc"}, {"reddi", "tt3_abc"}} {
		if NewID(other[0], other[1]) == a {
			t.Errorf("NewID(%q, %q) collides with NewID(reddit, t3_abc)", other[0], other[1])
		}
	}
}

func TestNormalizeCleans(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*Post)
		check func(*testing.T, Post)
	}{
		{"derives the id", func(p *Post) { p.ID = "client-chosen" }, func(t *testing.T, p Post) {
			if p.ID != NewID("reddit", "t3_abc") {
				t.Errorf("id %q", p.ID)
			}
		}},
		{"trims text and lower-cases keys", func(p *Post) {
			p.Provider = " Reddit "
			p.ContentText = "  hello  "
			p.AuthorScreenName = " @someone "
		}, func(t *testing.T, p Post) {
			if p.Provider != "reddit" || p.ContentText != "hello" || p.AuthorScreenName != "someone" {
				t.Errorf("got provider %q text %q screen name %q", p.Provider, p.ContentText, p.AuthorScreenName)
			}
		}},
		{"fills the content type from the provider", func(p *Post) { p.Type = "" }, func(t *testing.T, p Post) {
			if p.Type != TypeThreadPost {
				t.Errorf("type %q, want %q", p.Type, TypeThreadPost)
			}
		}},
		{"cuts long text on a character boundary", func(p *Post) {
			p.TitleText = strings.Repeat("é", MaxTitle+10)
			p.ContentText = strings.Repeat("日", MaxContent+1)
		}, func(t *testing.T, p Post) {
			if n := utf8.RuneCountInString(p.TitleText); n != MaxTitle {
				t.Errorf("title has %d characters", n)
			}
			if n := utf8.RuneCountInString(p.ContentText); n != MaxContent || !utf8.ValidString(p.ContentText) {
				t.Errorf("content has %d characters, valid UTF-8 %v", n, utf8.ValidString(p.ContentText))
			}
		}},
		{"repairs invalid UTF-8 and drops NUL", func(p *Post) { p.ContentText = "a\xffb\x00c" }, func(t *testing.T, p Post) {
			if p.ContentText != "a\uFFFDbc" {
				t.Errorf("content %q", p.ContentText)
			}
		}},
		{"puts times in UTC and fills discovery", func(p *Post) {
			p.PublishedAt = time.Date(2025, 3, 14, 13, 0, 0, 0, time.FixedZone("CET", 3600))
		}, func(t *testing.T, p Post) {
			if p.PublishedAt.Location() != time.UTC || !p.PublishedAt.Equal(now) {
				t.Errorf("published %v", p.PublishedAt)
			}
			if !p.DiscoveredAt.Equal(now) {
				t.Errorf("discovered %v, want now", p.DiscoveredAt)
			}
		}},
		{"keeps the primary language subtag", func(p *Post) { p.Language = "pt-BR" }, func(t *testing.T, p Post) {
			if p.Language != "pt" {
				t.Errorf("language %q", p.Language)
			}
		}},
		{"drops a language that is not a code", func(p *Post) { p.Language = "english" }, func(t *testing.T, p Post) {
			if p.Language != "" {
				t.Errorf("language %q", p.Language)
			}
		}},
		{"cleans tags and objects", func(p *Post) {
			p.Tags = []string{"#osint", "osint", " ", "# news"}
			p.DetectedObjects = []string{"Person", "person", "Car"}
		}, func(t *testing.T, p Post) {
			if strings.Join(p.Tags, ",") != "osint,news" || strings.Join(p.DetectedObjects, ",") != "person,car" {
				t.Errorf("tags %q objects %q", p.Tags, p.DetectedObjects)
			}
		}},
		{"drops media without a link", func(p *Post) {
			p.Photos = []Media{{}, {Normal: "https://example.com/a.jpg"}}
		}, func(t *testing.T, p Post) {
			if len(p.Photos) != 1 || p.Photos[0].Large != "https://example.com/a.jpg" {
				t.Errorf("photos %+v", p.Photos)
			}
		}},
		{"a photo alone is content", func(p *Post) {
			p.ContentText = ""
			p.Photos = []Media{{Large: "https://example.com/a.jpg"}}
		}, func(*testing.T, Post) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := validPost()
			tt.edit(&p)
			if err := p.Normalize(now); err != nil {
				t.Fatalf("Normalize: %v", err)
			}
			tt.check(t, p)
		})
	}
}

func TestNormalizeRefuses(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Post)
		want string
	}{
		{"no provider", func(p *Post) { p.Provider = "" }, "provider is required"},
		{"unknown provider", func(p *Post) { p.Provider = "myspace" }, `provider "myspace" is not a known provider`},
		{"no native id", func(p *Post) { p.NativeID = "  " }, "native_id is required"},
		{"unknown content type", func(p *Post) { p.Type = "tweet" }, `content_type "tweet" is not one of`},
		{"unknown community kind", func(p *Post) { p.CommunityKind = "shops" }, `community_kind "shops" is not one of`},
		{"no content", func(p *Post) { p.ContentText = " " }, "a post needs a title, a text, a photo or a video"},
		{"no published time", func(p *Post) { p.PublishedAt = time.Time{} }, "published_at is required"},
		{"published in the future", func(p *Post) { p.PublishedAt = now.Add(2 * time.Hour) }, "published_at 2025-03-14T14:00:00Z is in the future"},
		{"latitude out of range", func(p *Post) { p.Location = &Point{Lat: 91, Lon: 0} }, "location 91,0 is not a latitude"},
		{"NaN longitude", func(p *Post) { p.Location = &Point{Lat: 1, Lon: math.NaN()} }, "is not a latitude"},
		{"bad mentioned location", func(p *Post) { p.MentionedLocations = []MentionedLocation{{Point: Point{Lon: 200}}} }, "mentioned_locations[0] has an invalid point"},
		{"native id too long", func(p *Post) { p.NativeID = strings.Repeat("x", MaxIdentifier+1) }, "native_id is longer than 512 characters"},
		{"link too long", func(p *Post) { p.PostLink = "https://x/" + strings.Repeat("x", MaxURL) }, "post_link is longer than 2048 characters"},
		{"photo link too long", func(p *Post) { p.Photos = []Media{{Large: strings.Repeat("x", MaxURL+1)}} }, "photos[0] has a link longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := validPost()
			tt.edit(&p)
			err := p.Normalize(now)
			var invalid *InvalidError
			if !errors.As(err, &invalid) {
				t.Fatalf("Normalize = %v, want an *InvalidError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q does not say %q", err, tt.want)
			}
		})
	}
}

func TestNormalizeListsEveryProblem(t *testing.T) {
	p := Post{}
	err := p.Normalize(now)
	var invalid *InvalidError
	if !errors.As(err, &invalid) || len(invalid.Problems) != 4 {
		t.Fatalf("empty post: %v; want 4 problems (provider, native id, content, published time)", err)
	}
}

// FuzzNormalize checks that whatever a client sends, an accepted post respects every limit and
// normalizing it again changes nothing.
func FuzzNormalize(f *testing.F) {
	f.Add(`{"provider":"reddit","native_id":"1","content_text":"hi","published_at":"2025-03-14T11:00:00Z"}`)
	f.Add(`{"provider":" Twitter","native_id":" 2 ","title_text":"\u00e9\u00e9","tags":["#a","# #b"],"language":"EN-us","published_at":"2025-03-14T11:00:00+05:00","photos":[{"normal":"x"}]}`)
	f.Add(`{"provider":"news","native_id":"3","content_text":"x","published_at":"2025-03-14T11:00:00Z","location":{"lat":1,"lon":2},"detected_objects":["A"," a"]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		var p Post
		if json.Unmarshal([]byte(raw), &p) != nil {
			return
		}
		if p.Normalize(now) != nil {
			return
		}
		first := p
		if err := p.Normalize(now); err != nil {
			t.Fatalf("a normalized post was refused the second time: %v", err)
		}
		a, _ := json.Marshal(first)
		b, _ := json.Marshal(p)
		if string(a) != string(b) {
			t.Fatalf("normalizing twice changed the post:\n%s\n%s", a, b)
		}
		if p.ID != NewID(p.Provider, p.NativeID) {
			t.Fatal("id is not derived from provider and native id")
		}
		for _, s := range []string{p.TitleText, p.ContentText, p.AuthorName, p.Board} {
			if !utf8.ValidString(s) || strings.Contains(s, "\x00") {
				t.Fatalf("text %q is not clean", s)
			}
		}
		if utf8.RuneCountInString(p.TitleText) > MaxTitle || utf8.RuneCountInString(p.ContentText) > MaxContent ||
			len(p.Tags) > MaxTags || len(p.Photos) > MaxMedia || len(p.Videos) > MaxMedia {
			t.Fatal("a limit was not applied")
		}
		if p.PublishedAt.Location() != time.UTC || p.DiscoveredAt.Location() != time.UTC {
			t.Fatal("times are not in UTC")
		}
	})
}
