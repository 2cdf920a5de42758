// "3 hours ago" (shared/rules/relative-time.ts) in a <time> element, kept current while the page is open.
import { relativeTime } from '../../../../shared/rules/relative-time';
import { useNow } from '../../hooks/useNow';

/**
 * The exact time in the tooltip, as `toLocaleString()` writes it. One formatter for every row:
 * `toLocaleString()` builds a new one per call, which was the costliest function of a first render
 * on a slow phone (first load).
 */
const exactTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

export function RelativeTime({ date }: { date: string }) {
  const now = useNow();
  return (
    <time dateTime={date} title={exactTime.format(new Date(date))}>
      {relativeTime(date, now)}
    </time>
  );
}
