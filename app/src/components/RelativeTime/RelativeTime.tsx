// "3 hours ago" (SPEC.md §9) in a <time> element, kept current while the page is open.
import { relativeTime } from '../../../../shared/rules/relative-time';
import { useNow } from '../../hooks/useNow';

export function RelativeTime({ date }: { date: string }) {
  const now = useNow();
  return (
    <time dateTime={date} title={new Date(date).toLocaleString()}>
      {relativeTime(date, now)}
    </time>
  );
}
