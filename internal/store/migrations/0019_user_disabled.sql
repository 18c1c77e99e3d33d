-- Tenant portal (issue 14): a tenant admin disables and enables users. A disabled user's
-- sessions and API tokens are refused; 0 means enabled. Times are Unix milliseconds.
ALTER TABLE users ADD COLUMN disabled_at BIGINT NOT NULL DEFAULT 0;
