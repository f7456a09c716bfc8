import http from 'node:http';

/** One server-sent event as a browser's EventSource reads it. */
export interface StreamEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * parseEventStream splits server-sent event text into events (comments dropped) and the
 * unfinished rest.
 */
export function parseEventStream(text: string): { events: StreamEvent[]; rest: string } {
  const blocks = text.split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: StreamEvent[] = [];
  for (const block of blocks) {
    const event: StreamEvent = { event: 'message', data: '' };
    let any = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
      else if (field === 'data') event.data = event.data ? `${event.data}\n${value}` : value;
      else continue;
      any = true;
    }
    if (any) events.push(event);
  }
  return { events, rest };
}

export interface OpenStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** every event received so far */
  events: StreamEvent[];
  /** raw text received so far, comments included */
  text(): string;
  /** resolves with the first event (from the start) matching, or rejects after timeoutMs */
  waitFor(match: (event: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  /** resolves when the server ends the stream */
  ended: Promise<void>;
  close(): void;
}

/**
 * openEventStream opens `GET path` on a listening server as a browser's EventSource would (a
 * real socket: app.inject does not stream), with the given cookie and headers.
 */
export function openEventStream(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      new URL(path, baseUrl),
      { headers: { accept: 'text/event-stream', ...headers }, agent: false },
      (res) => {
        res.setEncoding('utf8');
        let raw = '';
        let pending = '';
        const events: StreamEvent[] = [];
        const waiters = new Set<() => void>();
        let endedResolve: () => void = () => {};
        const ended = new Promise<void>((r) => {
          endedResolve = r;
        });
        res.on('data', (chunk: string) => {
          raw += chunk;
          const parsed = parseEventStream(pending + chunk);
          pending = parsed.rest;
          events.push(...parsed.events);
          for (const wake of waiters) wake();
        });
        const finish = () => {
          endedResolve();
          for (const wake of waiters) wake();
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          events,
          text: () => raw,
          ended,
          close: () => req.destroy(),
          waitFor: (match, timeoutMs = 5_000) =>
            new Promise((found, fail) => {
              const check = () => {
                const event = events.find(match);
                if (event) {
                  waiters.delete(check);
                  clearTimeout(timer);
                  found(event);
                }
              };
              const timer = setTimeout(() => {
                waiters.delete(check);
                fail(new Error(`no matching event within ${timeoutMs} ms; got ${raw}`));
              }, timeoutMs);
              waiters.add(check);
              check();
            }),
        });
      },
    );
    req.on('error', reject);
  });
}

/** changeData reads a `change` event's data. */
export function changeData(event: StreamEvent): {
  id: number;
  kind: string;
  entityId: number | null;
  rotationId: number | null;
  concernsYou?: boolean;
} {
  return JSON.parse(event.data);
}
