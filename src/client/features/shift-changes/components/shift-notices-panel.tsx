import type { ShiftNotice } from '@shared/contracts/shift-changes';
import { CalendarClock, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useTimeFormat } from '@/lib/use-time-format';
import { useDismissShiftNotice } from '../api/dismiss-shift-notice';
import { useShiftNotices } from '../api/get-shift-notices';

/** A notice lists this many changes at first; "Show all" opens the rest, so it stays short on a phone. */
const SHOWN_AT_FIRST = 3;

function ShiftNoticeAlert({ notice }: { notice: ShiftNotice }) {
  const fmt = useTimeFormat();
  const dismiss = useDismissShiftNotice();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const titleId = `shift-notice-${notice.id}-title`;
  const hidden = open ? 0 : Math.max(0, notice.sentences.length - SHOWN_AT_FIRST);
  const shown = notice.sentences.slice(0, notice.sentences.length - hidden);
  return (
    <Alert tone="info" aria-labelledby={titleId} className="pr-12">
      <CalendarClock aria-hidden />
      <AlertTitle id={titleId}>Your shifts in {notice.rotation.name} changed</AlertTitle>
      <AlertDescription>
        <ul id={listId} className="grid list-disc gap-1 pl-4">
          {shown.map((sentence) => (
            <li key={sentence}>{sentence}</li>
          ))}
        </ul>
        {hidden > 0 ? (
          <Button
            variant="link"
            size="sm"
            className="h-auto p-0"
            aria-expanded={false}
            aria-controls={listId}
            onClick={() => setOpen(true)}
          >
            Show {hidden} more change{hidden === 1 ? '' : 's'}
          </Button>
        ) : null}
        {notice.more > 0 && hidden === 0 ? (
          <p>
            …and {notice.more} more change{notice.more === 1 ? '' : 's'}.
          </p>
        ) : null}
        <p className="text-xs">
          Updated <time dateTime={notice.createdAt}>{fmt.dateTime(notice.createdAt)}</time> ·{' '}
          <Link to="/calendar" className="font-medium underline underline-offset-4">
            Open the calendar
          </Link>{' '}
          ·{' '}
          <Link
            to={`/rotations/${notice.rotation.id}`}
            className="font-medium underline underline-offset-4"
          >
            Open the rotation
          </Link>
        </p>
      </AlertDescription>
      <Button
        variant="ghost"
        size="icon"
        className="absolute top-2 right-2 size-8"
        aria-label={`Dismiss the notice about ${notice.rotation.name}`}
        disabled={dismiss.isPending}
        onClick={() => dismiss.mutate(notice.id)}
      >
        <X aria-hidden />
      </Button>
    </Alert>
  );
}

/**
 * ShiftNoticesPanel tells the signed-in person, on the dashboard, that edits moved their shifts
 * (decisions 219 and 262): one dismissable notice a rotation, the server's latest replacing the
 * one before, its changes that have not ended in their zone. It shows nothing when there are none.
 */
export function ShiftNoticesPanel() {
  const notices = useShiftNotices();
  const list = notices.data ?? [];
  if (list.length === 0) return null;
  return (
    <section aria-label="Your shifts moved" className="grid gap-3">
      {list.map((notice) => (
        <ShiftNoticeAlert key={notice.id} notice={notice} />
      ))}
    </section>
  );
}
