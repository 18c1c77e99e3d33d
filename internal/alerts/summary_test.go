package alerts

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/assistant"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
)

// model is a language model that writes what it is told to, or fails.
type model struct {
	reply string
	err   error
	given []post.Post
}

func (m *model) Model() string { return "test-model" }

func (m *model) Summarize(_ context.Context, posts []post.Post, _ int) (assistant.Answer, error) {
	m.given = posts
	return assistant.Answer{Sentences: assistant.ParseCited(m.reply)}, m.err
}

func TestSummaryByALanguageModel(t *testing.T) {
	entries := []monitor.InboxEntry{
		entry(1, "Ana", "The harbour strike closed the container terminal."),
		entry(2, "Bo", "Dockers extend the harbour strike at the container terminal into a second day."),
	}
	m := monitor.Search{ID: 1, Name: "Harbour"}

	// Uncited sentences are dropped; each cited one names its match; the mail names the model.
	llm := &model{reply: "The strike at the terminal goes on [1][2]. It will end soon. Dockers lead it [2]."}
	got, by := summarize(context.Background(), llm, entries, 5)
	if by != "test-model" || len(got) != 2 || got[0].Sentence != "The strike at the terminal goes on." ||
		got[1].Match.Author != llm.given[1].AuthorName {
		t.Errorf("summary by %q: %+v", by, got)
	}
	msg, err := renderWith(context.Background(), llm, monitor.AlertAISummary, monitor.GroupingPost, m, entries, "https://sightline.example", time.Now())
	if err != nil || !strings.Contains(msg.Text, "written by the language model test-model") || strings.Contains(msg.Text, "end soon") {
		t.Errorf("mail: %v\n%s", err, msg.Text)
	}

	// A model that fails, or cites nothing, leaves the summary to the extractive engine.
	for _, broken := range []*model{{err: errors.New("down")}, {reply: "Nothing cited here."}} {
		got, by := summarize(context.Background(), broken, entries, 5)
		if by != "" || len(got) == 0 {
			t.Errorf("fallback: by %q, %+v", by, got)
		}
	}
}
