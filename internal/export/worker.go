package export

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/translate"
)

// pageSize is how many posts the worker reads at a time: memory holds one page, not the export.
// Each page is one query; on PostgreSQL one costs about the same for 500 rows as for 2,000.
const pageSize = 2000

var (
	errFull  = errors.New("export: the day's quota is reached")
	errEmpty = errors.New("export: nothing to export")
	errLost  = errors.New("export: the claim passed to another worker")
)

// Run claims and runs exports one at a time until ctx ends, woken by a request on this node and
// every poll interval for those made on other nodes or left by a node that stopped.
func (s *Service) Run(ctx context.Context) error {
	for {
		worked, err := s.RunOnce(ctx)
		if err != nil && ctx.Err() == nil {
			s.Logger.Error("export worker", "err", err)
		}
		if worked && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return nil
		case <-s.wake:
		case <-time.After(s.poll):
		}
	}
}

// RunOnce claims one export and runs it to its end; worked is false when none was waiting.
func (s *Service) RunOnce(ctx context.Context) (worked bool, err error) {
	raw := make([]byte, 12)
	rand.Read(raw)
	claim := hex.EncodeToString(raw)
	now := s.now()
	e, found, err := s.Store.ClaimExport(ctx, claim, now, now.Add(s.lease))
	if err != nil || !found {
		return false, err
	}
	return true, s.run(ctx, e, claim)
}

func (s *Service) run(ctx context.Context, e Export, claim string) error {
	err := s.write(ctx, &e, claim)
	if ctx.Err() != nil || errors.Is(err, errLost) {
		// Stopping: hand the export back so that the next start, or another node, resumes it
		// at once instead of when the lease ends.
		if ctx.Err() != nil {
			return s.Store.ReleaseExport(context.WithoutCancel(ctx), e.ID, claim)
		}
		return nil
	}
	e.FinishedAt = s.now().UTC()
	switch {
	case err == nil:
		e.Status = StatusReady
	case errors.Is(err, errEmpty):
		e.Status, e.Error, e.PostCount, e.EmailStatus = StatusFailed, MsgEmpty, 0, ""
	default:
		s.Logger.Error("export failed", "export", e.ID, "err", err)
		e.Status, e.Error, e.PostCount, e.EmailStatus = StatusFailed, MsgFailed, 0, ""
	}
	held, err := s.Store.FinishExport(ctx, e, claim)
	if err != nil || !held || e.Status != StatusReady {
		return err
	}
	s.announce(ctx, e)
	return nil
}

