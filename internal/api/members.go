package api

import (
	"net/http"
	"strconv"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/members"
	"github.com/sightline/sightline/internal/problem"
)

type invitationReply struct {
	ID        int64        `json:"id"`
	Email     string       `json:"email"`
	Role      account.Role `json:"role"`
	State     string       `json:"state"`
	CreatedAt int64        `json:"createdAt"`
	ExpiresAt int64        `json:"expiresAt"`
}

func invitationJSON(inv members.Invitation, state string) invitationReply {
	return invitationReply{ID: inv.ID, Email: inv.Email, Role: inv.Role, State: state,
		CreatedAt: inv.CreatedAt.Unix(), ExpiresAt: inv.ExpiresAt.Unix()}
}

// orgID reads the {orgId} path value; a malformed one names no organization.
func orgID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("orgId"), 10, 64)
	if err != nil || id <= 0 {
		return 0, problem.NotFound("The organization was not found.")
	}
	return id, nil
}

func (a *API) invitations(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	org, err := orgID(r)
	if err != nil {
		return err
	}
	list, err := a.Members.Invitations(r.Context(), id.Actor(), org)
	if err != nil {
		return err
	}
	now := a.Members.Now()
	out := make([]invitationReply, 0, len(list))
	for _, inv := range list {
		out = append(out, invitationJSON(inv, inv.State(now)))
	}
	return ok(w, out)
}

func (a *API) invite(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	org, err := orgID(r)
	if err != nil {
		return err
	}
	var body struct {
		Email string       `json:"email"`
		Role  account.Role `json:"role"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	inv, err := a.Members.Invite(r.Context(), id.Actor(), org, body.Email, body.Role)
	if err != nil {
		return err
	}
	return ok(w, invitationJSON(inv, members.StatePending))
}

func (a *API) revokeInvitation(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	inv, err := pathID(r)
	if err != nil {
		return err
	}
	if err := a.Members.RevokeInvitation(r.Context(), id.Actor(), inv); err != nil {
		return err
	}
	return ok(w, map[string]bool{"revoked": true})
}

// memberUserID reads the {userId} path value.
func memberUserID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("userId"), 10, 64)
	if err != nil || id <= 0 {
		return 0, problem.NotFound("The member was not found.")
	}
	return id, nil
}

func (a *API) removeMember(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	org, err := orgID(r)
	if err != nil {
		return err
	}
	user, err := memberUserID(r)
	if err != nil {
		return err
	}
	if err := a.Members.Remove(r.Context(), id.Actor(), org, user); err != nil {
		return err
	}
	return ok(w, map[string]bool{"removed": true})
}

func (a *API) setMemberRole(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	org, err := orgID(r)
	if err != nil {
		return err
	}
	user, err := memberUserID(r)
	if err != nil {
		return err
	}
	var body struct {
		Role account.Role `json:"role"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	m, err := a.Members.SetRole(r.Context(), id.Actor(), org, user, body.Role)
	if err != nil {
		return err
	}
	return ok(w, memberReply{ID: m.UserID, Email: m.Email, Username: m.Username, Name: m.Name, Role: m.Role})
}

// openInvitation tells the public invitation page whom the link invites, to what.
func (a *API) openInvitation(w http.ResponseWriter, r *http.Request) error {
	opened, err := a.Members.Open(r.Context(), r.PathValue("token"))
	if err != nil {
		return err
	}
	return ok(w, map[string]any{"email": opened.Invitation.Email, "role": opened.Invitation.Role,
		"organization": opened.Organization.Name, "expiresAt": opened.Invitation.ExpiresAt.Unix()})
}

// acceptInvitation makes the invitee a member and signs them in, as sign-in does.
func (a *API) acceptInvitation(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Name         string `json:"name"`
		Password     string `json:"password"`
		Confirmation string `json:"password_confirmation"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	u, err := a.Members.Accept(r.Context(), r.PathValue("token"), members.Acceptance{Name: body.Name,
		Password: body.Password, Confirmation: body.Confirmation})
	if err != nil {
		return err
	}
	return a.signIn(w, r, auth.Credentials{Email: u.Email, Password: body.Password, IP: clientIP(r), UserAgent: r.UserAgent()})
}
