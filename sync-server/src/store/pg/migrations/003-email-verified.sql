-- 003 (SQLite's 007): the weekly summary goes only to a verified address.
-- users.email_verified is the email_verified claim of the token the e-mail was taken from
-- (1: verified). Existing rows start unverified: their next request with a token records it.
ALTER TABLE users ADD COLUMN email_verified integer NOT NULL DEFAULT 0;
