// "3 hours ago" (shared/rules/relative-time.ts) in a <time> element, kept current while the page is open.
import type { PointerEvent } from 'react';
import { relativeTime } from '../../../../shared/rules/relative-time';
import { useNow } from '../../hooks/useNow';

let exactTime: Intl.DateTimeFormat | null = null;

/**
 * The exact time, as `toLocaleString()` writes it, with one formatter for every row (`toLocaleString()`
 * builds a new one per call). The formatter is made on the first hover, not as the page loads: making
 * it loads the locale's date data, 13–34 ms on this machine's Chromium (four times that on a phone)
 * before the first screen could paint.
 */
function exactTimeOf(date: string): string {
  exactTime ??= new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  return exactTime.format(new Date(date));
}

/** The tooltip is a pointer's only: it is written as a pointer comes over the time (of the date shown then). */
function showExactTime(event: PointerEvent<HTMLTimeElement>) {
  const time = event.currentTarget;
  if (time.dateTime) time.title = exactTimeOf(time.dateTime);
}

export function RelativeTime({ date }: { date: string }) {
  const now = useNow();
  return (
    <time dateTime={date} onPointerEnter={showExactTime}>
      {relativeTime(date, now)}
    </time>
  );
}
