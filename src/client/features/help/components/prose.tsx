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
        '[&_code]:rounded [&_code]:bg-muted [&_code]:[overflow-wrap:anywhere] [&_code]:px-1 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.85em]',
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

/** CodeBlock is a configuration or command in an article; long lines scroll inside the box. */
export function CodeBlock({ children }: { children: string }) {
  return (
    <pre
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls sideways must be reachable by keyboard
      tabIndex={0}
      className="overflow-x-auto whitespace-pre rounded-md border bg-muted p-3 font-mono text-xs leading-relaxed focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      {children}
    </pre>
  );
}

/** MappingTable lines up what one thing is called elsewhere and what it becomes in Baton. */
export function MappingTable({
  caption,
  from,
  rows,
}: {
  caption: string;
  from: string;
  rows: [React.ReactNode, React.ReactNode][];
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="pb-2 text-left font-medium text-muted-foreground text-xs">
          {caption}
        </caption>
        <thead>
          <tr className="border-b">
            <th scope="col" className="py-2 pr-4 font-semibold">
              {from}
            </th>
            <th scope="col" className="py-2 font-semibold">
              Baton
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([left, right], index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, never reordered
            <tr key={index} className="border-b align-top last:border-0">
              <td className="py-2 pr-4">{left}</td>
              <td className="py-2">{right}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
