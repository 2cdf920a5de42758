-- 018: when the user last turned the weekly summary on again (ISO 8601 UTC; null: never turned it
-- off and on). An unsubscribe link issued before then no longer works (mail/token.ts), so a link
-- from an old mail cannot undo a later choice. Forward-only; PostgreSQL: store/pg/migrations/014-weekly-summary-since.sql.
ALTER TABLE users ADD COLUMN weekly_summary_since TEXT;
