import { APP_NAME } from '@/lib/constants';
import { cn } from '@/lib/utils';

/** BatonMark is the product's small icon: a baton in a rounded square (same as the favicon). */
export function BatonMark({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 32 32"
      aria-hidden="true"
      className={cn('size-7 shrink-0 text-primary', className)}
    >
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <g transform="rotate(45 16 16)">
        <rect x="12.5" y="5" width="7" height="22" rx="3.5" className="fill-primary-foreground" />
        <path d="M12.5 13h7M12.5 19h7" className="stroke-primary" strokeWidth="1.5" />
      </g>
    </svg>
  );
}

/** BatonLogo is the mark followed by the product name. */
export function BatonLogo({ className }: { className?: string }) {
  return (
    <span className={cn('flex items-center gap-2 font-semibold text-lg tracking-tight', className)}>
      <BatonMark />
      {APP_NAME}
    </span>
  );
}
