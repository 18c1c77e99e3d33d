import { useNow } from '../hooks/useNow';
import { formatDateTime } from '../lib/dateRange';
import { relativeTime } from '../lib/relativeTime';

/** "just now", "3 min ago": a time that keeps its age current, with the full date on hover. */
export function RelativeTime({ date }: { date: Date }) {
  const now = useNow();
  return (
    <time dateTime={date.toISOString()} title={formatDateTime(date)}>
      {relativeTime(date, now)}
    </time>
  );
}
