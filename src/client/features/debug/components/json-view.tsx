import type { WithheldField } from '@shared/contracts/debug';
import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/**
 * detail shows a value the server may withhold in production (decision 173): the value itself, or
 * a muted note that it was withheld and how the operator shows it.
 */
export function detail(
  value: string,
  field: WithheldField,
  withheld: readonly WithheldField[] = [],
) {
  if (!withheld.includes(field)) return value;
  return (
    <span key={field} className="break-normal font-normal text-muted-foreground">
      Withheld in production (the server shows it with DEBUG_DETAILS=1)
    </span>
  );
}

/** JsonView shows a value as indented JSON in a scrollable block. */
export function JsonView({
  value,
  label,
  className,
}: {
  value: unknown;
  label: string;
  className?: string;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className={cn(
        'max-h-96 overflow-auto rounded-md border bg-muted p-3 focus-visible:outline-2 focus-visible:outline-ring',
        className,
      )}
    >
      <pre className="font-mono text-xs leading-relaxed">{JSON.stringify(value, null, 2)}</pre>
    </section>
  );
}

/** FactList is a two-column list of labelled values. */
export function FactList({ facts }: { facts: [string, ReactNode][] }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
      {facts.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-muted-foreground">{term}</dt>
          <dd className="break-all font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** ErrorPanel is the red 'Error' panel of a failed check. */
export function ErrorPanel({ error }: { error: unknown }) {
  const message = error instanceof Error && error.message ? error.message : 'Unknown error';
  return (
    <div role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-4">
      <p className="font-semibold text-destructive">Error</p>
      <p className="mt-1 text-sm">{message}</p>
    </div>
  );
}
