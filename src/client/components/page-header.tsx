import type * as React from 'react';
import { TimesInZone } from '@/components/times-in-zone';
import { cn } from '@/lib/utils';

/**
 * PageHeader is a page's h1 with an optional line under it and actions on the right; `showTimeZone`
 * adds the line naming the zone of the page's times.
 */
export function PageHeader({
  title,
  description,
  actions,
  showTimeZone = false,
  className,
}: {
  title: React.ReactNode;
  description?: React.ReactNode;
  actions?: React.ReactNode;
  showTimeZone?: boolean;
  className?: string;
}) {
  return (
    <div
      className={cn(
        'mb-6 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between',
        className,
      )}
    >
      <div className="space-y-1">
        <h1 className="font-semibold text-2xl tracking-tight">{title}</h1>
        {description ? <p className="text-muted-foreground text-sm">{description}</p> : null}
        {showTimeZone ? <TimesInZone /> : null}
      </div>
      {actions ? <div className="flex shrink-0 items-center gap-2">{actions}</div> : null}
    </div>
  );
}
