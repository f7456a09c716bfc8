// The live stream's figures of issue 19 (decision 220): 1,000 open `GET /api/events` streams on
// one instance, a change delivered to all of them (p99 ≤ 1 s from the request that made it), and
// the server's memory per open stream.

import { readFileSync } from 'node:fs';
import http from 'node:http';
import { STREAMS_PER_SESSION } from '../../src/server/modules/live/live-hub';
import { percentile } from './stats';

/** how many streams the figure holds open */
export const LIVE_STREAMS = 1_000;

export interface LiveFigures {
  streams: number;
  opened: number;
  rounds: number;
  /** milliseconds from sending the change to each stream's receipt of it */
  p50: number;
  p99: number;
  max: number;
  /** streams that missed a round */
  missed: number;
  /** resident memory the open streams added, per stream */
  kbPerStream: number;
}

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface BenchStream {
  /** time of the round this stream still waits for, or null */
  waitingSince: number | null;
  close(): void;
}

/** openStream opens one stream and resolves once its opening (`ready`) arrived. */
function openStream(
  base: string,
  cookie: string,
  onChange: (stream: BenchStream, at: number) => void,
): Promise<BenchStream> {
  return new Promise((resolve, reject) => {
    const stream: BenchStream = { waitingSince: null, close: () => req.destroy() };
    let opened = false;
    const req = http.get(
      `${base}/api/events`,
      { headers: { cookie, accept: 'text/event-stream' }, agent: false },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`GET /api/events: ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (!opened && chunk.includes('event: ready')) {
            opened = true;
            resolve(stream);
          }
          if (stream.waitingSince !== null && chunk.includes('event: change')) {
            onChange(stream, performance.now());
          }
        });
      },
    );
    req.on('error', (err) => (opened ? undefined : reject(err)));
  });
}

/**
 * liveStreamFigures opens `streams` streams on the server (round robin over the sessions), notes
 * the server's resident memory before and after, then makes `rounds` changes (a rotation's name,
 * through the API as an administrator) and times each stream's receipt of each.
 */
export async function liveStreamFigures(options: {
  base: string;
  serverPid: number;
  cookies: string[];
  adminCookie: string;
  rotationId: number;
  streams?: number;
  rounds?: number;
  log: (message: string) => void;
}): Promise<LiveFigures> {
  const { base, serverPid, cookies, adminCookie, rotationId, log } = options;
  const count = options.streams ?? LIVE_STREAMS;
  // Past STREAMS_PER_SESSION a session's oldest stream is closed (decision 236), and would count
  // as missing every change.
  if (cookies.length * STREAMS_PER_SESSION < count) {
    throw new Error(
      `${count} streams need ${Math.ceil(count / STREAMS_PER_SESSION)} sessions, not ${cookies.length}`,
    );
  }
  const rounds = options.rounds ?? 5;
  const latencies: number[] = [];
  const onChange = (stream: BenchStream, at: number) => {
    if (stream.waitingSince === null) return;
    latencies.push(at - stream.waitingSince);
    stream.waitingSince = null;
  };

  // One stream first, so the hub listens and the heap settles before the baseline.
  const first = await openStream(base, cookies[0], onChange);
  await sleep(500);
  const before = rssKb(serverPid);
  const open: BenchStream[] = [first];
  log(`live stream: opening ${count} streams`);
  for (let i = 1; i < count; i += 50) {
    const batch = Array.from({ length: Math.min(50, count - i) }, (_, j) =>
      openStream(base, cookies[(i + j) % cookies.length], onChange),
    );
    open.push(...(await Promise.all(batch)));
  }
  await sleep(1_000);
  const after = rssKb(serverPid);

  let missed = 0;
  for (let round = 0; round < rounds; round++) {
    const sent = performance.now();
    for (const stream of open) stream.waitingSince = sent;
    const res = await fetch(`${base}/api/rotations/${rotationId}`, {
      method: 'PATCH',
      headers: { cookie: adminCookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Live bench ${round} ${Date.now().toString(36)}` }),
    });
    if (res.status !== 200) throw new Error(`PATCH rotation: ${res.status} ${await res.text()}`);
    const deadline = performance.now() + 5_000;
    while (open.some((s) => s.waitingSince !== null) && performance.now() < deadline) {
      await sleep(10);
    }
    missed += open.filter((s) => s.waitingSince !== null).length;
    for (const stream of open) stream.waitingSince = null;
    await sleep(300);
  }
  for (const stream of open) stream.close();
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    streams: count,
    opened: open.length,
    rounds,
    p50: Math.round(percentile(sorted, 50)),
    p99: Math.round(percentile(sorted, 99)),
    max: Math.round(sorted.at(-1) ?? 0),
    missed,
    kbPerStream: (after - before) / (open.length - 1),
  };
}
