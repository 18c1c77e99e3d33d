package api

import (
	"mime"
	"net"
	"net/http"
	"strconv"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/problem"
)

// liveSocket hands /app/{key} to the hub. It is not wrapped in the request timeout: a socket
// stays open for hours, and it authenticates by signed subscriptions instead of credentials.
func (a *API) liveSocket(w http.ResponseWriter, r *http.Request) {
	a.Live.ServeHTTP(w, r)
}

// authorizeChannel signs a socket's subscription to the caller's own private channel, as
// pusher-js asks for it: a form (or JSON) with socket_id and channel_name, answered with
// {"auth": "key:signature"} outside the data envelope.
func (a *API) authorizeChannel(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var req struct {
		SocketID    string `json:"socket_id"`
		ChannelName string `json:"channel_name"`
	}
	if mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mediaType == "application/x-www-form-urlencoded" {
		r.Body = http.MaxBytesReader(w, r.Body, 1<<16)
		if err := r.ParseForm(); err != nil {
			return problem.Invalid("The request body is not a valid form: "+err.Error(), nil)
		}
		req.SocketID, req.ChannelName = r.PostForm.Get("socket_id"), r.PostForm.Get("channel_name")
	} else if err := decode(r, &req); err != nil {
		return err
	}
	fields := map[string][]string{}
	if !live.ValidSocketID(req.SocketID) {
		fields["socket_id"] = []string{"The socket id must be two numbers joined by a dot, such as 123.456."}
	}
	if req.ChannelName == "" {
		fields["channel_name"] = []string{"The channel name is required."}
	}
	if len(fields) > 0 {
		return problem.Invalid("The channel authorization request is not valid.", fields)
	}
	owner, ok := live.ParseUserChannel(req.ChannelName)
	if !ok {
		return problem.Forbidden("Only private-user channels are served.")
	}
	if err := authz.CanListenToUser(id.Actor(), owner); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"auth": a.Live.Credentials().Sign(req.SocketID, req.ChannelName)})
	return nil
}

type liveConfigReply struct {
	Key          string `json:"key"`
	Host         string `json:"host"`
	Port         int    `json:"port"`
	TLS          bool   `json:"tls"`
	PingInterval int64  `json:"pingInterval"`
	AuthEndpoint string `json:"authEndpoint"`
}

// liveConfig tells the page how to connect: to the host and port it was loaded from, over TLS
// when the page was.
func (a *API) liveConfig(w http.ResponseWriter, r *http.Request, _ auth.Identity) error {
	tls := isHTTPS(r)
	host, portText, err := net.SplitHostPort(r.Host)
	if err != nil {
		host, portText = r.Host, ""
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		port = 80
		if tls {
			port = 443
		}
	}
	return ok(w, liveConfigReply{
		Key:          a.Live.Credentials().Key,
		Host:         host,
		Port:         port,
		TLS:          tls,
		PingInterval: a.Live.ActivityTimeout().Milliseconds(),
		AuthEndpoint: "/broadcasting/auth",
	})
}
