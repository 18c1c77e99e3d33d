package cases

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/evidence"
	"github.com/sightline/sightline/internal/post"
)

func TestMentions(t *testing.T) {
	members := []account.Member{
		{UserID: 1, Username: "ana", Email: "ana@acme.test"},
		{UserID: 2, Username: "", Email: "bob@acme.test"},
		{UserID: 3, Username: "carl.o", Email: "carl@acme.test"},
	}
	for _, tc := range []struct {
		body string
		want []int64
	}{
		{"@ana look", []int64{1}},
		{"@ANA, and @bob@acme.test.", []int64{1, 2}},
		{"@carl.o. Done", []int64{3}},
		{"(@ana) @ana again", []int64{1}},
		{"mail ana@acme.test is no mention", nil},
		{"@nobody @", nil},
		{"@ana@acme.test", []int64{1}},
		{"two@@ana", nil},
	} {
		if got := Mentions(tc.body, members); !slices.Equal(got, tc.want) {
			t.Errorf("Mentions(%q) = %v, want %v", tc.body, got, tc.want)
		}
	}
}

func FuzzMentions(f *testing.F) {
	members := []account.Member{{UserID: 1, Username: "ana", Email: "ana@acme.test"}}
	for _, s := range []string{"@ana", "@@", "x@ana", "@ana.", "@\xff", "@ana@acme.test,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		got := Mentions(body, members)
		if len(got) > 1 || (len(got) == 1 && !strings.Contains(strings.ToLower(body), "@ana")) {
			t.Errorf("Mentions(%q) = %v", body, got)
		}
	})
}

// The report prints to a PDF through the server's Chromium, when it has one.
func TestChromiumPDF(t *testing.T) {
	pdf := NewChromiumPDF(evidence.DefaultChromium)
	if pdf == nil {
		t.Skip("no Chromium at " + evidence.DefaultChromium)
	}
	now := time.Now().UTC()
	p := post.Post{ID: "p1", Provider: "news", ContentText: "Protest at the port.", PublishedAt: now}
	html, err := renderReport(reportData{Page: Page{Access: Access{Case: Case{ID: 1, Name: "Port", Status: StatusOpen,
		CreatedAt: now, UpdatedAt: now}}, Members: map[int64]account.Member{}},
		Items: []reportItem{{N: 1, Item: Item{Kind: KindPost, Ref: "p1", Post: &p, Note: "a note"}}}, ExportedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	out, err := pdf.PDF(context.Background(), html)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "%PDF-") {
		t.Errorf("not a PDF: %q", out[:min(len(out), 20)])
	}
}
