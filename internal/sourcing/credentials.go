package sourcing

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
)

// A source's credentials are the values of its settings that let someone else read as the
// tenant: a setting whose name says it is one (token, password, secret, cookie, passphrase, or a
// name ending in "key": Mastodon's token, Reddit's clientSecret and password, ...), whatever the
// type, and every address that carries user information or a query parameter so named (a feed
// at https://user:pass@host/ or https://host/feed?token=..., a SOCKS proxy with a password, a
// relay). The store seals them (internal/store), the browser and the audit log see Mask in their
// place, and an edit that sends Mask back keeps the stored value.

// Mask stands for a credential that is set.
const Mask = "********"

// isCredentialName reports whether a setting or query parameter so named holds a credential.
func isCredentialName(name string) bool {
	n := strings.ToLower(name)
	for _, word := range []string{"token", "password", "passwd", "secret", "cookie", "passphrase"} {
		if strings.Contains(n, word) {
			return true
		}
	}
	return strings.HasSuffix(n, "key") || n == "auth" || n == "authorization" || n == "sig" || n == "signature"
}

// addressCredentials reports whether value is an address carrying a credential: user
// information, or a query parameter named as one.
func addressCredentials(value string) bool {
	u, err := url.Parse(value)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return false
	}
	if u.User != nil {
		return true
	}
	for name := range u.Query() {
		if isCredentialName(name) {
			return true
		}
	}
	return false
}

// masked is how a credential is shown: Mask, or for an address the address with Mask in place
// of its password (or of its whole user information when it is one word, a token) and of every
// query value named as a credential.
func masked(value string) string {
	if !addressCredentials(value) {
		return Mask
	}
	scheme, rest, _ := strings.Cut(value, "://")
	end := len(rest)
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		end = i
	}
	authority, tail := rest[:end], rest[end:]
	if at := strings.LastIndex(authority, "@"); at >= 0 {
		user, _, hasPassword := strings.Cut(authority[:at], ":")
		if hasPassword {
			authority = user + ":" + Mask + authority[at:]
		} else {
			authority = Mask + authority[at:]
		}
	}
	path, query, hasQuery := strings.Cut(tail, "?")
	if hasQuery {
		query, fragment, hasFragment := strings.Cut(query, "#")
		pairs := strings.Split(query, "&")
		for i, pair := range pairs {
			name, _, _ := strings.Cut(pair, "=")
			if unescaped, err := url.QueryUnescape(name); err == nil && isCredentialName(unescaped) {
				pairs[i] = name + "=" + Mask
			}
		}
		tail = path + "?" + strings.Join(pairs, "&")
		if hasFragment {
			tail += "#" + fragment
		}
	}
	return scheme + "://" + authority + tail
}

// EachString rewrites every string value of a source's settings with f, which is told the
// value's path ("token", "pages/0/url") and whether it is a credential. Settings that are not
// JSON are returned as they are (the build refuses them), and settings f leaves unchanged keep
// their bytes.
func EachString(config json.RawMessage, f func(path, value string, credential bool) (string, error)) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(config))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return config, nil
	}
	changed := false
	var visit func(path, name string, v any) (any, error)
	visit = func(path, name string, v any) (any, error) {
		switch t := v.(type) {
		case map[string]any:
			for k, child := range t {
				next, err := visit(strings.TrimPrefix(path+"/"+k, "/"), k, child)
				if err != nil {
					return nil, err
				}
				t[k] = next
			}
		case []any:
			for i, child := range t {
				next, err := visit(strings.TrimPrefix(path+"/"+strconv.Itoa(i), "/"), name, child)
				if err != nil {
					return nil, err
				}
				t[i] = next
			}
		case string:
			credential := t != "" && (isCredentialName(name) || addressCredentials(t))
			next, err := f(path, t, credential)
			if err != nil {
				return nil, err
			}
			changed = changed || next != t
			return next, nil
		}
		return v, nil
	}
	root, err := visit("", "", root)
	if err != nil || !changed {
		return config, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSpace(b.Bytes())), nil
}

// MaskCredentials returns the settings with every credential masked: what the browser and the
// audit log see.
func MaskCredentials(config json.RawMessage) json.RawMessage {
	out, _ := EachString(config, func(_, value string, credential bool) (string, error) {
		if credential {
			return masked(value), nil
		}
		return value, nil
	})
	return out
}

// KeepCredentials returns next (settings sent by the browser) with every credential that was
// sent back as shown (masked) replaced by the stored one from prev: an edit that leaves a
// credential alone keeps it, one that writes a new value changes it, one that clears it removes it.
func KeepCredentials(next, prev json.RawMessage) json.RawMessage {
	stored := map[string]string{}
	_, _ = EachString(prev, func(path, value string, credential bool) (string, error) {
		if credential {
			stored[path] = value
		}
		return value, nil
	})
	out, _ := EachString(next, func(path, value string, credential bool) (string, error) {
		if old, ok := stored[path]; ok && credential && value == masked(old) {
			return old, nil
		}
		return value, nil
	})
	return out
}
