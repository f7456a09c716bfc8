import type { Person } from '@shared/contracts/rotations';
import { Mail, Phone } from 'lucide-react';
import { PersonAvatar } from './person-avatar';

/** MemberPreview shows the chosen member: avatar with initials, name, email and phone if any. */
export function MemberPreview({ person }: { person: Person }) {
  return (
    <div className="flex items-center gap-3 rounded-lg border bg-muted/40 p-3">
      <PersonAvatar name={person.name} className="size-10" />
      <div className="min-w-0 space-y-0.5">
        <p className="truncate font-medium text-sm">{person.name}</p>
        <p className="flex items-center gap-1.5 truncate text-muted-foreground text-xs">
          <Mail className="size-3 shrink-0" aria-hidden="true" />
          {person.email}
        </p>
        {person.phone ? (
          <p className="flex items-center gap-1.5 truncate text-muted-foreground text-xs">
            <Phone className="size-3 shrink-0" aria-hidden="true" />
            {person.phone}
          </p>
        ) : null}
      </div>
    </div>
  );
}
