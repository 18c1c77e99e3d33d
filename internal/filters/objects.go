package filters

import (
	"context"
	"slices"
	"strings"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/query"
)

// objects is the vocabulary of object detection: what object-detection lists may hold and the
// typeahead suggests. It is the objects the demo simulator's pictures carry
// (internal/connector/simulator/world.go) and the 80 COCO classes that common detectors emit,
// lower case; COCO's "tv" is "television", since entries have at least three characters.
var objects = func() []string {
	list := []string{
		// The simulator's pictures.
		"ammunition", "barrier", "building", "container", "crane", "credit card", "crowd", "drone",
		"fire", "flag", "fruit", "hand", "handgun", "light", "military vehicle", "police car",
		"power line", "rifle", "road", "rubble", "server rack", "ship", "sign", "sky", "smoke",
		"soldier", "stadium", "stage", "table", "water", "window", "computer",
		// COCO.
		"person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat",
		"traffic light", "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog",
		"horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella",
		"handbag", "tie", "suitcase", "frisbee", "skis", "snowboard", "sports ball", "kite",
		"baseball bat", "baseball glove", "skateboard", "surfboard", "tennis racket", "bottle",
		"wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple", "sandwich", "orange",
		"broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch", "potted plant",
		"bed", "dining table", "toilet", "television", "laptop", "mouse", "remote", "keyboard",
		"cell phone", "microwave", "oven", "toaster", "sink", "refrigerator", "book", "clock", "vase",
		"scissors", "teddy bear", "hair drier", "toothbrush",
	}
	slices.Sort(list)
	return slices.Compact(list)
}()

// supportedObject returns the vocabulary's spelling of a folded object name.
func supportedObject(key string) (string, bool) {
	_, found := slices.BinarySearch(objects, key)
	return key, found
}

// ObjectUse is a supported object and how often the organization has chosen it.
type ObjectUse struct {
	Keyword string
	Uses    int64
}

// Typeahead limits.
const (
	DefaultSuggestions = 10
	MaxSuggestions     = 100
)

// ObjectTypeahead suggests supported objects for typed text: an exact match first, then names
// that start with it, then names with a word that starts with it, then names containing it; the
// organization's most used first within each of those, then alphabetically. Empty text lists the
// most used objects.
func (s *Service) ObjectTypeahead(ctx context.Context, a authz.Actor, text string, limit int) ([]ObjectUse, error) {
	if err := authz.CanUseAPI(a); err != nil {
		return nil, err
	}
	if limit < 0 || limit > MaxSuggestions {
		return nil, problem.InvalidField("limit", "The limit must be between 1 and 100.")
	}
	if limit == 0 {
		limit = DefaultSuggestions
	}
	usage, err := s.store.ObjectDetectionUsage(ctx, a.OrganizationID)
	if err != nil {
		return nil, err
	}
	return rankObjects(query.Fold(text), usage, limit), nil
}

func rankObjects(text string, usage map[string]int64, limit int) []ObjectUse {
	type candidate struct {
		ObjectUse
		tier int
	}
	var found []candidate
	for _, o := range objects {
		if tier := matchTier(o, text); tier >= 0 {
			found = append(found, candidate{ObjectUse{Keyword: o, Uses: usage[o]}, tier})
		}
	}
	slices.SortStableFunc(found, func(a, b candidate) int {
		if a.tier != b.tier {
			return a.tier - b.tier
		}
		switch {
		case a.Uses > b.Uses:
			return -1
		case a.Uses < b.Uses:
			return 1
		}
		return 0 // objects are already alphabetical
	})
	out := make([]ObjectUse, 0, min(limit, len(found)))
	for _, c := range found[:min(limit, len(found))] {
		out = append(out, c.ObjectUse)
	}
	return out
}

// matchTier ranks how an object name matches folded text; -1 when it does not.
func matchTier(object, text string) int {
	switch {
	case text == "" || object == text:
		return 0
	case strings.HasPrefix(object, text):
		return 1
	case strings.Contains(object, " "+text):
		return 2
	case strings.Contains(object, text):
		return 3
	}
	return -1
}

// TrackObject records that the organization chose an object, raising it in the typeahead.
func (s *Service) TrackObject(ctx context.Context, a authz.Actor, keyword string) (ObjectUse, error) {
	if err := authz.CanUseAPI(a); err != nil {
		return ObjectUse{}, err
	}
	object, ok := supportedObject(query.Fold(keyword))
	switch {
	case strings.TrimSpace(keyword) == "":
		return ObjectUse{}, problem.InvalidField("keyword", "The keyword field is required.")
	case !ok:
		return ObjectUse{}, problem.InvalidField("keyword", unsupportedMessage([]string{keyword}))
	}
	uses, err := s.store.TrackObjectDetection(ctx, a.OrganizationID, object)
	return ObjectUse{Keyword: object, Uses: uses}, err
}
