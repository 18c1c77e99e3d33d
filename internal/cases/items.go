package cases

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
)

// ItemInput names what to add, by exactly one of its ids, with a note.
type ItemInput struct {
	PostID     string `json:"postId"`
	StoryID    string `json:"storyId"`
	MatchID    string `json:"matchId"`
	EvidenceID string `json:"evidenceId"`
	Note       string `json:"note"`
}

// ref is the one kind and id an input names, or the field to report it on.
func (in ItemInput) ref() (kind, field, ref string, ok bool) {
	n := 0
	for _, c := range []struct{ kind, field, id string }{
		{KindPost, "postId", in.PostID}, {KindStory, "storyId", in.StoryID},
		{KindMatch, "matchId", in.MatchID}, {KindEvidence, "evidenceId", in.EvidenceID},
	} {
		if id := strings.TrimSpace(c.id); id != "" {
			kind, field, ref = c.kind, c.field, id
			n++
		}
	}
	return kind, field, ref, n == 1
}

// AddItem adds a post, story, match or evidence record the actor can see to a case they can
// edit. What the item shows is read now and kept, so the case outlives the posts' retention.
func (s *Service) AddItem(ctx context.Context, actor authz.Actor, caseID int64, in ItemInput) (int64, error) {
	a, err := s.access(ctx, actor, caseID, authz.LevelEdit)
	if err != nil {
		return 0, err
	}
	kind, field, ref, ok := in.ref()
	if !ok {
		return 0, problem.Invalid(MsgOneRef, map[string][]string{"postId": {MsgOneRef}})
	}
	if utf8.RuneCountInString(in.Note) > MaxText {
		return 0, problem.InvalidField("note", MsgTextTooLong)
	}
	items, err := s.Store.CaseItems(ctx, caseID)
	if err != nil {
		return 0, err
	}
	if len(items) >= MaxItems {
		return 0, problem.InvalidField(field, MsgTooManyItems)
	}
	it := Item{CaseID: caseID, Kind: kind, Ref: ref, Note: in.Note, AddedBy: actor.UserID}
	if err := s.resolve(ctx, actor, &it, field); err != nil {
		return 0, err
	}
	for _, existing := range items {
		if existing.Kind == it.Kind && existing.Ref == it.Ref {
			return 0, problem.InvalidField(field, MsgDuplicateItem)
		}
	}
	now := s.now().UTC()
	it.CreatedAt, it.UpdatedAt = now, now
	e := s.touch(actor, caseID, ActionItemAdded, fmt.Sprintf("added %s %s", kindWords[kind], describe(it)))
	if err := s.Store.AddCaseItem(ctx, &it, e, audit.Created(actor, audit.ModelCaseItem, 0, itemFields(it))); err != nil {
		if problem.Is(err, problem.KindConflict) {
			return 0, problem.InvalidField(field, MsgDuplicateItem)
		}
		return 0, err
	}
	s.changed(ctx, actor, a.Case)
	return it.ID, nil
}

var kindWords = map[string]string{KindPost: "the post", KindStory: "the story", KindMatch: "the match", KindEvidence: "the evidence"}

// describe names an item in a timeline line: its title, else its id.
func describe(it Item) string {
	if it.Title != "" {
		return fmt.Sprintf("%q", it.Title)
	}
	return it.Ref
}

// resolve checks the actor can see what the item names, through the same rules as reading it
// elsewhere, and fills in what the item keeps of it. What they cannot see is not found.
func (s *Service) resolve(ctx context.Context, actor authz.Actor, it *Item, field string) error {
	switch it.Kind {
	case KindPost:
		p, err := s.visiblePost(ctx, actor, it.Ref)
		if err != nil {
			return asField(err, field, authz.MsgPostNotFound)
		}
		it.Ref, it.Post, it.Title = p.ID, &p, postTitle(p)
	case KindStory:
		if s.Stories == nil {
			return problem.InvalidField(field, MsgStoryNotFound)
		}
		v, err := s.Stories.Get(ctx, actor, it.Ref, 0, 1)
		if err != nil {
			return asField(err, field, MsgStoryNotFound)
		}
		if len(v.Posts) == 0 {
			return problem.InvalidField(field, MsgStoryNotFound)
		}
		it.Title, it.Post = v.Title, &v.Posts[0]
	case KindMatch:
		id, err := strconv.ParseInt(it.Ref, 10, 64)
		if err != nil || s.Searches == nil {
			return problem.InvalidField(field, MsgMatchNotFound)
		}
		searchID, postID, err := s.Store.CaseMatch(ctx, id)
		if err != nil {
			return asField(err, field, MsgMatchNotFound)
		}
		visible, err := s.Searches.VisibleSearchIDs(ctx, actor)
		if err != nil {
			return err
		}
		if _, ok := visible[searchID]; !ok {
			return problem.InvalidField(field, MsgMatchNotFound)
		}
		p, err := s.visiblePost(ctx, actor, postID)
		if err != nil {
			return asField(err, field, MsgMatchNotFound)
		}
		it.Post, it.Title = &p, postTitle(p)
	case KindEvidence:
		if s.Evidence == nil {
			return problem.InvalidField(field, MsgNoEvidence)
		}
		if err := s.Evidence.Check(ctx, actor, it.Ref); err != nil {
			return asField(err, field, MsgEvidenceNotFound)
		}
	}
	return nil
}

