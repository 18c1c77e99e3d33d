// Package assistant answers analysts' questions in plain language from the posts of the last
// seven days they are entitled to (search-side.md sections 2, 4, 7 and 9), and analyses single
// posts. Answers are auditable: every sentence carries a citation to a retrieved post or it is
// removed before anyone sees it, and each answer's model, prompt hash and cited posts go to the
// audit log (docs/assistant.md).
package assistant

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/search"
)

// Messages.
const (
	// MsgApology is the answer when the posts hold nothing relevant (search-side.md section 8,
	// "fixed apology that the documents contain no information"); the app shows it on any error.
	MsgApology  = "Sorry, the documents contain no information about this. Try asking in other words."
	MsgEmpty    = "The input field is required."
	MsgTooLong  = "The question can be at most 1000 characters."
	MsgSession  = "The sessionId field is required."
	MsgNotFound = "The conversation was not found."
	// MsgNotAnalyzable is the reply to "Analyze" on a post that is not English or has 10 words
	// or fewer (search-side.md section 5).
	MsgNotAnalyzable = "Analysis needs an English post of more than 10 words."
	MsgLLMFailed     = "The language model server did not answer. Try again in a moment."
)

// Bounds (search-side.md section 9: answers from the last 7 days).
const (
	Window       = 7 * 24 * time.Hour
	MaxInput     = 1000
	maxSessionID = 100
	// retrieved is how many posts the full-text index is asked for; context how many of them,
	// re-ranked, an engine reads.
	retrieved   = 100
	contextSize = 8
	// queryTerms bounds the words of a question searched for.
	queryTerms = 16
	// keptTurns is how much of a conversation follow-ups see.
	keptTurns = 10
	// summarySentences bounds an analysis's summary.
	summarySentences = 3
	minAnalysisWords = 11
)

// Turn is one question and its answer in a conversation, with the searches related to it and
// the feedback its user gave the answer (nil when none).
type Turn struct {
	ID        int64
	Question  string
	Answer    string
	PostIDs   []string
	Related   []string
	Feedback  *Feedback
	CreatedAt time.Time
}

// Conversation is a user's conversation, found by the app's session id.
type Conversation struct {
	ID             int64
	SessionID      string
	UserID         int64
	OrganizationID int64
}

// Store keeps conversations and reads posts.
type Store interface {
	// Conversation finds a conversation by session id (problem.KindNotFound when there is none).
	Conversation(ctx context.Context, sessionID string) (Conversation, error)
	// Turns are the conversation's last limit turns, oldest first, each with its owner's feedback.
	Turns(ctx context.Context, conversationID int64, limit int) ([]Turn, error)
	// AddTurn stores a turn with its audit entries in one transaction (an entry without a
	// ModelID names the conversation) and gives the turn its ID; a conversation without an ID is
	// stored with its first turn and gets its ID, and a session id already taken is then a
	// conflict.
	AddTurn(ctx context.Context, c *Conversation, t *Turn, audit ...account.AuditEntry) error
	// TurnConversation is the conversation a turn belongs to (problem.KindNotFound when there is
	// no such turn).
	TurnConversation(ctx context.Context, turnID int64) (Conversation, error)
	// SetFeedback stores a user's feedback on a turn, replacing theirs, with the audit entries in
	// one transaction; it returns the feedback replaced (nil when there was none).
	SetFeedback(ctx context.Context, f Feedback, audit func(previous *Feedback) []account.AuditEntry) (*Feedback, error)
	// DeleteFeedback deletes a user's feedback on a turn with the audit entries in one
	// transaction; problem.KindNotFound when there is none.
	DeleteFeedback(ctx context.Context, turnID, userID int64, audit func(previous Feedback) []account.AuditEntry) error
	// Post loads a stored post a user of the tenant may see.
	Post(ctx context.Context, id string, tenant int64) (post.Post, error)
}

// Searcher is the entitlement-aware search of stored posts (*search.Service).
type Searcher interface {
	Search(ctx context.Context, e provider.Entitlements, category provider.Category, r search.Request) (search.Page, error)
}

