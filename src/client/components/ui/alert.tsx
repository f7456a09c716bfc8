import { cva, type VariantProps } from 'class-variance-authority';
import type * as React from 'react';
import { cn } from '@/lib/utils';

const alertVariants = cva(
  'relative grid w-full grid-cols-[0_1fr] items-start gap-y-0.5 rounded-lg border px-4 py-3 text-sm has-[>svg]:grid-cols-[calc(var(--spacing)*4)_1fr] has-[>svg]:gap-x-3 [&>svg]:size-4 [&>svg]:translate-y-0.5 [&>svg]:text-current',
  {
    variants: {
      variant: {
        default: 'bg-card text-card-foreground',
        destructive:
          'bg-card text-destructive *:data-[slot=alert-description]:text-destructive [&>svg]:text-current',
      },
      /** A tone (decision 194) colours the alert from the semantic tokens; it replaces `variant`. */
      tone: {
        warning:
          'border-warning-border bg-warning text-warning-foreground *:data-[slot=alert-description]:text-warning-foreground',
        success:
          'border-success-border bg-success text-success-foreground *:data-[slot=alert-description]:text-success-foreground',
        info: 'border-info-border bg-info text-info-foreground *:data-[slot=alert-description]:text-info-foreground',
        danger:
          'border-danger-border bg-danger text-danger-foreground *:data-[slot=alert-description]:text-danger-foreground',
      },
    },
    defaultVariants: {
      variant: 'default',
    },
  },
);

/** Alert is a notice in the page; `tone` (warning, success, info, danger) colours it by meaning. */
export function Alert({
  className,
  variant,
  tone,
  ...props
}: React.ComponentProps<'div'> & VariantProps<typeof alertVariants>) {
  return (
    <div
      data-slot="alert"
      data-tone={tone ?? undefined}
      role="alert"
      className={cn(alertVariants({ variant: tone ? null : variant, tone }), className)}
      {...props}
    />
  );
}

export function AlertTitle({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="alert-title"
      className={cn('col-start-2 min-h-4 font-medium tracking-tight', className)}
      {...props}
    />
  );
}

export function AlertDescription({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="alert-description"
      className={cn(
        'col-start-2 grid justify-items-start gap-1 text-muted-foreground text-sm [&_p]:leading-relaxed',
        className,
      )}
      {...props}
    />
  );
}