// write streams the export's posts to its file and fills in its name and post count.
func (s *Service) write(ctx context.Context, e *Export, claim string) (err error) {
	actor, err := s.actor(ctx, e.UserID, e.OrganizationID)
	if err != nil {
		return err
	}
	// What the rest of the day's exports leave; the request reserved its count, but a Beacon
	// count may be an estimate and an inbox may have grown since.
	q := day(e.CreatedAt)
	used, err := s.Store.ExportedPosts(ctx, e.UserID, q.Since, q.Until, e.ID)
	if err != nil {
		return err
	}
	limit := q.Limit - used
	var sel Selection
	if err := json.Unmarshal(e.Request, &sel); err != nil {
		return err
	}
	tmp := filepath.Join(s.Dir, fmt.Sprintf("%d-%s.tmp", e.ID, claim))
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	w, err := newWriter(e.Format, e.Columns, f)
	if err != nil {
		return err
	}
	n, renewAt := 0, s.now().Add(s.lease/3)
	translated := s.Translations != nil && slices.Contains(e.Columns, "translatedText")
	emit := func(rows []Row) error {
		if translated {
			if err := s.translate(ctx, rows, sel.TranslateTo); err != nil {
				return err
			}
		}
		for _, r := range rows {
			if n >= limit {
				return errFull
			}
			if err := w.Write(r); err != nil {
				return err
			}
			n++
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if now := s.now(); now.After(renewAt) {
			held, err := s.Store.RenewExport(ctx, e.ID, claim, now.Add(s.lease))
			if err != nil {
				return err
			}
			if !held {
				return errLost
			}
			renewAt = now.Add(s.lease / 3)
		}
		return nil
	}
	if err = s.each(ctx, actor, e.Source, sel, emit); err != nil && !errors.Is(err, errFull) {
		return err
	}
	if err = w.Close(); err != nil {
		return err
	}
	if n == 0 {
		return errEmpty
	}
	// Synced before the row says ready, so a crash cannot leave a ready export without its file.
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	name := fmt.Sprintf("%d.%s", e.ID, e.Format)
	if err = os.Rename(tmp, filepath.Join(s.Dir, name)); err != nil {
		return err
	}
	e.File, e.PostCount = name, n
	return nil
}

// translate fills in the rows' translatedText from the translations stored before, in one
// read of the store for the page; a post nobody translated into target stays empty. The post
// cards translate the title and the text apart (each shown in its place); cards of earlier
// releases sent them joined, which is looked up too.
func (s *Service) translate(ctx context.Context, rows []Row, target string) error {
	texts := make([]translate.Text, 0, 3*len(rows))
	for _, r := range rows {
		lang := r.Post.Language
		texts = append(texts, translate.Text{Text: translate.PostText(r.Post.TitleText, r.Post.ContentText), Language: lang},
			translate.Text{Text: r.Post.TitleText, Language: lang}, translate.Text{Text: r.Post.ContentText, Language: lang})
	}
	found, err := s.Translations.CachedTexts(ctx, texts, target)
	if err != nil {
		return err
	}
	for i := range rows {
		joined, title, content := found[3*i], found[3*i+1], found[3*i+2]
		titled, written := strings.TrimSpace(rows[i].Post.TitleText) != "", strings.TrimSpace(rows[i].Post.ContentText) != ""
		switch {
		case joined != "":
			rows[i].TranslatedText = joined
		case (!titled || title != "") && (!written || content != ""):
			rows[i].TranslatedText = translate.PostText(title, content)
		}
	}
	return nil
}

// each reads the selection page by page through the searches' own queries and calls emit.
func (s *Service) each(ctx context.Context, actor authz.Actor, source string, sel Selection, emit func([]Row) error) error {
	if source == SourceBeacon {
		if sel.Search == nil {
			return errEmpty
		}
		ent, category := entitlements(actor), categoryOf(sel)
		page, err := s.Beacon.Search(ctx, ent, category, pageRequest(*sel.Search))
		for {
			if err != nil {
				return err
			}
			rows := make([]Row, len(page.Documents))
			for i, p := range page.Documents {
				rows[i] = Row{Post: p}
			}
			if err := emit(rows); err != nil {
				return err
			}
			if page.SearchID == "" {
				return nil
			}
			page, err = s.Beacon.More(ctx, ent, category, page.SearchID)
		}
	}
	matches := func(entries []monitor.InboxEntry) error {
		rows := make([]Row, len(entries))
		for i, en := range entries {
			rows[i] = Row{Post: en.Post, MatchedTerms: en.Why.Hits(en.SearchID, en.Post), SearchName: en.SearchName}
		}
		return emit(rows)
	}
	if sel.Filters == nil && len(sel.MatchIDs) > 0 {
		return s.Matches.EachMatchByID(ctx, actor, sel.MatchIDs, pageSize, matches)
	}
	var q monitor.MatchQuery
	if sel.Filters != nil {
		q = *sel.Filters
	}
	return s.Matches.EachMatch(ctx, actor, q, pageSize, matches)
}

// actor is the export's owner as they are now: a membership lost since the request ends it.
func (s *Service) actor(ctx context.Context, userID, organizationID int64) (authz.Actor, error) {
	u, err := s.Users.User(ctx, userID)
	if err != nil {
		return authz.Actor{}, err
	}
	if u.OrganizationID != organizationID {
		return authz.Actor{}, fmt.Errorf("export: user %d left organization %d", userID, organizationID)
	}
	role, err := s.Users.MembershipRole(ctx, organizationID, userID)
	if err != nil {
		return authz.Actor{}, err
	}
	return authz.Actor{UserID: u.ID, OrganizationID: u.OrganizationID, TenantID: u.TenantID, Role: role,
		TenantAdmin: u.IsTenantAdmin, Via: authz.ViaSession, ACL: u.ACL}, nil
}

// link is the export's download address: absolute with a public URL, app-relative without.
func (s *Service) link(id int64) string {
	return strings.TrimRight(s.PublicURL, "/") + DownloadPath(id)
}

// announce tells the owner the export is ready: on the live channel, and by e-mail when an
// address was given (or records that e-mail is off).
func (s *Service) announce(ctx context.Context, e Export) {
	ttl := int(e.ExpiresAt.Sub(s.now()).Seconds())
	if s.Live != nil {
		if err := s.Live.PublishToUser(ctx, e.UserID, live.EventExportReady, live.ExportReady{Link: s.link(e.ID), TTL: ttl}); err != nil {
			s.Logger.Warn("export: live event", "export", e.ID, "err", err)
		}
	}
	if e.Email == "" {
		return
	}
	status := EmailOff
	if s.Mail != nil {
		status = EmailSent
		if err := s.Mail.Send(ctx, readyMessage(e, s.link(e.ID))); err != nil {
			s.Logger.Warn("export: e-mail the link", "export", e.ID, "err", err)
			status = EmailFailed
		}
	}
	if err := s.Store.SetExportEmailStatus(ctx, e.ID, status); err != nil {
		s.Logger.Warn("export: record the e-mail", "export", e.ID, "err", err)
	}
}

// Sweep deletes expired exports, files first, and files a stopped worker left half-written.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	expired, err := s.Store.ExpiredExports(ctx, s.now())
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range expired {
		if e.File != "" {
			if err := os.Remove(filepath.Join(s.Dir, filepath.Base(e.File))); err != nil && !os.IsNotExist(err) {
				return n, err
			}
		}
		if err := s.Store.DeleteExport(ctx, e.ID); err != nil {
			return n, err
		}
		n++
	}
	// A running export writes its file at least every lease/3; one untouched far longer than a
	// lease belongs to a worker that stopped without cleaning up.
	temps, _ := filepath.Glob(filepath.Join(s.Dir, "*.tmp"))
	for _, t := range temps {
		if info, err := os.Stat(t); err == nil && s.now().Sub(info.ModTime()) > 10*s.lease {
			os.Remove(t)
		}
	}
	return n, nil
}

// RunSweeper sweeps every interval until ctx ends.
func (s *Service) RunSweeper(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.Logger.Warn("export: sweep expired exports", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
