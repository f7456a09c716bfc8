import type { ChangeEvent } from '@shared/contracts/live-events';
import { type Query, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { showsChange } from '../lib/invalidations';
import type { LiveStatus } from '../lib/live-connection';
import { RoundPace, readAgain } from '../lib/re-reads';

/**
 * useLiveUpdates joins the browser's live stream while someone is signed in (`viewerId`) and
 * reads again exactly the cached queries that show each change (decision 220), at most once a
 * second, once every few seconds while changes keep coming (decision 286), and never cancelling
 * a read under way (decision 283); a `resync` reads everything
 * again. It returns the stream's status for the header. Polling stays as the specification has
 * it, so a page whose stream cannot connect still updates.
 */
export function useLiveUpdates(viewerId: number | null): LiveStatus | null {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus | null>(null);

  useEffect(() => {
    if (viewerId === null) {
      setStatus(null);
      return;
    }
    let leave: (() => void) | null = null;
    let left = false;
    let pending: ChangeEvent[] = [];
    let everything = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const pace = new RoundPace();
    // the queries that were being read at the last round: read again in the next (decision 283)
    let again: Query[] = [];
    const schedule = () => {
      timer ??= setTimeout(flush, pace.delay(Date.now()));
    };
    const flush = () => {
      timer = null;
      pace.ran(Date.now());
      const events = pending;
      const carried = new Set(again);
      const all = everything;
      pending = [];
      everything = false;
      again = readAgain(
        queryClient,
        (query) =>
          all || carried.has(query) || events.some((e) => showsChange(query.queryKey, e, viewerId)),
      );
      if (again.length > 0) schedule();
    };
    // The connection (and zod, which checks each event it hears) loads after the first paint:
    // the first screen's JavaScript stays within its budget (decision 237).
    void import('../lib/live-connection').then(({ connectLive, SeenIds }) => {
      if (left) return;
      const seen = new SeenIds();
      leave = connectLive({
        onStatus: setStatus,
        onMessage: (message) => {
          if (message.type === 'resync') everything = true;
          else if (seen.firstTime(message.event.id)) pending.push(message.event);
          else return;
          schedule();
        },
      });
    });
    return () => {
      left = true;
      leave?.();
      if (timer) clearTimeout(timer);
    };
  }, [queryClient, viewerId]);

  return status;
}
