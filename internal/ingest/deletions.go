package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
)

// PostDeleter marks stored posts deleted by their provider (store.Store.MarkPostDeleted): only a
// post owned by owner, keeping the first report's time; found is false when there is none.
type PostDeleter interface {
	MarkPostDeleted(ctx context.Context, id string, owner int64, at time.Time) (found bool, err error)
}

// WithDeletions makes the service record deletions in d: connectors' (DeleteFrom) and the
// ingest API's (ReportDeletions). Without it both are refused.
func (s *Service) WithDeletions(d PostDeleter) *Service {
	s.deleter = d
	return s
}

// errNoDeletions is what a service without a PostDeleter answers.
var errNoDeletions = errors.New("ingest: deletions are not recorded by this service")

// DeleteFrom is where a source row's connectors report deletions: their posts belong to
// tenant (0 for the operator's shared sources), and the id is derived as EmitFrom derives it.
func (s *Service) DeleteFrom(tenant int64) connector.DeleteFunc {
	return func(ctx context.Context, provider, nativeID string, at time.Time) error {
		if s.deleter == nil {
			return errNoDeletions
		}
		id := post.NewID(provider, nativeID)
		if tenant != 0 {
			id = post.NewTenantID(tenant, provider, nativeID)
		}
		_, err := s.deleter.MarkPostDeleted(ctx, id, tenant, at)
		return err
	}
}

// Bounds of one report of deletions.
const (
	// MaxDeletionsBody is the most bytes one report may hold.
	MaxDeletionsBody = 4 << 20
	// MaxDeletions is the most deletions one report may hold.
	MaxDeletions = 10_000
)

// Deletion is one line of a report: the post as it was pushed (provider and native_id, or id),
// and when the provider deleted it (now when absent).
type Deletion struct {
	Provider  string     `json:"provider"`
	NativeID  string     `json:"native_id"`
	ID        string     `json:"id"`
	DeletedAt *time.Time `json:"deleted_at"`
}

// DeletionResult is what became of a report: how many posts are marked deleted (now or before)
// and the lines that were not, with why.
type DeletionResult struct {
	Deleted       int         `json:"deleted"`
	Rejected      []Rejection `json:"rejected"`
	RejectedCount int         `json:"rejectedCount"`
}

// Messages of a rejected deletion.
const (
	msgDeletionNotFound = "no post with this provider and native_id was pushed with this token"
	msgDeletionFuture   = "deleted_at is in the future"
)

// ReportDeletions reads deletions (NDJSON or a JSON array, as Submit reads posts) and marks
// each post deleted: only a post the origin pushed (its id is derived from the origin's
// namespace, so a token reaches its own posts only) and owned by its tenant. A post already
// marked keeps its first time and counts as deleted. A bad line never stops the good ones.
func (s *Service) ReportDeletions(ctx context.Context, r io.Reader, o Origin) (DeletionResult, error) {
	if s.deleter == nil {
		return DeletionResult{}, errNoDeletions
	}
	res := DeletionResult{Rejected: []Rejection{}}
	reject := func(line int, message string) {
		res.RejectedCount++
		if len(res.Rejected) < MaxRejectionsListed {
			res.Rejected = append(res.Rejected, Rejection{Line: line, Message: message})
		}
	}
	body := &cappedReader{r: r, left: MaxDeletionsBody}
	dec := NewDecoder(body)
	now := s.now().UTC()
	lastLine := 0
	for n := 0; ; n++ {
		raw, line, err := dec.nextRaw()
		if err == io.EOF {
			return res, nil
		}
		if err != nil {
			line = lastLine + 1
			if errors.Is(err, errBodyTooLarge) {
				return res, deletionsTooLarge(res, fmt.Sprintf("The request body is larger than %d MiB.", MaxDeletionsBody>>20))
			}
			reject(line, "reading stopped here: "+err.Error())
			return res, nil
		}
		lastLine = line
		if n == MaxDeletions {
			return res, deletionsTooLarge(res, fmt.Sprintf("The request holds more than %d deletions.", MaxDeletions))
		}
		var d Deletion
		if err := json.Unmarshal(raw, &d); err != nil {
			reject(line, "not a deletion: "+err.Error())
			continue
		}
		provider, native := strings.ToLower(strings.TrimSpace(d.Provider)), strings.TrimSpace(d.NativeID)
		if native == "" {
			native = strings.TrimSpace(d.ID)
		}
		switch {
		case provider == "":
			reject(line, "provider is required")
			continue
		case native == "":
			reject(line, "native_id is required")
			continue
		case d.DeletedAt != nil && d.DeletedAt.After(now.Add(time.Minute)):
			reject(line, msgDeletionFuture)
			continue
		}
		at := now
		if d.DeletedAt != nil {
			at = d.DeletedAt.UTC()
		}
		found, err := s.deleter.MarkPostDeleted(ctx, post.NewIngestID(o.Namespace, provider, native), o.Tenant, at)
		if err != nil {
			return res, err
		}
		if !found {
			reject(line, msgDeletionNotFound)
			continue
		}
		res.Deleted++
	}
}

func deletionsTooLarge(res DeletionResult, reason string) error {
	p := problem.TooLarge(fmt.Sprintf("%s Deletions up to there were processed: %d deleted, %d rejected; "+
		"send the rest in another request.", reason, res.Deleted, res.RejectedCount))
	p.Extra = map[string]any{"deleted": res.Deleted, "rejected": res.Rejected, "rejectedCount": res.RejectedCount}
	return p
}
