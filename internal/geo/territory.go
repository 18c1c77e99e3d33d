package geo

import "github.com/sightline/sightline/internal/geom"

// usTerritories are the United States and the territories its persons' data rules cover.
var usTerritories = map[string]bool{"US": true, "PR": true, "GU": true, "VI": true, "AS": true, "MP": true, "UM": true}

// IsUSTerritoryCode reports whether an ISO 3166 country code is the United States' or one of
// its territories'.
func IsUSTerritoryCode(code string) bool { return usTerritories[code] }

// usTerritoryToleranceKm reaches atolls and islets that the simplified outlines miss or draw a
// little off (Wake Island, Johnston Atoll, the outer reefs of the Northern Marianas).
const usTerritoryToleranceKm = 25

// InUSTerritory reports whether p lies in the United States or one of its territories: inside
// their outlines, or within usTerritoryToleranceKm of them when no other country's outline
// holds p (so Tijuana, a few kilometres from the border, stays in Mexico).
func (g *Gazetteer) InUSTerritory(p geom.Point) bool {
	for code := range usTerritories {
		if g.shapeContains(code, p) {
			return true
		}
	}
	for code := range g.shapes {
		if len(code) == 2 && !usTerritories[code] && g.shapeContains(code, p) {
			return false
		}
	}
	for code := range usTerritories {
		if s, ok := g.shapes[code]; ok && g.prepared[code].MayBeWithinKm(p, usTerritoryToleranceKm) &&
			s.DistanceKm(p) <= usTerritoryToleranceKm {
			return true
		}
	}
	return false
}

func (g *Gazetteer) shapeContains(code string, p geom.Point) bool {
	return g.shapeBounds[code].Contains(p) && g.prepared[code].Contains(p)
}
