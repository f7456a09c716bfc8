import { cva, type VariantProps } from 'class-variance-authority';
import { Slot } from 'radix-ui';
import type * as React from 'react';
import { cn } from '@/lib/utils';

export const badgeVariants = cva(
  'inline-flex w-fit shrink-0 items-center justify-center gap-1 overflow-hidden whitespace-nowrap rounded-md border px-2 py-0.5 font-medium text-xs transition-[color,box-shadow] focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 [&>svg]:pointer-events-none [&>svg]:size-3',
  {
    variants: {
      variant: {
        default: 'border-transparent bg-primary text-primary-foreground [a&]:hover:bg-primary/90',
        secondary:
          'border-transparent bg-secondary text-secondary-foreground [a&]:hover:bg-secondary/90',
        destructive:
          'border-transparent bg-destructive text-white focus-visible:ring-destructive/20 dark:bg-destructive/60 [a&]:hover:bg-destructive/90',
        outline: 'text-foreground [a&]:hover:bg-accent [a&]:hover:text-accent-foreground',
      },
      /** A tone (decision 194) colours the badge from the semantic tokens; it replaces `variant`. */
      tone: {
        warning: 'border-transparent bg-warning text-warning-foreground [a&]:hover:bg-warning/80',
        success: 'border-transparent bg-success text-success-foreground [a&]:hover:bg-success/80',
        info: 'border-transparent bg-info text-info-foreground [a&]:hover:bg-info/80',
        danger: 'border-transparent bg-danger text-danger-foreground [a&]:hover:bg-danger/80',
      },
    },
    defaultVariants: {
      variant: 'default',
    },
  },
);

export type BadgeTone = NonNullable<VariantProps<typeof badgeVariants>['tone']>;

/** Badge is a small label; `tone` (warning, success, info, danger) colours it by meaning. */
export function Badge({
  className,
  variant,
  tone,
  asChild = false,
  ...props
}: React.ComponentProps<'span'> & VariantProps<typeof badgeVariants> & { asChild?: boolean }) {
  const Comp = asChild ? Slot.Root : 'span';
  return (
    <Comp
      data-slot="badge"
      data-tone={tone ?? undefined}
      className={cn(badgeVariants({ variant: tone ? null : variant, tone }), className)}
      {...props}
    />
  );
}