// visiblePost loads a stored post the actor may see (authz.CanSeePost).
func (s *Service) visiblePost(ctx context.Context, actor authz.Actor, id string) (post.Post, error) {
	p, err := s.Store.Post(ctx, id, actor.TenantID)
	if err != nil {
		return post.Post{}, err
	}
	return p, authz.CanSeePost(actor, authz.PostFacts{Tenant: p.Tenant, Provider: p.Provider})
}

// asField reports a reference that does not resolve as a validation error on its field: a
// reference in a body is invalid input, not a missing page (docs/cases-api.md).
func asField(err error, field, msg string) error {
	if problem.Is(err, problem.KindNotFound) {
		return problem.InvalidField(field, msg)
	}
	return err
}

func postTitle(p post.Post) string {
	t := strings.Join(strings.Fields(p.TitleText), " ")
	if t == "" {
		t = strings.Join(strings.Fields(p.ContentText), " ")
	}
	if r := []rune(t); len(r) > 120 {
		t = strings.TrimSpace(string(r[:119])) + "…"
	}
	return t
}

// UpdateItem changes an item's note.
func (s *Service) UpdateItem(ctx context.Context, actor authz.Actor, caseID, itemID int64, note string) error {
	a, it, err := s.item(ctx, actor, caseID, itemID)
	if err != nil {
		return err
	}
	if utf8.RuneCountInString(note) > MaxText {
		return problem.InvalidField("note", MsgTextTooLong)
	}
	if note == it.Note {
		return nil
	}
	before := it
	it.Note, it.UpdatedAt = note, s.now().UTC()
	e := s.touch(actor, caseID, ActionItemUpdated, "changed the note on "+kindWords[it.Kind]+" "+describe(it))
	if err := s.Store.UpdateCaseItem(ctx, it, e, audit.Updated(actor, audit.ModelCaseItem, it.ID, itemFields(before), itemFields(it))...); err != nil {
		return err
	}
	s.changed(ctx, actor, a.Case)
	return nil
}

// DeleteItem takes an item out of a case.
func (s *Service) DeleteItem(ctx context.Context, actor authz.Actor, caseID, itemID int64) error {
	a, it, err := s.item(ctx, actor, caseID, itemID)
	if err != nil {
		return err
	}
	e := s.touch(actor, caseID, ActionItemRemoved, "removed "+kindWords[it.Kind]+" "+describe(it))
	if err := s.Store.DeleteCaseItem(ctx, it, e, audit.Deleted(actor, audit.ModelCaseItem, it.ID, itemFields(it))); err != nil {
		return err
	}
	s.changed(ctx, actor, a.Case)
	return nil
}

// item loads one item of a case the actor can edit.
func (s *Service) item(ctx context.Context, actor authz.Actor, caseID, itemID int64) (Access, Item, error) {
	a, err := s.access(ctx, actor, caseID, authz.LevelEdit)
	if err != nil {
		return Access{}, Item{}, err
	}
	items, err := s.Store.CaseItems(ctx, caseID)
	if err != nil {
		return Access{}, Item{}, err
	}
	for _, it := range items {
		if it.ID == itemID {
			return a, it, nil
		}
	}
	return Access{}, Item{}, problem.NotFound("%s", MsgItemNotFound)
}

// changed tells the case's other viewers it changed.
func (s *Service) changed(ctx context.Context, actor authz.Actor, c Case) {
	if s.Live == nil {
		return
	}
	members, err := s.members(ctx, c.OrganizationID)
	if err != nil {
		s.Logger.Warn("cases: who to tell of a change", "case", c.ID, "err", err)
		return
	}
	s.tell(ctx, actor, c, members)
}

func itemFields(it Item) audit.Fields {
	return audit.Fields{"case_id": it.CaseID, "kind": it.Kind, "ref": it.Ref, "note": it.Note}
}
