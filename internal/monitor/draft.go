package monitor

import (
	"context"
	"errors"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/problem"
)

// DraftInput is a saved search not yet saved, for a preview: the create payload and, when the
// preview is of an edit, the id of the search being edited.
type DraftInput struct {
	SearchInput
	MonitorSearchID int64 `json:"monitorSearchId,omitempty"`
}

// Draft checks a search exactly as creating it (or, with MonitorSearchID, updating that search)
// would, stores nothing, and returns it with its filter lists in the matcher's form.
func (s *Service) Draft(ctx context.Context, actor authz.Actor, in DraftInput) (Search, []percolate.FilterList, error) {
	if err := authz.CanUseAPI(actor); err != nil {
		return Search{}, nil, err
	}
	v, err := s.load(ctx, actor)
	if err != nil {
		return Search{}, nil, err
	}
	var p preparedSearch
	if in.MonitorSearchID != 0 {
		current, err := s.searchView(ctx, v, in.MonitorSearchID)
		if err != nil {
			return Search{}, nil, err
		}
		if err := authz.Require(current.Level, authz.LevelEdit, authz.MsgNotFoundSearch, authz.MsgReadOnly); err != nil {
			return Search{}, nil, err
		}
		if in.SharedUsers != nil && !current.CanManageSharing {
			return Search{}, nil, problem.Forbidden(MsgSharingSearch)
		}
		p, err = s.prepare(ctx, actor, v, current.Search, in.SearchInput, current.FilterLists, false)
		if err != nil {
			return Search{}, nil, err
		}
	} else {
		m := Search{OrganizationID: actor.OrganizationID, OwnerID: actor.UserID, Enabled: true}
		if p, err = s.prepare(ctx, actor, v, m, in.SearchInput, nil, true); err != nil {
			return Search{}, nil, err
		}
	}
	if len(p.lists) == 0 {
		return p.search, nil, nil
	}
	if s.filters == nil {
		return Search{}, nil, errors.New("draft search: filter lists are not available")
	}
	lists, err := s.filters.ForMatching(ctx, actor, p.lists)
	if err != nil {
		return Search{}, nil, err
	}
	return p.search, lists, nil
}

// savedSearch is m in the matcher's form, with its filter lists, as stored: enabled or not, with
// its dates.
func savedSearch(m Search, lists []percolate.FilterList) (percolate.SavedSearch, error) {
	s := percolate.SavedSearch{ID: m.ID, Keywords: m.Keywords, Author: m.AuthorQuery, Providers: m.Providers,
		ImagesOnly: m.ImagesOnly, VideosOnly: m.VideoOnly, Boards: m.BoardNames, Filters: lists, Enabled: m.Enabled}
	if m.AddressBounds != "" {
		bounds, err := geom.ParseWKT(m.AddressBounds)
		if err != nil {
			return s, err
		}
		s.Bounds = bounds
	}
	if !m.StartAt.IsZero() {
		start := m.StartAt
		s.Start = &start
	}
	if !m.EndAt.IsZero() {
		end := m.EndAt
		s.End = &end
	}
	return s, nil
}

// DraftMatcher compiles a draft search with the percolator's matcher, running and without its
// dates: they say when the search will collect from now on, while a preview asks what its terms
// and filters catch among posts already stored.
func DraftMatcher(m Search, lists []percolate.FilterList) (*percolate.Compiled, error) {
	s, err := savedSearch(m, lists)
	if err != nil {
		return nil, err
	}
	s.Start, s.End, s.Enabled = nil, nil, true
	return percolate.Compile(s)
}
