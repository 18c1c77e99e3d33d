package api_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/asset"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

const assetsPath = "/api/v1/monitor/assets"

// An organization's assets: each type's value checked with the spec's messages and kept in its
// canonical form, once; seen by every member, changed by its creator and the admins, unknown to
// another organization (404, never listed); counted against the asset limit with the other
// assets.
func TestAssets(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnvWith(t, s, func(d *api.Deps) { d.Assets = asset.NewService(s) })
		c := e.client()
		owner, analyst, other := e.bearerFor("owner@acme.test"), e.bearerFor("analyst@acme.test"), e.bearerFor("owner@globex.test")
		create := func(token, typ, value string) reply {
			t.Helper()
			return c.do("POST", assetsPath, map[string]string{"type": typ, "value": value}, withBearer(token))
		}

		for _, tt := range []struct{ typ, value, field, message string }{
			{"", "1.2.3.4", "type", asset.MsgTypeRequired},
			{"phone", "1.2.3.4", "type", asset.MsgUnknownType},
			{"ip_address", "  ", "value", asset.MsgValueRequired},
			{"ip_address", "300.1.1.1", "value", asset.MsgInvalidIP},
			{"iin_bin", "12345", "value", asset.MsgInvalidIINBIN},
			{"iin_bin", "4111 1111 1111 1112", "value", asset.MsgInvalidCard},
			{"domain", "localhost", "value", asset.MsgInvalidDomain},
			{"email", "not an address", "value", asset.MsgInvalidEmail},
			{"text", strings.Repeat("x", asset.MaxValueLen+1), "value", asset.MsgValueTooLong},
		} {
			r := create(analyst, tt.typ, tt.value)
			if errs, _ := dig(r.body, "errors", tt.field).([]any); r.status != 422 || len(errs) == 0 || errs[0] != tt.message {
				t.Errorf("%s %q = %d %v, want 422 %q on %s", tt.typ, tt.value, r.status, r.body, tt.message, tt.field)
			}
		}

		ip := create(analyst, "ip_address", " ::ffff:10.0.0.1 ")
		if ip.status != 201 || dig(ip.body, "data", "value") != "10.0.0.1" || dig(ip.body, "data", "canEdit") != true ||
			dig(ip.body, "data", "ownerEmail") != "analyst@acme.test" {
			t.Fatalf("create = %d %v", ip.status, ip.body)
		}
		ref := fmt.Sprintf("%s/%v", assetsPath, dig(ip.body, "data", "id"))
		if r := create(owner, "ip_address", "10.0.0.1"); r.status != 422 || dig(r.body, "errors", "value").([]any)[0] != asset.MsgDuplicate {
			t.Errorf("the same asset again = %d %v", r.status, r.body)
		}
		domain := create(owner, "domain", "Bücher.Example.")
		if domain.status != 201 || dig(domain.body, "data", "value") != "xn--bcher-kva.example" {
			t.Errorf("domain = %d %v", domain.status, domain.body)
		}

		list := func(token, query string) []string {
			r := c.do("GET", assetsPath+query, nil, withBearer(token))
			if r.status != 200 {
				t.Fatalf("list = %d %v", r.status, r.body)
			}
			var out []string
			for _, item := range r.body["data"].([]any) {
				m := item.(map[string]any)
				out = append(out, fmt.Sprintf("%v:%v:%v", m["type"], m["value"], m["canEdit"]))
			}
			return out
		}
		if got := fmt.Sprint(list(analyst, "")); got != "[domain:xn--bcher-kva.example:false ip_address:10.0.0.1:true]" {
			t.Errorf("the analyst's list = %s", got)
		}
		if got := fmt.Sprint(list(owner, "?type=domain")); got != "[domain:xn--bcher-kva.example:true]" {
			t.Errorf("the owner's domains = %s", got)
		}
		if r := c.do("GET", assetsPath+"?type=phone", nil, withBearer(owner)); r.status != 422 {
			t.Errorf("unknown type filter = %d", r.status)
		}

		// Another organization neither sees nor touches them.
		if got := list(other, ""); len(got) != 0 {
			t.Errorf("another organization lists %v", got)
		}
		for _, method := range []string{"PUT", "DELETE"} {
			if r := c.do(method, ref, map[string]string{"type": "ip_address", "value": "10.0.0.2"}, withBearer(other)); r.status != 404 {
				t.Errorf("another organization's %s = %d %v", method, r.status, r.body)
			}
		}
		// A member changes only their own; an admin changes anyone's.
		domainRef := fmt.Sprintf("%s/%v", assetsPath, dig(domain.body, "data", "id"))
		if r := c.do("PUT", domainRef, map[string]string{"type": "domain", "value": "example.org"}, withBearer(analyst)); r.status != 403 ||
			r.body["message"] != asset.MsgReadOnly {
			t.Errorf("a member edits another's = %d %v", r.status, r.body)
		}
		if r := c.do("PUT", ref, map[string]string{"type": "ip_address", "value": "2001:DB8::1"}, withBearer(owner)); r.status != 200 ||
			dig(r.body, "data", "value") != "2001:db8::1" {
			t.Errorf("the owner edits = %d %v", r.status, r.body)
		}

		// Assets count against the asset limit, and the refusal is the Asset Limit dialog's.
		setAssetLimit(t, e, e.actor("owner@acme.test").OrganizationID, 2)
		if r := create(owner, "text", "one too many"); r.status != 422 || r.body["limitExceeded"] != true ||
			r.body["title"] != account.MsgAssetLimitTitle || r.body["description"] != account.MsgAssetLimitDescription {
			t.Errorf("over the asset limit = %d %v", r.status, r.body)
		}
		if r := create(other, "text", "Globex's limit is its own"); r.status != 201 {
			t.Errorf("another organization = %d %v", r.status, r.body)
		}
		if r := c.do("DELETE", ref, nil, withBearer(analyst)); r.status != 200 {
			t.Fatalf("delete = %d %v", r.status, r.body)
		}
		if r := create(owner, "text", "fits again"); r.status != 201 {
			t.Errorf("under the limit again = %d %v", r.status, r.body)
		}
		if r := c.do("DELETE", ref, nil, withBearer(owner)); r.status != 404 {
			t.Errorf("deleted twice = %d", r.status)
		}
	})
}
