package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/usage"
)

type seriesReply struct {
	Searches []int64 `json:"searches"`
	Matches  []int64 `json:"matches"`
	Exports  []int64 `json:"exports"`
}

type memberSeriesReply struct {
	ID    int64        `json:"id"`
	Name  string       `json:"name"`
	Email string       `json:"email"`
	Role  account.Role `json:"role"`
	seriesReply
}

func seriesJSON(s usage.Series) seriesReply {
	return seriesReply{Searches: s.Searches, Matches: s.Matches, Exports: s.Exports}
}

// statistics answers .../statistics/{beacon|locate}/{organization|member}-counts-monthly.
func (a *API) statistics(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	org, err := orgID(r)
	if err != nil {
		return err
	}
	counts := r.PathValue("counts")
	if counts != "organization-counts-monthly" && counts != "member-counts-monthly" {
		return problem.NotFound("The requested resource was not found.")
	}
	rep, err := a.Usage.Monthly(r.Context(), id.Actor(), org, r.PathValue("product"))
	if err != nil {
		return err
	}
	if counts == "organization-counts-monthly" {
		return ok(w, map[string]any{"months": rep.Months, "counts": seriesJSON(rep.Organization)})
	}
	out := make([]memberSeriesReply, 0, len(rep.Members))
	for _, m := range rep.Members {
		out = append(out, memberSeriesReply{ID: m.Member.UserID, Name: m.Member.Name, Email: m.Member.Email,
			Role: m.Member.Role, seriesReply: seriesJSON(m.Series)})
	}
	return ok(w, map[string]any{"months": rep.Months, "members": out})
}
