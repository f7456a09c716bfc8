import {
  type ChangeEvent,
  ChangeEventSchema,
  LIVE_EVENT_NAMES,
  LIVE_HEARTBEAT_MS,
  shouldReceiveChange,
} from '../../../shared/contracts/live-events';
import { type Actor, effectiveRoles, type Role } from '../../../shared/domain/roles';
import type { Clock } from '../../core/clock';
import type { Database } from '../../db/client';
import {
  changesSince,
  latestChangeId,
  liveSessions,
  whomIncidentsConcern,
} from './live-repository';

/** the NOTIFY channel migration 0016's triggers send on */
export const CHANGE_CHANNEL = 'baton_changes';
/** an earlier id may commit after a later one: a reconnect replays this far back (decision 220) */
export const REPLAY_MARGIN_MS = 30_000;
/** more missed events than this and the browser re-reads everything instead */
export const REPLAY_LIMIT = 500;
/** how often every open stream's session is checked for expiry */
export const SESSION_CHECK_MS = 60_000;
/**
 * On shutdown each stream is told to reconnect after 2 to 7 seconds (an SSE `retry:` field,
 * decision 225): spread out, so the browsers of a restarting instance do not all come at once.
 */
export const SHUTDOWN_RETRY_MS = { min: 2_000, spread: 5_000 };
/**
 * the open streams one session may hold on an instance (decision 236): a browser needs one (the tab
 * holding the lock), a few while tabs hand it over; opening one more closes the session's oldest
 */
export const STREAMS_PER_SESSION = 10;
/** a stream whose reader lags this far behind is closed (it reconnects and replays) */
const MAX_BUFFERED_BYTES = 512 * 1024;

/** One open stream: the viewer it serves and where its bytes go. */
export interface StreamSink {
  write(chunk: string): boolean;
  /** bytes written but not yet taken by the network */
  buffered(): number;
  end(): void;
}

interface Stream {
  sink: StreamSink;
  tokenHash: string;
  viewer: Actor;
  /** events that arrived while the opening was being written; null once it is */
  held: Outgoing[] | null;
}

/**
 * A change on its way to the streams, written once per variant: an incident's change says to each
 * viewer whether it concerns them (decision 287), so it has two texts; any other change has one.
 */
class Outgoing {
  private texts: [string | undefined, string | undefined] = [undefined, undefined];

  constructor(
    readonly event: ChangeEvent,
    /** whom an incident's change concerns; null when not an incident's, or not known */
    private readonly concerned: ReadonlySet<number> | null = null,
  ) {}

  textFor(viewerId: number): string {
    if (this.concerned === null) {
      this.texts[0] ??= formatChange(this.event);
      return this.texts[0];
    }
    const concernsYou = this.concerned.has(viewerId);
    const at = concernsYou ? 0 : 1;
    this.texts[at] ??= formatChange({ ...this.event, concernsYou });
    return this.texts[at] as string;
  }
}

