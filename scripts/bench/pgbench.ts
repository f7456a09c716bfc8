import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { percentile } from './stats';

/**
 * pgbench's TPC-B ceiling (issue 36): what the PostgreSQL server under the bench commits with its
 * own C client and the standard TPC-B-like script (three updates, a select and an insert in one
 * transaction), at the same number of clients as the pass-baton load, in the same run. The
 * pass-baton figure on PostgreSQL is judged against it as well as against its absolute target,
 * since both the server and PostgreSQL share the machine's cores.
 *
 * The scale factor is the number of clients, as pgbench's documentation asks ("at least as large
 * as the largest number of clients you intend to test"): fewer branch rows than clients would
 * measure their lock queue, a lower ceiling than the server's.
 */

export interface TpcbFigures {
  scale: number;
  clients: number;
  seconds: number;
  transactions: number;
  tps: number;
  p50: number;
  p99: number;
}

/** pgbenchBinary: pgbench on the PATH or beside PostgreSQL's server binaries, else null */
export function pgbenchBinary(): string | null {
  const candidates = ['pgbench'];
  try {
    const versions = readdirSync('/usr/lib/postgresql').sort().reverse();
    for (const v of versions) candidates.push(`/usr/lib/postgresql/${v}/bin/pgbench`);
  } catch {
    // no Debian layout: the PATH only
  }
  for (const binary of candidates) {
    const probe = spawnSync(binary, ['--version'], { encoding: 'utf8' });
    if (probe.status === 0) return binary;
  }
  return null;
}

function run(binary: string, args: string[]) {
  const result = spawnSync(binary, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(`pgbench ${args.join(' ')} failed: ${result.stderr || result.error}`);
  }
  return result.stdout;
}

/**
 * tpcbCeiling initialises pgbench's tables at `clients` scale in database `url` (made for it and
 * dropped by the caller), then runs TPC-B for `seconds` with `clients` clients on 2 threads, every
 * transaction logged: its rate and its latency percentiles from that log.
 */
export function tpcbCeiling(
  binary: string,
  url: string,
  clients: number,
  seconds: number,
): TpcbFigures {
  const scale = clients;
  // Server-side data generation (G) is the fastest; no vacuum of freshly made tables is needed
  // beyond the one pgbench runs (v).
  run(binary, ['-i', '-q', '-I', 'dtGvp', '-s', String(scale), url]);
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'baton-bench-pgbench-'));
  try {
    const prefix = path.join(logDir, 'tx');
    run(binary, [
      '-n',
      '-c',
      String(clients),
      '-j',
      String(Math.min(2, os.cpus().length)),
      '-T',
      String(seconds),
      '-l',
      `--log-prefix=${prefix}`,
      url,
    ]);
    // One log per thread; each line: client, transaction, latency in µs, script, epoch s, µs.
    const latencies: number[] = [];
    for (const file of readdirSync(logDir)) {
      for (const line of readFileSync(path.join(logDir, file), 'utf8').split('\n')) {
        const fields = line.split(' ');
        if (fields.length >= 3) latencies.push(Number(fields[2]) / 1000);
      }
    }
    latencies.sort((a, b) => a - b);
    return {
      scale,
      clients,
      seconds,
      transactions: latencies.length,
      tps: latencies.length / seconds,
      p50: Math.round(percentile(latencies, 50) * 10) / 10,
      p99: Math.round(percentile(latencies, 99) * 10) / 10,
    };
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
}
