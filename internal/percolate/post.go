package percolate

import (
	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/post"
)

// DocOf is what the matcher sees of a stored or incoming post.
func DocOf(p post.Post) *Doc {
	d := &Doc{Provider: p.Provider, Title: p.TitleText, Text: p.ContentText, AuthorName: p.AuthorName,
		AuthorScreenName: p.AuthorScreenName, Published: p.PublishedAt, HasImages: len(p.Photos) > 0,
		HasVideos: len(p.Videos) > 0, Board: p.Board, Objects: p.DetectedObjects}
	if p.Location != nil {
		d.Location = &geom.Point{Lat: p.Location.Lat, Lon: p.Location.Lon}
	}
	for _, m := range p.MentionedLocations {
		d.Mentioned = append(d.Mentioned, geom.Point{Lat: m.Point.Lat, Lon: m.Point.Lon})
	}
	return d
}
