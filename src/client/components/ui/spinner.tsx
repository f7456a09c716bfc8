import { LoaderCircle } from 'lucide-react';
import type * as React from 'react';
import { cn } from '@/lib/utils';

/** Spinner is a decorative spinning icon; pair it with visible text or an accessible label. */
export function Spinner({ className, ...props }: React.ComponentProps<typeof LoaderCircle>) {
  return (
    <LoaderCircle
      aria-hidden="true"
      data-slot="spinner"
      className={cn('size-4 animate-spin', className)}
      {...props}
    />
  );
}