// Service answers questions.
type Service struct {
	store  Store
	search Searcher
	engine Engine
	limit  *limiter
	log    *slog.Logger
	now    func() time.Time
}

// NewService returns the service with the engine (Extractive when nil).
func NewService(s Store, searcher Searcher, engine Engine, limits Limits, log *slog.Logger) *Service {
	if engine == nil {
		engine = Extractive{}
	}
	if log == nil {
		log = slog.Default()
	}
	return &Service{store: s, search: searcher, engine: engine, limit: newLimiter(limits, engine), log: log, now: time.Now}
}

// Engine is the service's engine for the alerts' daily summaries: its calls share the node's
// places of work with questions and analyses.
func (s *Service) Engine() Engine { return boundEngine{Engine: s.engine, limit: s.limit} }

// Source is a cited post as the drawer shows it (search-side.md section 3).
type Source struct {
	ID               string `json:"id"`
	Provider         string `json:"provider"`
	TitleText        string `json:"title_text"`
	Text             string `json:"text"`
	AuthorName       string `json:"author_name"`
	AuthorScreenName string `json:"author_screen_name"`
	CreatedAt        int64  `json:"created_at"` // unix seconds
	PostLink         string `json:"post_link,omitempty"`
}

// Reply is an answer: its id (the one feedback names), its text, each sentence followed by [n],
// n counting from 1 in RelevantDocuments, and the searches related to the question.
type Reply struct {
	ID                int64    `json:"id"`
	Response          string   `json:"response"`
	RelevantDocuments []Source `json:"relevant_documents"`
	RelatedSearches   []string `json:"related_searches"`
}

// Message is a turn as GET conversation lists it, with the caller's feedback on its answer.
type Message struct {
	ID              int64          `json:"id"`
	Question        string         `json:"question"`
	Answer          string         `json:"answer"`
	PostIDs         []string       `json:"post_ids"`
	RelatedSearches []string       `json:"related_searches"`
	Feedback        *FeedbackReply `json:"feedback"`
	CreatedAt       int64          `json:"created_at"`
}

// Ask answers a question in the conversation of sessionID (started on the first question).
func (s *Service) Ask(ctx context.Context, actor authz.Actor, sessionID, input string) (Reply, error) {
	if err := authz.CanUseAssistant(actor); err != nil {
		return Reply{}, err
	}
	input, sessionID = strings.TrimSpace(input), strings.TrimSpace(sessionID)
	fields := map[string][]string{}
	switch {
	case input == "":
		fields["input"] = []string{MsgEmpty}
	case utf8.RuneCountInString(input) > MaxInput:
		fields["input"] = []string{MsgTooLong}
	}
	if sessionID == "" || len(sessionID) > maxSessionID {
		fields["sessionId"] = []string{MsgSession}
	}
	if len(fields) > 0 {
		msg := MsgSession
		if fields["input"] != nil {
			msg = fields["input"][0]
		}
		return Reply{}, problem.Invalid(msg, fields)
	}
	// Refused here, a question has stored nothing and cost nothing: no conversation, no search,
	// no audit row.
	done, err := s.limit.begin(ctx, true)
	if err != nil {
		return Reply{}, err
	}
	defer done()
	if err := s.limit.charge(actor.OrganizationID); err != nil {
		return Reply{}, err
	}
	conv, err := s.conversation(ctx, actor, sessionID, true)
	if err != nil {
		return Reply{}, err
	}
	history, err := s.store.Turns(ctx, conv.ID, keptTurns)
	if err != nil {
		return Reply{}, err
	}
	found, err := s.retrieve(ctx, actor, input, history)
	if err != nil {
		return Reply{}, err
	}
	posts := found[:min(len(found), contextSize)]
	reply := Reply{Response: MsgApology, RelevantDocuments: []Source{}, RelatedSearches: RelatedSearches(input, history, found)}
	var answer Answer
	var cited []post.Post
	if len(posts) > 0 {
		answer, err = s.engine.Answer(ctx, input, history, posts)
		if err != nil {
			s.log.Warn("assistant: the engine failed", "model", s.engine.Model(), "err", err)
			return Reply{}, problem.BadGateway(MsgLLMFailed)
		}
		if text, used := compose(answer.Sentences, posts); text != "" {
			reply.Response, cited = text, used
			for _, p := range used {
				reply.RelevantDocuments = append(reply.RelevantDocuments, sourceOf(p))
			}
		}
	}
	ids := make([]string, len(cited))
	for i, p := range cited {
		ids[i] = p.ID
	}
	turn := Turn{Question: input, Answer: reply.Response, PostIDs: ids, Related: reply.RelatedSearches, CreatedAt: s.now().UTC()}
	err = s.addTurn(ctx, actor, &conv, &turn, answer.Prompt)
	if problem.Is(err, problem.KindConflict) && conv.ID == 0 {
		// Another question started the same conversation at the same moment: join it.
		if conv, err = s.conversation(ctx, actor, sessionID, false); err == nil {
			err = s.addTurn(ctx, actor, &conv, &turn, answer.Prompt)
		}
	}
	if err != nil {
		return Reply{}, err
	}
	reply.ID = turn.ID
	return reply, nil
}

