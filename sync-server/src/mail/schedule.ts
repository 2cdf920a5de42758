// MAIL_SCHEDULE: when the weekly summary goes out, as "<DAY> <HH:MM>" in UTC, e.g. "MON 08:00"
// (the default). Slots are the instants that match; a run for a slot covers the week before it.

export interface Schedule {
  /** 0 = Sunday … 6 = Saturday (Date#getUTCDay). */
  weekday: number;
  hour: number;
  minute: number;
}

export const DEFAULT_SCHEDULE = 'MON 08:00';
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export function parseSchedule(text: string): Schedule {
  const match = /^\s*([A-Za-z]{3})[A-Za-z]*\s+(\d{1,2}):(\d{2})\s*(?:UTC)?\s*$/i.exec(text);
  const weekday = match ? DAYS.indexOf(match[1]!.toUpperCase() as (typeof DAYS)[number]) : -1;
  const hour = Number(match?.[2]);
  const minute = Number(match?.[3]);
  if (!match || weekday < 0 || hour > 23 || minute > 59) {
    throw new Error(`MAIL_SCHEDULE must look like "MON 08:00" (a weekday and a UTC time), not "${text}".`);
  }
  return { weekday, hour, minute };
}

export function formatSchedule(schedule: Schedule): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[schedule.weekday]} ${pad(schedule.hour)}:${pad(schedule.minute)} UTC`;
}

/** The latest slot at or before `now`. */
export function slotAtOrBefore(schedule: Schedule, now: Date): Date {
  const slot = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), schedule.hour, schedule.minute));
  slot.setUTCDate(slot.getUTCDate() - ((now.getUTCDay() - schedule.weekday + 7) % 7));
  return slot.getTime() > now.getTime() ? new Date(slot.getTime() - WEEK_MS) : slot;
}

/** The first slot strictly after `now`. */
export function slotAfter(schedule: Schedule, now: Date): Date {
  return new Date(slotAtOrBefore(schedule, now).getTime() + WEEK_MS);
}

export { WEEK_MS };
