-- 020: an account its owner deleted keeps only a stub users row (the author of what was kept,
-- shown as "deleted user"); deleted_at says so, and a late token of the account never writes a
-- name or an e-mail into it again (domain/users.ts rememberUser).
ALTER TABLE users ADD COLUMN deleted_at TEXT;