// Conversation lists the turns of the caller's conversation.
func (s *Service) Conversation(ctx context.Context, actor authz.Actor, sessionID string) ([]Message, error) {
	if err := authz.CanUseAssistant(actor); err != nil {
		return nil, err
	}
	conv, err := s.conversation(ctx, actor, strings.TrimSpace(sessionID), false)
	if err != nil {
		return nil, err
	}
	turns, err := s.store.Turns(ctx, conv.ID, keptTurns)
	if err != nil {
		return nil, err
	}
	out := make([]Message, 0, len(turns))
	for _, t := range turns {
		related := t.Related
		if related == nil {
			related = []string{}
		}
		out = append(out, Message{ID: t.ID, Question: t.Question, Answer: t.Answer, PostIDs: t.PostIDs,
			RelatedSearches: related, Feedback: replyOf(t.Feedback), CreatedAt: t.CreatedAt.Unix()})
	}
	return out, nil
}

// conversation finds the caller's conversation of sessionID; when there is none and orNew is
// set, a new one, stored with its first turn (so a question that fails stores nothing). Another
// user's conversation does not exist for the caller.
func (s *Service) conversation(ctx context.Context, actor authz.Actor, sessionID string, orNew bool) (Conversation, error) {
	conv, err := s.store.Conversation(ctx, sessionID)
	if problem.Is(err, problem.KindNotFound) && orNew {
		return Conversation{SessionID: sessionID, UserID: actor.UserID, OrganizationID: actor.OrganizationID}, nil
	}
	if problem.Is(err, problem.KindNotFound) {
		return Conversation{}, problem.NotFound(MsgNotFound)
	}
	if err != nil {
		return Conversation{}, err
	}
	if err := authz.CanUseConversation(actor, conv.UserID); err != nil {
		return Conversation{}, err
	}
	return conv, nil
}

// retrieve finds the posts of the last seven days that match the question (and the previous
// question's words, for follow-ups), best first: any of the words through the full-text index,
// over the providers the caller's subscriptions reach, then ranked by BM25 over the found posts.
// The engine reads the first contextSize of them; related searches are drawn from all.
func (s *Service) retrieve(ctx context.Context, actor authz.Actor, question string, history []Turn) ([]post.Post, error) {
	weights := questionWeights(question, history)
	words := make([]string, 0, len(weights))
	for w := range weights {
		words = append(words, w)
	}
	// The question's own words first, then the longer (rarer, as a rule) ones.
	slices.SortFunc(words, func(a, b string) int {
		return cmp.Or(cmp.Compare(weights[b], weights[a]), cmp.Compare(len(b), len(a)), strings.Compare(a, b))
	})
	words = words[:min(len(words), queryTerms)]
	if len(words) == 0 {
		return nil, nil
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = `"` + w + `"`
		if isASCIIWord(w) {
			quoted[i] = w + "*" // the stem and its inflections
		}
	}
	now := s.now().UTC()
	from, to := now.Add(-Window).UnixMilli(), now.UnixMilli()
	page, err := s.search.Search(ctx, entitlementsOf(actor), search.All, search.Request{
		Query: strings.Join(quoted, " OR "), StartDate: &from, EndDate: &to, Sort: post.SortRelevance, Size: retrieved})
	if problem.Is(err, problem.KindInvalid) {
		// No data source in the subscription, or words the query language will not take: nothing
		// to answer from.
		s.log.Debug("assistant: retrieval refused", "err", err)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	docs := make([][]string, len(page.Documents))
	for i, p := range page.Documents {
		docs[i] = terms(Text(p), p.Language)
	}
	ranker := newBM25(docs)
	type ranked struct {
		p     post.Post
		score float64
	}
	all := make([]ranked, len(docs))
	for i, p := range page.Documents {
		if relevant(docs[i], weights, 1) {
			all[i] = ranked{p, ranker.score(docs[i], weights)}
		}
	}
	slices.SortStableFunc(all, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(b.score, a.score), b.p.PublishedAt.Compare(a.p.PublishedAt))
	})
	var out []post.Post
	for _, r := range all {
		if r.score <= 0 {
			break
		}
		out = append(out, r.p)
	}
	return out, nil
}

