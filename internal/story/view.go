package story

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/post"
)

// View is a story as one reader sees it: everything in it is counted over the posts that
// reader may see, so another tenant's private posts neither appear nor count.
type View struct {
	ID          string      `json:"id"`
	Title       string      `json:"title"`
	PostCount   int64       `json:"postCount"`
	Providers   []Count     `json:"providers"`
	Languages   []Count     `json:"languages"`
	FirstSeenAt time.Time   `json:"firstSeenAt"`
	LastSeenAt  time.Time   `json:"lastSeenAt"`
	Timeline    []HourCount `json:"timeline"`
	// Posts is one page of the story's posts, oldest first.
	Posts []post.Post `json:"posts"`
}

// Summary is a story without its posts, as one reader sees it: what a card of the inbox shows.
// Like View, it is counted over the posts that reader may see.
type Summary struct {
	ID          string      `json:"id"`
	Title       string      `json:"title"`
	PostCount   int64       `json:"postCount"`
	Providers   []Count     `json:"providers"`
	Languages   []Count     `json:"languages"`
	FirstSeenAt time.Time   `json:"firstSeenAt"`
	LastSeenAt  time.Time   `json:"lastSeenAt"`
	Timeline    []HourCount `json:"timeline"`
}

// View returns the summary with a page of posts.
func (s Summary) View(posts []post.Post) View {
	return View{ID: s.ID, Title: s.Title, PostCount: s.PostCount, Providers: s.Providers, Languages: s.Languages,
		FirstSeenAt: s.FirstSeenAt, LastSeenAt: s.LastSeenAt, Timeline: s.Timeline, Posts: posts}
}

// Count is how many posts of a story have a value (a provider, a language).
type Count struct {
	Name  string `json:"name"`
	Count int64  `json:"count"`
}

// HourCount is how many posts of a story were published in an hour.
type HourCount struct {
	Hour  time.Time `json:"hour"`
	Count int64     `json:"count"`
}

// maxTitle is the longest title, in characters, cut from a post's text.
const maxTitle = 160

// Title is a story's title taken from one of its posts (the earliest the reader may see): the
// post's title, else its first sentence, cut to maxTitle characters.
func Title(p post.Post) string {
	t := strings.Join(strings.Fields(p.TitleText), " ")
	if t == "" {
		t = strings.Join(strings.Fields(p.ContentText), " ")
		for i := 1; i+1 < len(t); i++ {
			// A point inside a number ("6.4") or a name ("U.S.") is followed by no space.
			if strings.IndexByte(".!?", t[i]) >= 0 && t[i+1] == ' ' {
				t = t[:i+1]
				break
			}
		}
	}
	if utf8.RuneCountInString(t) > maxTitle {
		t = strings.TrimSpace(string([]rune(t)[:maxTitle-1])) + "…"
	}
	return t
}
