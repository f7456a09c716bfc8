import { type AdminDetailEntry, adminDetailEntries } from '@shared/contracts/audit';
import { ChevronDown, ChevronUp } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { TimeFormat } from '@/lib/use-time-format';

// Details this short read whole as one line; longer ones show their start and open into a list.
const SHORT_DETAILS = 90;

function DetailValue({ entry, fmt }: { entry: AdminDetailEntry; fmt: TimeFormat }) {
  return entry.instant ? (
    <time dateTime={entry.value}>{fmt.dateTime(entry.value)}</time>
  ) : (
    entry.value
  );
}

/**
 * AdminEventDetails shows an event's details whole (decision 188): instants in the viewer's zone,
 * people by name; short ones as one line, longer ones as two lines that open into a list.
 */
export function AdminEventDetails({
  details,
  fmt,
}: {
  details: Record<string, unknown>;
  fmt: TimeFormat;
}) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const entries = adminDetailEntries(details);
  if (entries.length === 0) return <span>—</span>;
  const line = (
    <>
      {entries.map((entry, i) => (
        <span key={entry.key}>
          {i > 0 ? '; ' : null}
          {entry.label}: <DetailValue entry={entry} fmt={fmt} />
        </span>
      ))}
    </>
  );
  const length = entries.reduce((n, e) => n + e.label.length + e.value.length + 4, 0);
  if (length <= SHORT_DETAILS) {
    return <p className="break-words">{line}</p>;
  }
  return (
    <div className="space-y-1.5">
      {open ? null : <p className="line-clamp-2 break-words">{line}</p>}
      {open ? (
        <dl id={listId} className="grid gap-x-3 gap-y-1 sm:grid-cols-[auto_1fr]">
          {entries.map((entry) => (
            <div key={entry.key} className="contents">
              <dt className="font-medium text-foreground first-letter:uppercase">{entry.label}</dt>
              <dd className="whitespace-pre-wrap break-words">
                <DetailValue entry={entry} fmt={fmt} />
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      <Button
        type="button"
        variant="link"
        size="sm"
        className="h-auto p-0 has-[>svg]:px-0"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? 'Hide details' : 'Show details'}
        {open ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
      </Button>
    </div>
  );
}
