package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/sealed"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// An enrolment's secret is stored sealed and pending; enabling needs one; recovery codes are
// spent once and only by their owner; disabling forgets the secret and the codes.
func TestMFAStore(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := seedUser(t, s, "mfa@acme.test")
		other := seedUser(t, s, "other@acme.test")
		if err := s.EnableMFA(ctx, u.ID, []string{"h1"}); !problem.Is(err, problem.KindConflict) {
			t.Errorf("enable without enrolment = %v", err)
		}
		if err := s.StartMFAEnrolment(ctx, u.ID, plainTOTP); err != nil {
			t.Fatal(err)
		}
		raw, err := s.RawString(ctx, `SELECT mfa_secret FROM users WHERE id = $1`, u.ID)
		if err != nil || !sealed.IsSealed(raw) {
			t.Errorf("stored secret %q is not sealed (%v)", raw, err)
		}
		if got, _ := s.User(ctx, u.ID); got.MFASecret != plainTOTP || got.IsMFAEnabled {
			t.Errorf("pending user = %q %v", got.MFASecret, got.IsMFAEnabled)
		}
		if err := s.EnableMFA(ctx, u.ID, []string{"h1", "h2"}); err != nil {
			t.Fatal(err)
		}
		if err := s.StartMFAEnrolment(ctx, u.ID, "ANOTHERSECRET234"); !problem.Is(err, problem.KindConflict) {
			t.Errorf("enrolment while on = %v", err)
		}
		if n, _ := s.RecoveryCodesLeft(ctx, u.ID); n != 2 {
			t.Errorf("codes left = %d", n)
		}
		now := time.Now()
		if ok, err := s.UseRecoveryCode(ctx, other.ID, "h1", now); ok || err != nil {
			t.Errorf("another user spent the code: %v %v", ok, err)
		}
		if ok, err := s.UseRecoveryCode(ctx, u.ID, "h1", now); !ok || err != nil {
			t.Errorf("first use = %v %v", ok, err)
		}
		if ok, err := s.UseRecoveryCode(ctx, u.ID, "h1", now); ok || err != nil {
			t.Errorf("second use = %v %v", ok, err)
		}
		if n, _ := s.RecoveryCodesLeft(ctx, u.ID); n != 1 {
			t.Errorf("codes left = %d", n)
		}
		if err := s.DisableMFA(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		got, _ := s.User(ctx, u.ID)
		if n, _ := s.RecoveryCodesLeft(ctx, u.ID); n != 0 || got.IsMFAEnabled || got.MFASecret != "" {
			t.Errorf("after disable: %d codes, on %v, secret %q", n, got.IsMFAEnabled, got.MFASecret)
		}
		if ok, _ := s.UseRecoveryCode(ctx, u.ID, "h2", now); ok {
			t.Error("a code survived turning off")
		}
	})
}
