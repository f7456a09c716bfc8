import {
  type ChangeEvent,
  ChangeEventSchema,
  LIVE_EVENT_NAMES,
} from '@shared/contracts/live-events';

/*
 * One event stream per browser, shared by its tabs (decision 220): browsers allow six HTTP/1.1
 * connections per host, and a stream per tab would take them all. The tab holding the Web Lock
 * `baton-live` is the leader: it owns the EventSource and passes each message and its status on
 * over the BroadcastChannel `baton-live`. When it closes, the lock passes to another tab, which
 * opens the stream from the last event id it heard.
 */

/** live: the stream is open; connecting: (re)connecting; polling: three attempts failed. */
export type LiveStatus = 'connecting' | 'live' | 'polling';

/** What the stream tells every tab. */
export type LiveMessage = { type: 'change'; event: ChangeEvent } | { type: 'resync' };

/** after this many failed attempts in a row the header says the page polls instead */
export const FAILURES_BEFORE_POLLING = 3;

/** statusAfterFailures is the status while reconnecting after `failures` failed attempts. */
export function statusAfterFailures(failures: number): LiveStatus {
  return failures >= FAILURES_BEFORE_POLLING ? 'polling' : 'connecting';
}

/** retryDelayMs: 1 s, 2 s, 4 s … up to 30 s between attempts. */
export function retryDelayMs(failures: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, failures - 1), 30_000);
}

/** streamUrl is the stream's address, with the last event id when there is one. */
export function streamUrl(lastEventId: string | null): string {
  return lastEventId && /^\d+$/.test(lastEventId)
    ? `/api/events?lastEventId=${lastEventId}`
    : '/api/events';
}

/**
 * SeenIds remembers the latest event ids, so that an event replayed after a reconnect, or
 * heard both live and in the replay, is acted on once.
 */
export class SeenIds {
  private readonly ids = new Set<number>();
  constructor(private readonly capacity = 500) {}
  /** firstTime records the id and tells whether it is new. */
  firstTime(id: number): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
    return true;
  }
}

type ChannelMessage =
  | { type: 'message'; message: LiveMessage; lastEventId: string | null }
  | { type: 'status'; status: LiveStatus }
  | { type: 'hello' };

const CHANNEL = 'baton-live';

export interface LiveConnectionHandlers {
  onMessage(message: LiveMessage): void;
  onStatus(status: LiveStatus): void;
}

/**
 * connectLive joins the browser's one stream: as its leader when this tab holds the lock, else as
 * a follower of the leader's broadcasts. It returns a function that leaves.
 */
export function connectLive(handlers: LiveConnectionHandlers): () => void {
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
  let stopped = false;
  let status: LiveStatus = 'connecting';
  let lastEventId: string | null = null;
  let releaseLock: (() => void) | null = null;
  let stopLeading: (() => void) | null = null;

  const setStatus = (next: LiveStatus, tell: boolean) => {
    status = next;
    handlers.onStatus(next);
    if (tell) channel?.postMessage({ type: 'status', status: next } satisfies ChannelMessage);
  };

  channel?.addEventListener('message', (e: MessageEvent<ChannelMessage>) => {
    const data = e.data;
    if (data.type === 'message') {
      if (data.lastEventId) lastEventId = data.lastEventId;
      handlers.onMessage(data.message);
    } else if (data.type === 'status') {
      if (!stopLeading) setStatus(data.status, false);
    } else if (data.type === 'hello' && stopLeading) {
      channel.postMessage({ type: 'status', status } satisfies ChannelMessage);
    }
  });

  const lead = () => {
    stopLeading = leadStream({
      initialLastEventId: lastEventId,
      onMessage: (message, id) => {
        if (id) lastEventId = id;
        handlers.onMessage(message);
        channel?.postMessage({
          type: 'message',
          message,
          lastEventId: id,
        } satisfies ChannelMessage);
      },
      onStatus: (next) => setStatus(next, true),
    });
  };

  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  // A follower says "connecting" until the leader tells it how the stream is.
  handlers.onStatus(status);
  if (locks && channel) {
    channel.postMessage({ type: 'hello' } satisfies ChannelMessage);
    void locks
      .request(CHANNEL, () => {
        if (stopped) return undefined;
        lead();
        // Held until this tab leaves; then the next tab in line leads.
        return new Promise<void>((resolve) => {
          releaseLock = resolve;
        });
      })
      .catch(() => {});
  } else {
    // No Web Locks (or no BroadcastChannel): every tab keeps its own stream.
    lead();
  }

  return () => {
    stopped = true;
    stopLeading?.();
    stopLeading = null;
    releaseLock?.();
    channel?.close();
  };
}

/** leadStream owns the EventSource: it reconnects with growing delays and counts failures. */
function leadStream(options: {
  initialLastEventId: string | null;
  onMessage(message: LiveMessage, lastEventId: string | null): void;
  onStatus(status: LiveStatus): void;
}): () => void {
  let lastEventId = options.initialLastEventId;
  let failures = 0;
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const open = () => {
    if (stopped) return;
    const es = new EventSource(streamUrl(lastEventId), { withCredentials: true });
    source = es;
    const remember = (e: MessageEvent) => {
      if (e.lastEventId) lastEventId = e.lastEventId;
    };
    es.addEventListener('open', () => {
      failures = 0;
      options.onStatus('live');
    });
    es.addEventListener(LIVE_EVENT_NAMES.ready, (e) => remember(e as MessageEvent));
    es.addEventListener(LIVE_EVENT_NAMES.change, (e) => {
      const message = e as MessageEvent<string>;
      remember(message);
      const parsed = ChangeEventSchema.safeParse(safeJson(message.data));
      if (parsed.success) options.onMessage({ type: 'change', event: parsed.data }, lastEventId);
    });
    es.addEventListener(LIVE_EVENT_NAMES.resync, (e) => {
      remember(e as MessageEvent);
      options.onMessage({ type: 'resync' }, lastEventId);
    });
    es.addEventListener('error', () => {
      // The browser's own retry would not send our id after a refused answer, nor count: close
      // and open anew with the last id.
      es.close();
      if (stopped || source !== es) return;
      failures += 1;
      options.onStatus(statusAfterFailures(failures));
      retry = setTimeout(open, retryDelayMs(failures));
    });
  };

  if (typeof EventSource === 'undefined') {
    // No server-sent events here: the page keeps the specification's polling.
    options.onStatus('polling');
    return () => {};
  }
  options.onStatus('connecting');
  open();
  return () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    source?.close();
    source = null;
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
