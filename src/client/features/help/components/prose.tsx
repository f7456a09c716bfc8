import type * as React from 'react';
import { cn } from '@/lib/utils';

/** Prose styles the running text of a help article: headings, paragraphs, lists, links, tables. */
export function Prose({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      className={cn(
        'max-w-3xl space-y-4 text-sm leading-7 sm:text-base',
        '[&_h2]:mt-8 [&_h2]:font-semibold [&_h2]:text-foreground [&_h2]:text-xl [&_h2]:tracking-tight',
        '[&_h3]:mt-6 [&_h3]:font-semibold [&_h3]:text-base',
        '[&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6',
        '[&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4',
        '[&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.85em]',
        '[&_strong]:font-semibold',
        className,
      )}
      {...props}
    />
  );
}

/** Callout is a highlighted note inside an article. */
export function Callout({
  title,
  children,
  tone = 'info',
}: {
  title: string;
  children: React.ReactNode;
  tone?: 'info' | 'warning';
}) {
  return (
    <aside
      className={cn(
        'rounded-lg border p-4 text-sm',
        tone === 'warning'
          ? 'border-warning-border bg-warning text-warning-foreground'
          : 'bg-muted/60',
      )}
    >
      <p className="font-semibold">{title}</p>
      <div className="mt-1 space-y-2">{children}</div>
    </aside>
  );
}

/** Steps is a numbered list of actions, each with a short bold lead. */
export function Steps({ steps }: { steps: [string, React.ReactNode][] }) {
  return (
    <ol>
      {steps.map(([lead, text]) => (
        <li key={lead}>
          <strong>{lead}.</strong> {text}
        </li>
      ))}
    </ol>
  );
}
