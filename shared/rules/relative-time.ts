// Relative creation time exactly as the product specification says: 'just now' under 45 s and for
// future dates, then minutes, hours, days (under 7), weeks (under 5), months
// (under 12), years.

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function relativeTime(date: string | Date, now: Date = new Date()): string {
  const seconds = (now.getTime() - new Date(date).getTime()) / 1000;
  if (!Number.isFinite(seconds) || seconds < 45) return 'just now';
  if (seconds < HOUR) return ago(seconds / MINUTE, 'minute');
  if (seconds < DAY) return ago(seconds / HOUR, 'hour');
  const days = seconds / DAY;
  if (days < 7) return ago(days, 'day');
  const weeks = Math.floor(days / 7);
  if (weeks < 5) return ago(weeks, 'week');
  const months = Math.floor(days / 30);
  if (months < 12) return ago(months, 'month');
  return ago(days / 365, 'year');
}

function ago(amount: number, unit: string): string {
  const n = Math.max(1, Math.floor(amount));
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}
