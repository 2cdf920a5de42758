-- 014: when the user last turned the weekly summary on again (SQLite's 018-weekly-summary-since.sql says why).
ALTER TABLE users ADD COLUMN IF NOT EXISTS weekly_summary_since text COLLATE "C";
