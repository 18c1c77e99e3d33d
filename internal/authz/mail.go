package authz

import (
	"strings"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/problem"
)

// MsgMailRecipient refuses an address outside the caller's organization.
const MsgMailRecipient = "E-mail can only be sent to your own address or to a member of your organization."

// CanMailTo allows mail a user asks for at once (an alert test, an export's link) to reach only
// their own address or another member's of their organization. Those addresses are verified:
// a tenant admin set them or their owner accepted an invitation mailed to them, and nobody can
// change their own. Anything else would make Sightline a relay to strangers. field is the
// request field that named the address; members are the caller's organization's.
func CanMailTo(field, address, own string, members []account.Member) error {
	address = strings.TrimSpace(address)
	if address == "" {
		return problem.InvalidField(field, MsgMailRecipient)
	}
	if strings.EqualFold(address, own) {
		return nil
	}
	for _, m := range members {
		if strings.EqualFold(address, m.Email) {
			return nil
		}
	}
	return problem.InvalidField(field, MsgMailRecipient)
}
