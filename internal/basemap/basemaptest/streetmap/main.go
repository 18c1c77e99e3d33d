// Command streetmap writes the browser tests' made-up town (basemaptest.Streets) as a PMTiles
// file for `sightline serve --map-pmtiles`, and prints the area it covers and a few of its
// crossings as JSON:
//
//	go run ./internal/basemap/basemaptest/streetmap town.pmtiles
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/sightline/sightline/internal/basemap/basemaptest"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: streetmap FILE.pmtiles")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "streetmap:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	archive, err := basemaptest.Streets()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, archive, 0o644); err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(struct {
		Area      basemaptest.Area       `json:"area"`
		Crossings []basemaptest.Crossing `json:"crossings"`
	}{
		Area: basemaptest.StreetsArea(),
		Crossings: []basemaptest.Crossing{
			basemaptest.StreetCrossing(2, 7), // Market Street / Quay Avenue
			basemaptest.StreetCrossing(6, 3), // Canal Street / Station Avenue
			basemaptest.StreetCrossing(4, 8), // Tanner Street / Dyer Street
		},
	})
}
