import type { CalendarFeedLinks } from '@shared/contracts/calendar';
import { Copy, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { notifySuccess } from '@/lib/notify';
import { useFeedStatus } from '../api/get-feed-status';
import { useResetFeed } from '../api/reset-feed';

async function copy(url: string, what: string) {
  try {
    await navigator.clipboard.writeText(url);
    notifySuccess('Link copied', `The ${what} link is on your clipboard.`);
  } catch {
    // No clipboard (an insecure origin, a refused permission): the field can be copied by hand.
    notifySuccess('Copy the link by hand', url);
  }
}

function LinkField({
  id,
  label,
  url,
  what,
}: {
  id: string;
  label: string;
  url: string;
  what: string;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          readOnly
          value={url}
          className="font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="h-9"
          aria-label={`Copy ${what} link`}
          onClick={() => void copy(url, what)}
        >
          <Copy aria-hidden="true" />
          Copy
        </Button>
      </div>
    </div>
  );
}

/**
 * CalendarFeedsCard makes, shows and resets the signed-in user's calendar feed links (iCalendar,
 * for Google Calendar or Outlook): their own shifts, and any rotation's. The secret in the links
 * is stored only as a hash, so the links show once, when made.
 */
export function CalendarFeedsCard({ rotations }: { rotations: { id: number; name: string }[] }) {
  const status = useFeedStatus();
  const reset = useResetFeed();
  const [links, setLinks] = useState<CalendarFeedLinks | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [picked, setPicked] = useState<string>('');
  const ids = { mine: useId(), rotation: useId(), pick: useId() };
  const active = status.data?.active ?? false;
  const pickedId = picked || (rotations[0] ? String(rotations[0].id) : '');
  const rotationUrl = links ? links.rotationUrlTemplate.replace('{rotationId}', pickedId) : '';
  const pickedName = rotations.find((r) => String(r.id) === pickedId)?.name ?? 'rotation';

  const makeLinks = () =>
    reset.mutate(undefined, {
      onSuccess: (made) => {
        setLinks(made);
        setConfirmOpen(false);
        notifySuccess(
          active ? 'Feed links reset' : 'Feed links created',
          'Copy them now: Baton shows them only once.',
        );
      },
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Calendar feeds</h2>
        </CardTitle>
        <CardDescription>
          Subscribe from Google Calendar or Outlook to your own shifts or any rotation’s. The links
          hold a secret: anyone who has them can see those shifts.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {status.isPending ? (
          <Skeleton className="h-9 w-full" />
        ) : links ? (
          <>
            <LinkField
              id={ids.mine}
              label="Your shifts"
              url={links.personalUrl}
              what="your shifts"
            />
            {rotations.length > 0 ? (
              <div className="grid gap-3">
                <div className="grid gap-1.5">
                  <Label htmlFor={ids.pick}>A rotation’s shifts</Label>
                  <Select value={pickedId} onValueChange={setPicked}>
                    <SelectTrigger id={ids.pick} className="sm:w-72">
                      <SelectValue placeholder="Select a rotation" />
                    </SelectTrigger>
                    <SelectContent>
                      {rotations.map((r) => (
                        <SelectItem key={r.id} value={String(r.id)}>
                          {r.name}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </div>
                <LinkField
                  id={ids.rotation}
                  label={`${pickedName} feed link`}
                  url={rotationUrl}
                  what={pickedName}
                />
              </div>
            ) : null}
            <p className="text-muted-foreground text-xs">
              Copy the links now: for your security Baton shows them only once. Paste a link into
              “Add calendar → From URL” (Google Calendar) or “Subscribe from web” (Outlook).
            </p>
          </>
        ) : active ? (
          <p className="text-muted-foreground text-sm">
            Your feed links are active. Baton shows them only when they are made; reset the secret
            to get new links — calendars using the old ones stop updating.
          </p>
        ) : (
          <p className="text-muted-foreground text-sm">You have no feed links yet.</p>
        )}
      </CardContent>
      <CardFooter>
        {active ? (
          <Button variant="outline" onClick={() => setConfirmOpen(true)} disabled={reset.isPending}>
            <RefreshCw aria-hidden="true" />
            Reset secret
          </Button>
        ) : (
          <Button onClick={makeLinks} pending={reset.isPending} disabled={status.isPending}>
            Create feed links
          </Button>
        )}
      </CardFooter>
      <AlertDialog open={confirmOpen} onOpenChange={setConfirmOpen}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Reset your calendar feed links?</AlertDialogTitle>
            <AlertDialogDescription>
              New links are made and shown once. Calendars subscribed with the old links stop
              updating until you subscribe again.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              onClick={(e) => {
                e.preventDefault();
                makeLinks();
              }}
              disabled={reset.isPending}
            >
              Reset secret
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
