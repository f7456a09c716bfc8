import type { PersonDetail } from '@shared/contracts/users';
import { LifeBuoy, Mail, Phone, Repeat } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useTimeFormat } from '@/lib/use-time-format';
import { initials } from '@/lib/utils';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[8rem_1fr] sm:gap-4">
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="min-w-0 break-words text-sm">{children}</dd>
    </div>
  );
}

/** PersonContact is how to reach the person: email, phone and the time zone they live by. */
export function PersonContact({ person }: { person: PersonDetail }) {
  return (
    <Card className="gap-4">
      <CardHeader>
        <div className="flex min-w-0 items-center gap-3">
          <Avatar aria-hidden="true" className="size-12">
            <AvatarFallback className="bg-primary/10 font-semibold text-primary">
              {initials(person.name)}
            </AvatarFallback>
          </Avatar>
          <div className="min-w-0">
            <CardTitle asChild>
              <h2 className="truncate">Contact</h2>
            </CardTitle>
            <CardDescription>How to reach {person.name}.</CardDescription>
          </div>
        </div>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3">
          <Field label="Email">
            <a
              href={`mailto:${person.email}`}
              className="inline-flex items-center gap-1.5 font-medium text-primary underline-offset-4 hover:underline"
            >
              <Mail className="size-3.5 shrink-0" aria-hidden="true" />
              {person.email}
            </a>
          </Field>
          <Field label="Phone">
            {person.phone ? (
              <a
                href={`tel:${person.phone}`}
                className="inline-flex items-center gap-1.5 font-medium text-primary underline-offset-4 hover:underline"
              >
                <Phone className="size-3.5 shrink-0" aria-hidden="true" />
                {person.phone}
              </a>
            ) : (
              <span className="text-muted-foreground">No phone number</span>
            )}
          </Field>
          <Field label="Time zone">{person.timezone}</Field>
        </dl>
      </CardContent>
    </Card>
  );
}

/** PersonRotations lists the rotations the person belongs to, each linking to its page. */
export function PersonRotations({ person }: { person: PersonDetail }) {
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>Rotations</h2>
        </CardTitle>
        <CardDescription>The rotations {person.name} takes turns in.</CardDescription>
      </CardHeader>
      <CardContent>
        {person.rotations.length === 0 ? (
          <p className="text-muted-foreground text-sm">Not in any rotation</p>
        ) : (
          <ul className="-mx-2 grid" aria-label="Rotations">
            {person.rotations.map((rotation) => (
              <li key={rotation.id}>
                <Link
                  to={`/rotations/${rotation.id}`}
                  className="flex items-center justify-between gap-3 rounded-md px-2 py-2 outline-none transition-colors hover:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <span className="flex min-w-0 items-center gap-2">
                    <Repeat className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                    <span className="truncate font-medium text-sm">{rotation.name}</span>
                  </span>
                  <span className="flex shrink-0 gap-1.5">
                    {rotation.holdsBaton ? (
                      <Badge className="border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300">
                        On call
                      </Badge>
                    ) : null}
                    {rotation.isSuspended ? <Badge variant="secondary">Suspended</Badge> : null}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** PersonCovering lists whom the person covers: accepted or running coverage, soonest first. */
export function PersonCovering({ person }: { person: PersonDetail }) {
  const fmt = useTimeFormat();
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>Covering</h2>
        </CardTitle>
        <CardDescription>Coverage {person.name} has accepted, now or to come.</CardDescription>
      </CardHeader>
      <CardContent>
        {person.covering.length === 0 ? (
          <p className="text-muted-foreground text-sm">Not covering anyone</p>
        ) : (
          <ul className="grid gap-3" aria-label="Covering">
            {person.covering.map((coverage) => (
              <li key={coverage.id} className="flex items-start gap-3">
                <LifeBuoy
                  className="mt-0.5 size-4 shrink-0 text-muted-foreground"
                  aria-hidden="true"
                />
                <div className="min-w-0 flex-1 space-y-0.5">
                  <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <p className="font-medium text-sm">
                      Covers {coverage.requester.name} on{' '}
                      <Link
                        to={`/rotations/${coverage.rotation.id}`}
                        className="underline-offset-4 hover:underline"
                      >
                        {coverage.rotation.name}
                      </Link>
                    </p>
                    {coverage.status === 'active' ? (
                      <Badge className="border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300">
                        Covering now
                      </Badge>
                    ) : (
                      <Badge variant="outline">Accepted</Badge>
                    )}
                  </div>
                  <p className="text-muted-foreground text-xs">
                    {fmt.dateTime(coverage.startTime)} – {fmt.dateTime(coverage.endTime)}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
