import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../../db/client';
import type { EngineTick } from '../../engine/engine-loop';
import type { DeliveryReport, OutboxChannel } from '../notifications/outbox';

/**
 * The metrics of one Baton process (issue 20, decision 225), in Prometheus' text format at
 * GET /metrics. Each app has a registry of its own, never prom-client's global one, so several
 * apps in one test process do not collide. Counters and histograms are this process's own (each
 * instance counts what it did); the gauges read from the database at scrape time (queue depth,
 * open incidents) are the same on every instance.
 */

/** The alert sources the counters name: each inbound format, and email (decision 208). */
export const ALERT_SOURCES = [
  'pagerduty',
  'opsgenie',
  'alertmanager',
  'grafana',
  'generic',
  'email',
] as const;
export type AlertSource = (typeof ALERT_SOURCES)[number];

/** The outbox's channels, so each has a series from the start. */
const OUTBOX_CHANNELS: readonly OutboxChannel[] = ['email', 'sms', 'chat'];
/** An incident's open statuses (a resolved one is closed). */
export const OPEN_INCIDENT_STATUSES = ['triggered', 'acknowledged', 'escalated'] as const;

/** prom-client's default metrics that `promtool check metrics` refuses (a gauge ending _total). */
const PROMTOOL_REFUSED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** The route label of a request no route matched (the app's not-found answers, the client's pages). */
export const UNMATCHED_ROUTE = 'unmatched';

/** What the scrape-time gauges read: set once by the app that serves them (watch). */
export interface ScrapeSources {
  /** outbox notifications pending, by channel */
  queueDepth(): Promise<{ channel: string; count: number }[]>;
  /** incidents not resolved, by status */
  openIncidents(): Promise<{ status: string; count: number }[]>;
  /** this process's open event streams */
  openStreams(): number;
  /** PostgreSQL: the connection pool now; absent on PGlite */
  poolStats?: () => PoolStats;
  /** a failed database read at scrape time: the gauge is left out of that scrape */
  onError?(err: unknown): void;
}

