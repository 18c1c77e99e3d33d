package assistant

import (
	"testing"

	"github.com/sightline/sightline/internal/post"
)

// Analyze takes English posts by their text, whatever language the provider declared.
func TestAnalyzable(t *testing.T) {
	const english = "Police closed the bridge on the main road after the storm damaged it last night."
	tests := []struct {
		name string
		p    post.Post
		want bool
	}{
		{"english", post.Post{ContentText: english, Language: "en"}, true},
		{"english declared ukrainian", post.Post{ContentText: english, Language: "uk"}, true},
		{"english undetermined", post.Post{ContentText: english, Language: "und"}, true},
		{"spanish declared english", post.Post{ContentText: "La policía cerró el puente de la carretera principal después de que la tormenta lo dañara anoche.", Language: "en"}, false},
		{"too short", post.Post{ContentText: "Bridge closed after the storm.", Language: "en"}, false},
	}
	for _, tt := range tests {
		if got := Analyzable(tt.p); got != tt.want {
			t.Errorf("%s: Analyzable = %v, want %v", tt.name, got, tt.want)
		}
	}
}
