import type { ChangeEvent } from '@shared/contracts/live-events';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { showsChange } from '../lib/invalidations';
import type { LiveStatus } from '../lib/live-connection';

/** changes that arrive within this many milliseconds are read again together */
const BATCH_MS = 100;

/**
 * useLiveUpdates joins the browser's live stream while someone is signed in (`viewerId`) and
 * reads again exactly the cached queries that show each change (decision 220); a `resync` reads
 * everything again. It returns the stream's status for the header. Polling stays as the
 * specification has it, so a page whose stream cannot connect still updates.
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
    const flush = () => {
      timer = null;
      const events = pending;
      pending = [];
      if (everything) {
        everything = false;
        void queryClient.invalidateQueries();
        return;
      }
      void queryClient.invalidateQueries({
        predicate: (query) => events.some((e) => showsChange(query.queryKey, e, viewerId)),
      });
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
          timer ??= setTimeout(flush, BATCH_MS);
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
