import type * as React from 'react';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { cn, initials } from '@/lib/utils';

/** PersonAvatar is a round avatar with the person's initials; decorative, the name sits beside it. */
export function PersonAvatar({ name, className }: { name: string; className?: string }) {
  return (
    <Avatar aria-hidden="true" className={cn('size-8', className)}>
      <AvatarFallback className="bg-primary/10 font-semibold text-primary">
        {initials(name)}
      </AvatarFallback>
    </Avatar>
  );
}

/** PersonLine is an avatar with a name and, under it, a muted detail line. */
export function PersonLine({
  name,
  detail,
  className,
}: {
  name: string;
  detail?: React.ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex min-w-0 items-center gap-3', className)}>
      <PersonAvatar name={name} />
      <div className="min-w-0">
        <p className="truncate font-medium text-sm">{name}</p>
        {detail ? <p className="truncate text-muted-foreground text-xs">{detail}</p> : null}
      </div>
    </div>
  );
}