export interface LiveHubDeps {
  database: Database;
  clock: Clock;
  /** how often a comment keeps idle streams open through proxies (default LIVE_HEARTBEAT_MS) */
  heartbeatMs?: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** formatEvent writes one server-sent event. */
export function formatEvent(name: string, data: unknown, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** parseNotification reads a NOTIFY payload of migration 0016 (a JSON array of events). */
export function parseNotification(payload: string): ChangeEvent[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((item) => {
    const event = ChangeEventSchema.safeParse(item);
    return event.success ? [event.data] : [];
  });
}

/**
 * LiveHub holds this process's open event streams (decision 220). It listens to the database's
 * change feed once, from the first stream on, and fans each change out to every stream whose
 * viewer may see it: one serialisation per event, one write per stream, no query per stream.
 * Sessions are checked for all streams in one query, when a session or user changes and every
 * minute; a stream whose session is gone is closed, and one whose roles changed filters by them.
 */
export class LiveHub {
  private readonly streams = new Set<Stream>();
  private listening: Promise<void> | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private timers: NodeJS.Timeout[] = [];
  private checking: Promise<void> | null = null;
  private checkAgain = false;
  private closed = false;
  /** incidents' changes waiting for whom they concern (decision 287), and the run sending them */
  private incidentChanges: ChangeEvent[] = [];
  private sendingIncidents: Promise<void> | null = null;

  constructor(private readonly deps: LiveHubDeps) {}

  /** size is the number of open streams. */
  get size(): number {
    return this.streams.size;
  }

  /** start subscribes to the change feed (once) and starts the heartbeat and session checks. */
  start(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The live hub is closed'));
    if (!this.listening) {
      this.listening = this.deps.database
        .listen(CHANGE_CHANNEL, {
          onNotify: (payload) => this.publish(parseNotification(payload)),
          onLost: (err) => this.deps.log?.warn({ err }, 'live updates: change feed lost'),
          onReconnect: () => void this.resyncAll(),
        })
        .then((unlisten) => {
          this.unlisten = unlisten;
          if (this.closed) void unlisten();
          this.startTimers();
        })
        .catch((err) => {
          this.listening = null;
          throw err;
        });
    }
    return this.listening;
  }

  private startTimers() {
    const heartbeat = setInterval(
      () => this.heartbeat(),
      this.deps.heartbeatMs ?? LIVE_HEARTBEAT_MS,
    );
    const check = setInterval(() => void this.checkSessions(), SESSION_CHECK_MS);
    heartbeat.unref();
    check.unref();
    this.timers.push(heartbeat, check);
  }

  /**
   * open adds a stream and writes its opening: what a browser that saw `lastEventId` missed, or
   * a `resync` when that is too old or too much, or `ready` with the newest id when it saw none.
   * Changes that arrive meanwhile are held and written after the opening; a change both replayed
   * and held reaches the browser twice, which ignores the second by its id.
   */
  async open(
    sink: StreamSink,
    session: { tokenHash: string; userId: number; roles: Role[] },
    lastEventId: number | undefined,
  ): Promise<() => void> {
    const stream: Stream = {
      sink,
      tokenHash: session.tokenHash,
      viewer: { id: session.userId, roles: session.roles },
      held: [],
    };
    this.streams.add(stream);
    // A client that opens streams without end would hold a connection and a reader each: past the
    // cap the oldest goes (insertion order), which a real browser, holding one, never meets.
    const own = [...this.streams].filter((s) => s.tokenHash === session.tokenHash);
    for (const oldest of own.slice(0, Math.max(0, own.length - STREAMS_PER_SESSION))) {
      this.drop(oldest);
    }
    const remove = () => {
      this.streams.delete(stream);
    };
    try {
      sink.write(`retry: 2000\n\n`);
      const db = this.deps.database.db;
      if (lastEventId === undefined) {
        sink.write(formatEvent(LIVE_EVENT_NAMES.ready, {}, await latestChangeId(db)));
      } else {
        const missed = await changesSince(db, lastEventId, {
          marginMs: REPLAY_MARGIN_MS,
          limit: REPLAY_LIMIT,
        });
        if (!missed.known || missed.events.length > REPLAY_LIMIT) {
          sink.write(formatEvent(LIVE_EVENT_NAMES.resync, {}, await latestChangeId(db)));
        } else {
          for (const event of missed.events) this.send(stream, new Outgoing(event));
          sink.write(formatEvent(LIVE_EVENT_NAMES.ready, {}));
        }
      }
      const held = stream.held ?? [];
      stream.held = null;
      for (const outgoing of held) this.send(stream, outgoing);
    } catch (err) {
      remove();
      throw err;
    }
    return remove;
  }

  /**
   * publish sends changes to every stream whose viewer may see them. An incident's change first
   * asks whom it concerns (decision 287), so that each stream can be told whether it is its
   * viewer's: the incidents' changes that arrive while one such question is out wait and are
   * asked about together next, one query at a time however fast they come, while every other
   * change goes out at once. (Changes may reach a stream out of id order, as commits already
   * make them: a reconnect replays a margin before the last id seen.)
   */
  publish(events: ChangeEvent[]): void {
    if (events.some((event) => event.kind === 'session' || event.kind === 'user')) {
      void this.checkSessions();
    }
    const now: ChangeEvent[] = [];
    for (const event of events) {
      if (event.kind === 'incident' && event.entityId !== null && this.streams.size > 0) {
        this.incidentChanges.push(event);
      } else now.push(event);
    }
    this.deliver(now, new Map());
    if (this.incidentChanges.length > 0) this.sendingIncidents ??= this.sendIncidentChanges();
  }

  /** sendIncidentChanges sends the waiting incidents' changes, asking whom they concern in one query a round. */
  private async sendIncidentChanges(): Promise<void> {
    while (this.incidentChanges.length > 0) {
      const events = this.incidentChanges.splice(0);
      const ids = [...new Set(events.map((event) => event.entityId as number))];
      let concerned = new Map<number, ReadonlySet<number>>();
      try {
        concerned = await whomIncidentsConcern(this.deps.database.db, ids);
      } catch (err) {
        // Unknown: the changes go out without saying, and every screen that may show them reads.
        this.deps.log?.warn({ err }, 'live updates: whom incidents concern could not be read');
      }
      try {
        this.deliver(events, concerned);
      } catch (err) {
        this.deps.log?.error({ err }, 'live updates: a change was not delivered');
      }
    }
    this.sendingIncidents = null;
  }

  private deliver(events: ChangeEvent[], concerned: Map<number, ReadonlySet<number>>): void {
    for (const event of events) {
      const whom = event.kind === 'incident' && event.entityId !== null;
      const outgoing = new Outgoing(
        event,
        whom ? (concerned.get(event.entityId as number) ?? null) : null,
      );
      for (const stream of this.streams) {
        if (stream.held) stream.held.push(outgoing);
        else this.send(stream, outgoing);
      }
    }
  }

  private send(stream: Stream, outgoing: Outgoing) {
    if (!shouldReceiveChange(stream.viewer, outgoing.event)) return;
    this.write(stream, outgoing.textFor(stream.viewer.id));
  }

  private write(stream: Stream, text: string) {
    // A reader that does not keep up is let go: it reconnects and replays from its last id.
    if (stream.sink.buffered() > MAX_BUFFERED_BYTES) {
      this.drop(stream);
      return;
    }
    stream.sink.write(text);
  }

  private drop(stream: Stream) {
    this.streams.delete(stream);
    stream.sink.end();
  }

  private heartbeat() {
    for (const stream of this.streams) this.write(stream, ': heartbeat\n\n');
  }

  /**
   * resyncAll tells every stream to re-read everything: after the change feed was lost, what
   * changed meanwhile is unknown.
   */
  async resyncAll(): Promise<void> {
    let id: number | undefined;
    try {
      id = await latestChangeId(this.deps.database.db);
    } catch {
      id = undefined;
    }
    const text = formatEvent(LIVE_EVENT_NAMES.resync, {}, id);
    for (const stream of this.streams) this.write(stream, text);
    void this.checkSessions();
  }

  /**
   * checkSessions re-reads every open stream's session in one query: a stream whose session
   * ended (signed out, expired, the user deleted) is closed, and roles are brought up to date.
   * Calls while one runs make one more run after it.
   */
  checkSessions(): Promise<void> {
    if (this.checking) {
      this.checkAgain = true;
      return this.checking;
    }
    this.checking = (async () => {
      do {
        this.checkAgain = false;
        await this.checkOnce();
      } while (this.checkAgain && !this.closed);
    })()
      .catch((err) => this.deps.log?.warn({ err }, 'live updates: session check failed'))
      .finally(() => {
        this.checking = null;
      });
    return this.checking;
  }

  private async checkOnce() {
    const open = [...this.streams];
    if (open.length === 0) return;
    const hashes = [...new Set(open.map((stream) => stream.tokenHash))];
    const rows = await liveSessions(this.deps.database.db, hashes, this.deps.clock.now());
    const byHash = new Map(rows.map((row) => [row.tokenHash, row]));
    for (const stream of open) {
      const row = byHash.get(stream.tokenHash);
      if (!row) this.drop(stream);
      else stream.viewer = { id: row.userId, roles: effectiveRoles(row.roles, row.role) };
    }
  }

  /**
   * close ends every stream and stops listening; the app's close waits for it. With `retryHint`
   * (a shutdown) each stream is first told when to reconnect; its browser then replays from its
   * last id, on this instance once it is back or on another.
   */
  async close(options: { retryHint?: boolean } = {}): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    for (const stream of [...this.streams]) {
      if (options.retryHint) {
        const retry = SHUTDOWN_RETRY_MS.min + Math.floor(Math.random() * SHUTDOWN_RETRY_MS.spread);
        stream.sink.write(`retry: ${retry}\n\n`);
      }
      this.drop(stream);
    }
    await this.listening?.catch(() => {});
    await this.unlisten?.();
    this.unlisten = null;
    await this.sendingIncidents;
    await this.checking;
  }
}

function formatChange(event: ChangeEvent): string {
  return formatEvent(LIVE_EVENT_NAMES.change, event, event.id);
}
