-- 007: the weekly summary goes only to a verified address. users.email_verified is
-- the email_verified claim of the token the e-mail was taken from (1: verified). Existing rows
-- start unverified: their next request with a token records the claim (domain/users.ts).
ALTER TABLE users ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0;
