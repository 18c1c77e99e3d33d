-- Issue 25, accounts.
-- An invitation grants the product access its inviter holds when it is sent, no more: it is kept
-- with the invitation. Pending invitations sent before take their inviter's access now.
ALTER TABLE invitations ADD COLUMN acl_beacon BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE invitations ADD COLUMN acl_pro BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE invitations ADD COLUMN acl_enterprise BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE invitations ADD COLUMN acl_locate_api BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE invitations SET
	acl_beacon = COALESCE((SELECT u.acl_beacon FROM users u WHERE u.id = invitations.invited_by), FALSE),
	acl_pro = COALESCE((SELECT u.acl_pro FROM users u WHERE u.id = invitations.invited_by), FALSE),
	acl_enterprise = COALESCE((SELECT u.acl_enterprise FROM users u WHERE u.id = invitations.invited_by), FALSE),
	acl_locate_api = COALESCE((SELECT u.acl_locate_api FROM users u WHERE u.id = invitations.invited_by), FALSE);

-- Who made an API token (0: its owner or the operator's CLI), so the owner sees tokens minted for them.
ALTER TABLE api_tokens ADD COLUMN created_by BIGINT NOT NULL DEFAULT 0;

-- The actor's name when the entry was written: renaming or deleting the actor later does not
-- rewrite history. Rows written before keep '' and show the actor's current name.
ALTER TABLE audit_log ADD COLUMN actor_name TEXT NOT NULL DEFAULT '';
