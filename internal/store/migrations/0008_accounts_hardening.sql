-- A TOTP code works once: the last accepted time step per user (0: none yet). API tokens may
-- expire (0: never).
ALTER TABLE users ADD COLUMN mfa_last_step BIGINT NOT NULL DEFAULT 0;
ALTER TABLE api_tokens ADD COLUMN expires_at BIGINT NOT NULL DEFAULT 0;
