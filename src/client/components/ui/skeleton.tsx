import type * as React from 'react';
import { cn } from '@/lib/utils';

/** Skeleton is a pulsing placeholder block shown while content loads. */
export function Skeleton({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="skeleton"
      className={cn('animate-pulse rounded-md bg-accent', className)}
      {...props}
    />
  );
}
