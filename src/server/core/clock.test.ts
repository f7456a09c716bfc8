import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { FileClock } from './clock';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'baton-clock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a file clock reads the time from its file on every call and keeps the last good one', async () => {
  const file = path.join(dir, 'now');
  const clock = new FileClock(file);
  expect(() => clock.now()).toThrow(/does not hold an ISO time/);
  await writeFile(file, '2026-10-04T02:30:00Z\n');
  expect(clock.now().toISOString()).toBe('2026-10-04T02:30:00.000Z');
  await writeFile(`${file}.next`, '2026-10-05T09:00:00.000Z');
  await rename(`${file}.next`, file);
  expect(clock.now().toISOString()).toBe('2026-10-05T09:00:00.000Z');
  await writeFile(file, 'not a time');
  expect(clock.now().toISOString()).toBe('2026-10-05T09:00:00.000Z');
  await rm(file);
  expect(clock.now().toISOString()).toBe('2026-10-05T09:00:00.000Z');
});
