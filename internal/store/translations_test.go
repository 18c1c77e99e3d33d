package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/translate"
)

// A batch lookup finds exactly the stored keys, across more keys than one read takes, and not
// a text stored from another source language, to another target or in another format.
func TestCachedTranslations(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		stored := map[translate.Key]string{}
		for i := range 3 {
			k := translate.KeyOf(fmt.Sprintf("texte %d", i*600), "fr", "en", translate.FormatText)
			stored[k] = fmt.Sprintf("text %d", i*600)
			if err := s.SaveTranslation(ctx, k, stored[k]); err != nil {
				t.Fatal(err)
			}
		}
		for _, k := range []translate.Key{translate.KeyOf("texte 1", translate.Auto, "en", translate.FormatText),
			translate.KeyOf("texte 2", "fr", "de", translate.FormatText), translate.KeyOf("texte 3", "fr", "en", translate.FormatHTML)} {
			if err := s.SaveTranslation(ctx, k, "other"); err != nil {
				t.Fatal(err)
			}
		}
		var keys []translate.Key
		for i := range 1300 {
			keys = append(keys, translate.KeyOf(fmt.Sprintf("texte %d", i), "fr", "en", translate.FormatText))
		}
		keys = append(keys, translate.Key{TextHash: "' OR 1=1 --", Source: "fr", Target: "en", Format: translate.FormatText})
		got, err := s.CachedTranslations(ctx, keys)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(stored) {
			t.Errorf("CachedTranslations = %v %v, want %v", got, err, stored)
		}
		if got, err := s.CachedTranslations(ctx, nil); err != nil || len(got) != 0 {
			t.Errorf("no keys = %v %v", got, err)
		}
	})
}
