import net from 'node:net';

/**
 * A loopback TCP proxy in front of PostgreSQL that fails a share of the database's work on
 * purpose: the database as a flaky network, a failing-over server or a proxy that drops
 * connections shows it to Baton. The unit judged is what the application sees as one piece of
 * work: a transaction (BEGIN to COMMIT or ROLLBACK, as the client's messages carry them), or a
 * statement outside one. A share `faultRate` of those units is hit by a fault, in equal thirds:
 *
 * - `reset`: the connection is reset before one of the unit's first ten messages (the COMMIT
 *   when the transaction is shorter) reaches the server: the statement never ran, and the server
 *   rolls the transaction back;
 * - `answer-lost`: the unit's COMMIT (or its one statement) reaches the server, which commits,
 *   and the connection is reset as the answer comes back: the client cannot know it committed;
 * - `stall`: one of its first ten messages waits `stallMs` before it goes on (a slow server;
 *   nothing fails).
 *
 * `faultRate` may be changed at any time (0: a faithful proxy); open connections stay open.
 */
const BEGIN = /\bbegin\b/i;
const END = /\b(commit|rollback)\b/i;

export type DatabaseFault = 'reset' | 'answer-lost' | 'stall';

export interface FaultyPostgres {
  port: number;
  /** the URL of `database` through the proxy */
  url(database: string): string;
  faultRate: number;
  /** units of work judged, and the faults dealt, by kind */
  readonly counts: {
    units: number;
    connections: number;
    /** answers lost of a COMMIT: the transaction committed, and the client was not told */
    commitAnswersLost: number;
  } & Record<DatabaseFault, number>;
  close(): Promise<void>;
}

export async function startFaultyPostgres(options: {
  target: { host: string; port: number };
  random: () => number;
  faultRate?: number;
  stallMs?: { min: number; max: number };
}): Promise<FaultyPostgres> {
  const stall = options.stallMs ?? { min: 50, max: 500 };
  const sockets = new Set<net.Socket>();
  const counts = {
    units: 0,
    connections: 0,
    commitAnswersLost: 0,
    reset: 0,
    'answer-lost': 0,
    stall: 0,
  };
  const proxy: FaultyPostgres = {
    port: 0,
    url: (database) => `postgres://postgres@127.0.0.1:${proxy.port}/${database}`,
    faultRate: options.faultRate ?? 0,
    counts,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const pickFault = (): DatabaseFault | undefined => {
    const r = options.random();
    if (r >= proxy.faultRate) return undefined;
    const kinds: DatabaseFault[] = ['reset', 'answer-lost', 'stall'];
    return kinds[Math.min(2, Math.floor((r / proxy.faultRate) * 3))];
  };

  const server = net.createServer((client) => {
    counts.connections += 1;
    const upstream = net.connect(options.target.port, options.target.host);
    sockets.add(client);
    sockets.add(upstream);
    const cut = () => {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    };
    client.on('error', cut);
    upstream.on('error', cut);
    client.on('close', () => {
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    let answerLost = false;
    upstream.on('data', (chunk) => {
      if (answerLost) {
        cut();
        return;
      }
      client.write(chunk);
    });
    // The unit of work under way: in a transaction or not, and its fault, due after `countdown`
    // more messages.
    let inTransaction = false;
    let pending: { fault: DatabaseFault; countdown: number } | undefined;
    // Client messages go on in order: a stalled one holds back the ones behind it.
    let queue = Promise.resolve();
    client.on('data', (chunk: Buffer) => {
      queue = queue.then(async () => {
        if (client.destroyed || upstream.destroyed) return;
        const text = chunk.toString('latin1');
        const ends = END.test(text);
        if (!inTransaction) {
          counts.units += 1;
          inTransaction = BEGIN.test(text) && !ends;
          const fault = pickFault();
          // An answer lost is the COMMIT's (countdown past any transaction's end).
          const at = fault === 'answer-lost' ? Number.MAX_SAFE_INTEGER : options.random() * 10;
          pending = fault && { fault, countdown: inTransaction ? Math.floor(at) : 0 };
        } else if (ends) {
          inTransaction = false;
        }
        let fault: DatabaseFault | undefined;
        if (pending && (pending.countdown === 0 || !inTransaction)) {
          fault = pending.fault;
          pending = undefined;
          counts[fault] += 1;
        } else if (pending) {
          pending.countdown -= 1;
        }
        if (fault === 'reset') {
          cut();
          return;
        }
        if (fault === 'stall') {
          await new Promise((r) =>
            setTimeout(r, stall.min + options.random() * (stall.max - stall.min)),
          );
          if (client.destroyed || upstream.destroyed) return;
        }
        if (fault === 'answer-lost') {
          answerLost = true;
          if (/\bcommit\b/i.test(text)) counts.commitAnswersLost += 1;
        }
        upstream.write(chunk);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as net.AddressInfo).port;
  return proxy;
}