// isASCIIWord says whether w is made of ASCII letters and digits only (a word a wildcard can
// follow; other scripts are searched as they are).
func isASCIIWord(w string) bool {
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return w != ""
}

func entitlementsOf(a authz.Actor) provider.Entitlements {
	return provider.Entitlements{Beacon: a.ACL.Beacon, Pro: a.ACL.Pro, Enterprise: a.ACL.Enterprise, Tenant: a.TenantID}
}

// compose writes the answer's text from its cited sentences and the posts they cite, renumbered
// in order of first citation. A sentence without a citation to one of the posts is dropped:
// nothing reaches the user that no post backs.
func compose(sentences []Cited, posts []post.Post) (string, []post.Post) {
	var parts []string
	var used []post.Post
	number := map[int]int{}
	for _, s := range sentences {
		var marks strings.Builder
		seen := map[int]bool{}
		for _, c := range s.Cites {
			if c < 1 || c > len(posts) || seen[c] {
				continue
			}
			seen[c] = true
			if number[c] == 0 {
				used = append(used, posts[c-1])
				number[c] = len(used)
			}
			fmt.Fprintf(&marks, "[%d]", number[c])
		}
		if marks.Len() == 0 || strings.TrimSpace(s.Text) == "" {
			continue
		}
		parts = append(parts, strings.TrimSpace(s.Text)+" "+marks.String())
	}
	return strings.Join(parts, " "), used
}

// sourceOf is a cited post as a source; a post with a title only has it as its text too, since a
// source needs a text (search-side.md section 3).
func sourceOf(p post.Post) Source {
	text := p.ContentText
	if strings.TrimSpace(text) == "" {
		text = p.TitleText
	}
	return Source{ID: p.ID, Provider: p.Provider, TitleText: p.TitleText, Text: text, AuthorName: p.AuthorName,
		AuthorScreenName: p.AuthorScreenName, CreatedAt: p.PublishedAt.Unix(), PostLink: p.PostLink}
}

// addTurn stores the turn with its audit entry: the engine's model, a SHA-256 of its prompt and
// the cited posts.
func (s *Service) addTurn(ctx context.Context, actor authz.Actor, conv *Conversation, t *Turn, prompt string) error {
	sum := sha256.Sum256([]byte(prompt))
	cited := t.PostIDs
	if cited == nil {
		cited = []string{}
	}
	value, err := json.Marshal(map[string]any{"model": s.engine.Model(), "prompt_sha256": hex.EncodeToString(sum[:]),
		"cited_post_ids": cited, "session_id": conv.SessionID})
	if err != nil {
		return err
	}
	e := account.AuditEntry{TenantID: actor.TenantID, OrganizationID: actor.OrganizationID, UserID: actor.UserID,
		Model: "assistant", Action: "answered", NewValue: string(value)}
	if conv.ID != 0 {
		e.ModelID = strconv.FormatInt(conv.ID, 10)
	}
	return s.store.AddTurn(ctx, conv, t, e)
}