/** Metrics holds a process's registry and the instruments the code paths record into. */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpDuration: Histogram<'method' | 'route'>;
  private readonly engineTicks: Counter<'outcome'>;
  private readonly engineTickDuration: Histogram;
  private readonly engineTickLag: Gauge;
  private readonly engineLastSuccess: Gauge;
  private readonly outboxOutcomes: Record<keyof DeliveryReport, Counter<'channel'>>;
  private readonly alertsReceived: Counter<'source'>;
  private readonly alertsRefused: Counter<'source' | 'status'>;
  private watching = false;

  constructor(options: { version: string }) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    // Gauges named like counters, which promtool refuses; nodejs_active_handles and the others
    // without the suffix say the same by type.
    for (const name of PROMTOOL_REFUSED_DEFAULTS) this.registry.removeSingleMetric(name);
    new Gauge({
      name: 'baton_build_info',
      help: 'Always 1; the version label says which Baton this process runs.',
      labelNames: ['version'],
      registers,
    }).set({ version: options.version }, 1);
    this.httpRequests = new Counter({
      name: 'baton_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'baton_http_request_duration_seconds',
      help: 'Time from receiving a request to finishing its answer, by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.engineTicks = new Counter({
      name: 'baton_engine_ticks_total',
      help: "The engine's ticks in this process, by outcome (ok, failed).",
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['ok', 'failed']) this.engineTicks.inc({ outcome }, 0);
    this.engineTickDuration = new Histogram({
      name: 'baton_engine_tick_duration_seconds',
      help: "How long the engine's ticks ran.",
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.engineTickLag = new Gauge({
      name: 'baton_engine_tick_lag_seconds',
      help: "How much later than its interval the engine's last tick began (a long tick before it, or a busy process).",
      registers,
    });
    this.engineLastSuccess = new Gauge({
      name: 'baton_engine_last_success_timestamp_seconds',
      help: "When the engine's last successful tick ended, in Unix seconds (0: none yet).",
      registers,
    });
    const outboxCounter = (name: string, help: string) => {
      const counter = new Counter({ name, help, labelNames: ['channel'], registers });
      for (const channel of OUTBOX_CHANNELS) counter.inc({ channel }, 0);
      return counter;
    };
    this.outboxOutcomes = {
      sent: outboxCounter('baton_outbox_sent_total', 'Notifications this process delivered.'),
      failed: outboxCounter(
        'baton_outbox_failed_total',
        'Notifications that failed for good in this process (retries exhausted or refused).',
      ),
      retrying: outboxCounter(
        'baton_outbox_retries_total',
        'Delivery attempts that failed and were scheduled again.',
      ),
    };
    this.alertsReceived = new Counter({
      name: 'baton_alerts_received_total',
      help: 'Alerts stored from monitoring tools, by source (one request may carry several).',
      labelNames: ['source'],
      registers,
    });
    for (const source of ALERT_SOURCES) this.alertsReceived.inc({ source }, 0);
    this.alertsRefused = new Counter({
      name: 'baton_alerts_refused_total',
      help: 'Alert requests refused without storing anything, by source and status (HTTP, or the SMTP reply for email).',
      labelNames: ['source', 'status'],
      registers,
    });
  }

  /** recordRequest counts one answered request; `route` is its pattern, never its URL. */
  recordRequest(method: string, route: string | undefined, status: number, seconds: number) {
    const labels = { method, route: route ?? UNMATCHED_ROUTE };
    this.httpRequests.inc({ ...labels, status: String(status) });
    this.httpDuration.observe(labels, seconds);
  }

  /** recordEngineTick records one engine tick (startEngine's onTick). */
  recordEngineTick = (tick: EngineTick) => {
    this.engineTicks.inc({ outcome: tick.ok ? 'ok' : 'failed' });
    this.engineTickDuration.observe(tick.durationMs / 1000);
    this.engineTickLag.set(tick.lagMs / 1000);
    if (tick.ok) this.engineLastSuccess.set(Date.now() / 1000);
  };

  /** recordDelivery counts one notification's delivery outcome (the outbox's onOutcome). */
  recordDelivery = (channel: OutboxChannel, outcome: keyof DeliveryReport) => {
    this.outboxOutcomes[outcome].inc({ channel });
  };

  /** alertsStored counts alerts a source's request stored (repeats included). */
  alertsStored(source: AlertSource, count: number) {
    if (count > 0) this.alertsReceived.inc({ source }, count);
  }

  /** alertRefused counts one refused alert request (a wrong key, a bad body, a rate limit). */
  alertRefused(source: AlertSource, status: number) {
    this.alertsRefused.inc({ source, status: String(status) });
  }

  /**
   * watch adds the gauges read at scrape time: queue depth, open incidents (one query each),
   * open streams and the database pool. Called once, by the app that serves /metrics.
   */
  watch(sources: ScrapeSources) {
    if (this.watching) throw new Error('Metrics.watch: already watching');
    this.watching = true;
    const registers = [this.registry];
    new Gauge({
      name: 'baton_outbox_queue_depth',
      help: 'Notifications waiting in the outbox (pending, due or not), by channel; read from the database, the same on every instance.',
      labelNames: ['channel'],
      registers,
      async collect() {
        this.reset();
        try {
          const rows = await sources.queueDepth();
          for (const channel of OUTBOX_CHANNELS) this.set({ channel }, 0);
          for (const row of rows) this.set({ channel: row.channel }, row.count);
        } catch (err) {
          sources.onError?.(err);
        }
      },
    });
    new Gauge({
      name: 'baton_incidents_open',
      help: 'Incidents not resolved, by status; read from the database, the same on every instance.',
      labelNames: ['status'],
      registers,
      async collect() {
        this.reset();
        try {
          const rows = await sources.openIncidents();
          for (const status of OPEN_INCIDENT_STATUSES) this.set({ status }, 0);
          for (const row of rows) this.set({ status: row.status }, row.count);
        } catch (err) {
          sources.onError?.(err);
        }
      },
    });
    new Gauge({
      name: 'baton_live_streams_open',
      help: 'Live-update event streams (GET /api/events) open on this process.',
      registers,
      collect() {
        this.set(sources.openStreams());
      },
    });
    const poolStats = sources.poolStats;
    if (poolStats) {
      new Gauge({
        name: 'baton_db_pool_connections',
        help: "PostgreSQL connections of this process's pool, by state (in_use, idle).",
        labelNames: ['state'],
        registers,
        collect() {
          const stats = poolStats();
          this.set({ state: 'in_use' }, stats.total - stats.idle);
          this.set({ state: 'idle' }, stats.idle);
        },
      });
      new Gauge({
        name: 'baton_db_pool_max_connections',
        help: "The most connections this process's pool opens.",
        registers,
        collect() {
          this.set(poolStats().max);
        },
      });
      new Gauge({
        name: 'baton_db_pool_waiting_requests',
        help: 'Queries and transactions waiting for a free connection.',
        registers,
        collect() {
          this.set(poolStats().waiting);
        },
      });
    }
  }
}
