import { cn } from '@/lib/utils';

/**
 * QuotedNotes quotes a handoff's notes as they were written (line breaks kept), under a caption
 * naming who wrote them when that is known (decision 187). Nothing when there are no notes.
 */
export function QuotedNotes({
  notes,
  by,
  className,
}: {
  notes: string | null | undefined;
  by?: string | null;
  className?: string;
}) {
  if (!notes?.trim()) return null;
  return (
    <figure className={cn('grid w-full gap-1', className)}>
      <figcaption className="font-medium text-muted-foreground text-xs">
        {by ? `Handoff notes from ${by}` : 'Handoff notes'}
      </figcaption>
      <blockquote className="whitespace-pre-line break-words border-primary/40 border-l-2 bg-muted/60 py-1.5 pr-3 pl-3 text-foreground text-sm">
        {notes}
      </blockquote>
    </figure>
  );
}
