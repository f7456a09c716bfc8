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
