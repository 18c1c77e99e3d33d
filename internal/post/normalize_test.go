package post

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
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

func TestNormalizeKeepsOnlyWebURLs(t *testing.T) {
	tests := []struct {
		url        string
		link       bool // kept as a post or author link
		picture    bool // kept as a picture
		wantStored string
	}{
		{"https://example.com/a.jpg", true, true, "https://example.com/a.jpg"},
		{"http://example.com/a?b=c#d", true, true, "http://example.com/a?b=c#d"},
		{"HTTPS://Example.com/a", true, true, "HTTPS://Example.com/a"},
		{"  https://example.com/a  ", true, true, "https://example.com/a"},
		{"http://[2001:db8::1]:8080/a", true, true, "http://[2001:db8::1]:8080/a"},
		{"/demo-media/street-crowd.svg", false, true, "/demo-media/street-crowd.svg"},
		{"/demo-media/../logout", false, false, ""},
		{"/demo-media/a.svg?x=1", false, false, ""},
		{"/logout", false, false, ""},
		{"/api/v1/settings/profile/current", false, false, ""},
		{"relative/a.jpg", false, false, ""},
		{"//evil.example/a.jpg", false, false, ""},
		{"https://evil.example/demo-media/a.svg", true, true, "https://evil.example/demo-media/a.svg"},
		{"javascript:alert(1)", false, false, ""},
		{"JavaScript:alert(1)", false, false, ""},
		{"java\tscript:alert(1)", false, false, ""},
		{"java\nscript:alert(1)", false, false, ""},
		{"data:image/png;base64,AAAA", false, false, ""},
		{"data:text/html,<script>alert(1)</script>", false, false, ""},
		{"vbscript:msgbox(1)", false, false, ""},
		{"file:///etc/passwd", false, false, ""},
		{"ftp://example.com/a.jpg", false, false, ""},
		{"blob:https://example.com/1", false, false, ""},
		{"https:/example.com/a", false, false, ""},
		{"https:example.com/a", false, false, ""},
		{"https://", false, false, ""},
		{"https://:443/a", false, false, ""},
		{"https://user:pass@example.com/a", false, false, ""},
		{"https://example.com@evil.example/a", false, false, ""},
		{"http://exa mple.com/", false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			p := validPost()
			p.PostLink, p.AuthorURL, p.AuthorThumbnail = tt.url, tt.url, tt.url
			p.Photos = []Media{{Large: tt.url, Normal: tt.url}}
			p.Videos = []Media{{Large: tt.url}}
			if err := p.Normalize(now); err != nil {
				t.Fatalf("Normalize: %v", err)
			}
			want := func(kept bool) string {
				if kept {
					return tt.wantStored
				}
				return ""
			}
			if p.PostLink != want(tt.link) || p.AuthorURL != want(tt.link) {
				t.Errorf("post link %q, author link %q; want %q", p.PostLink, p.AuthorURL, want(tt.link))
			}
			if p.AuthorThumbnail != want(tt.picture) {
				t.Errorf("author thumbnail %q, want %q", p.AuthorThumbnail, want(tt.picture))
			}
			if tt.picture {
				if len(p.Photos) != 1 || p.Photos[0] != (Media{Large: tt.wantStored, Normal: tt.wantStored}) || len(p.Videos) != 1 {
					t.Errorf("photos %+v videos %+v, want the picture kept", p.Photos, p.Videos)
				}
			} else if len(p.Photos)+len(p.Videos) != 0 {
				t.Errorf("photos %+v videos %+v, want them dropped", p.Photos, p.Videos)
			}
		})
	}
}

func TestNormalizeKeepsTheGoodRenditionOfAPicture(t *testing.T) {
	p := validPost()
	p.Photos = []Media{{Large: "javascript:alert(1)", Normal: "https://example.com/small.jpg"}, {Large: "https://example.com/a.jpg", Normal: "data:,x"}}
	if err := p.Normalize(now); err != nil {
		t.Fatal(err)
	}
	want := []Media{{Large: "https://example.com/small.jpg", Normal: "https://example.com/small.jpg"}, {Large: "https://example.com/a.jpg"}}
	if len(p.Photos) != 2 || p.Photos[0] != want[0] || p.Photos[1] != want[1] {
		t.Fatalf("photos %+v, want %+v", p.Photos, want)
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
		{"negative engagement", func(p *Post) { p.Engagement = -3 }, "engagement -3 is negative"},
		{"negative followers", func(p *Post) { p.AuthorFollowers = -1 }, "author_followers -1 is negative"},
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
	f.Add(`{"provider":"news","native_id":"4","content_text":"x","published_at":"2025-03-14T11:00:00Z","post_link":"javascript:alert(1)","author_url":"//evil.example/","author_thumbnail":"/logout","photos":[{"large":"data:image/png;base64,AA","normal":"/demo-media/a.svg"}],"videos":[{"large":" https://example.com/v "}]}`)
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
		links := []string{p.PostLink, p.AuthorURL}
		pictures := []string{p.AuthorThumbnail}
		for _, m := range slices.Concat(p.Photos, p.Videos) {
			pictures = append(pictures, m.Large, m.Normal)
		}
		for _, l := range links {
			if l != "" && !isWebURL(l) {
				t.Fatalf("link %q is not an absolute http or https address", l)
			}
		}
		for _, l := range pictures {
			if l != "" && !isPictureURL(l) {
				t.Fatalf("picture %q is not an absolute http or https address", l)
			}
		}
	})
}
