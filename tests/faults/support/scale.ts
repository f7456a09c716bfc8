/**
 * The size of the multi-instance and fault runs, in one place. FAULTS_SCALE=ci gives the short
 * run of `.ci/run`; anything else the full size the issue asks for (`npm run test:faults`).
 */

export const FAULTS_SCALE: 'ci' | 'full' = process.env.FAULTS_SCALE === 'ci' ? 'ci' : 'full';
const ci = FAULTS_SCALE === 'ci';

const MINUTE = 60_000;

export const scale = {
  /** three instances on one PostgreSQL database (tests/faults/multi-instance.test.ts) */
  multiInstance: {
    /** pass-baton requests in all, spread over the rotations and clients below */
    passRequests: ci ? 300 : 3_000,
    /** times three instances start at once on an empty database (first admin, demo seed) */
    startupRaces: ci ? 2 : 6,
    rotations: 10,
    clients: 30,
    /** the simulated month the three engines run through (a file clock, decision 090) */
    month: ci
      ? {
          // A week across Sydney's daylight-saving change (4 October).
          start: '2026-09-30T00:00:00Z',
          end: '2026-10-07T00:00:00Z',
          stepMs: 97 * MINUTE,
          outage: { from: '2026-10-02T06:00:00Z', to: '2026-10-03T11:00:00Z' },
        }
      : {
          // Sydney (4 October), London (25 October) and New York (1 November) change the clocks.
          start: '2026-09-28T00:00:00Z',
          end: '2026-11-06T00:00:00Z',
          stepMs: 29 * MINUTE,
          outage: { from: '2026-10-14T06:00:00Z', to: '2026-10-16T11:00:00Z' },
        },
  },
  /** SIGKILL in the middle of engine work (tests/faults/engine-kill.test.ts) */
  engineKill: {
    kills: ci ? 5 : 100,
    /**
     * rotations due at every boundary, so a kill lands in the middle of the work: with 120, two
     * engines writing batches of 25, four at a time, sometimes finished a round between two
     * looks at the count, and fewer than half of 5 kills landed mid-round
     */
    rotations: 240,
    /** the engine's interval (ENGINE_INTERVAL_SECONDS) on both instances */
    engineIntervalSeconds: 0.2,
  },
  /**
   * SIGSTOP of an instance holding rotations' row locks in the middle of an engine tick
   * (tests/faults/engine-pause.test.ts), with short PostgreSQL time-outs (decision 168)
   */
  enginePause: {
    pauses: ci ? 3 : 20,
    /** with 120, a round was finished before a lock holder was caught in up to 2 of 5 rounds */
    rotations: 240,
    engineIntervalSeconds: 0.2,
    /** DB_LOCK_TIMEOUT_MS: a request waiting on the paused instance's lock gives up after this */
    lockTimeoutMs: 300,
    /**
     * DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: the server ends the paused instance's transaction. It
     * must outlast the survivor's two ticks around the locked rotations (well under a second
     * since the shift-changes task skips a locked rotation; before, it waited the whole time).
     */
    idleInTransactionTimeoutMs: 10_000,
  },
  /**
   * Notifications delivered by real Baton processes through faulty providers while one process
   * is SIGKILLed every killPeriodMs and restarted (tests/faults/outbox-kill.test.ts)
   */
  outboxKill: {
    notifications: ci ? 1_000 : 10_000,
    killPeriodMs: ci ? 4_000 : 30_000,
    outboxIntervalSeconds: 0.2,
  },
  /** two instances inserting audit events at once (tests/faults/audit-chain.test.ts) */
  auditChain: {
    /** one writer per rotation, alternating between the two instances */
    rotations: 10,
    /** audited changes (suspend, activate) per rotation and round; even, so each ends active */
    changesPerRotation: ci ? 20 : 100,
    /** passes of the baton per rotation and round; a multiple of 3, so the first member holds again */
    passesPerRotation: ci ? 15 : 60,
    /** timed rounds; the figures are medians */
    rounds: ci ? 1 : 3,
  },
  /** the input fuzz of every route on PGlite and PostgreSQL (tests/faults/input-fuzz.test.ts) */
  inputFuzz: {
    /** generated requests per route and engine (issue 14: at least 2,000) */
    requestsPerRoute: ci ? 25 : 2_000,
  },
  /** SIGKILL of a PGlite process during writes, restarted at once (tests/faults/pglite-kill.test.ts) */
  pgliteKill: {
    kills: ci ? 6 : 100,
    /** rotations, each with one writer passing its baton around 3 members */
    rotations: 3,
    /** writers paging the rotations, and writers inviting people, at the same time */
    pageWriters: 2,
    invitationWriters: 1,
    /** the kill lands this long after the writers start, uniformly at random */
    killAfterMs: { min: 100, max: 3_000 },
  },
  /**
   * Alert ingestion by a built process while a proxy fails its database work, and while the
   * process is SIGKILLed mid-request (tests/faults/alert-ingestion.test.ts, issue 36)
   */
  alertIngestion: {
    /** distinct alerts (dedup keys) sent through the faulty database, each until accepted */
    alerts: ci ? 100 : 2_000,
    /**
     * share of the database's units of work (a transaction, or a statement outside one) that a
     * fault hits: a third each reset, answer lost, stalled (tests/faults/support/faulty-postgres.ts)
     */
    faultRate: 0.3,
    /** sources sending at once */
    sources: 10,
    kills: ci ? 3 : 100,
    /** new keys each round, sent with half as many repeats of keys accepted before */
    alertsPerRound: 40,
    /** the kill lands this long after the round's deliveries start, uniformly at random */
    killAfterMs: { min: 30, max: 300 },
  },
  /**
   * A browser's stream on an instance that is SIGKILLed reconnects to another with its last
   * event id (tests/faults/live-updates.test.ts, issue 36): passes of the baton before the kill,
   * while the browser is away (the log then aged 9.5 minutes), and after it reconnects
   */
  liveUpdates: {
    passesBefore: ci ? 10 : 100,
    /** past REPLAY_LIMIT (500) changes missed, the browser is told to re-read everything */
    passesWhileAway: ci ? 20 : 100,
    passesAfter: ci ? 5 : 50,
  },
  /**
   * Acknowledgement against the escalation timer (tests/faults/page-races.test.ts): rounds of 10
   * races for each step raced (reminder, escalation) and each channel acknowledged by (app, link,
   * push, SMS reply, call); full size: 1,000 races per channel, 2,500 per step (issue 36)
   */
  pageRaces: {
    roundsPerStepAndChannel: ci ? 1 : 50,
  },
  /** providers failing 30% of the time (tests/faults/provider-faults.test.ts) */
  providerFaults: {
    /** phone calls through Twilio's Calls API (issue 36); the email and SMS sizes are the file's */
    calls: ci ? 500 : 5_000,
    /** people with one device each, one push each, through a failing push service (issue 36) */
    pushes: ci ? 250 : 2_500,
  },
  /** SIGTERM under load (tests/faults/graceful-shutdown.test.ts, decision 225) */
  gracefulShutdown: {
    /** clients passing batons, each on a rotation of its own, while the shutdown begins */
    passClients: ci ? 4 : 12,
    /** rotations the engine hands off in one round, so that a tick is long enough to catch */
    engineRotations: ci ? 120 : 240,
    /** on PGlite, where the round shares the one connection with the passes */
    pgliteEngineRotations: ci ? 30 : 60,
    /** attempts on PostgreSQL to send SIGTERM while a round is half done */
    tickAttempts: ci ? 4 : 10,
  },
} as const;

/**
 * The time limit of each test and set-up hook, given explicitly: the shared setup file
 * (tests/setup/fail-on-console-error.ts) sets every file's default test timeout to 30 s.
 */
export const LONG = 900_000;
