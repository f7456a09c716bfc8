import { readFileSync } from 'node:fs';

/** Clock is the only source of the current time in the server; tests inject a movable one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ManualClock is a clock tests set and advance by hand. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string = '2026-01-05T12:00:00Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(at: Date | string): void {
    this.current = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/**
 * FileClock reads the current time from a file holding an ISO time, on every call: fault and
 * multi-instance tests move the clock of real Baton processes by rewriting the file (written
 * atomically, by rename). Only NODE_ENV=test honours it (BATON_TEST_CLOCK_FILE, decision 090).
 * A read that finds no valid time keeps the last one read.
 */
export class FileClock implements Clock {
  private last: number | undefined;
  constructor(private readonly file: string) {}
  now(): Date {
    let text = '';
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      // keep the last time read
    }
    const at = Date.parse(text.trim());
    if (!Number.isNaN(at)) this.last = at;
    if (this.last === undefined) {
      throw new Error(`The test clock file ${this.file} does not hold an ISO time`);
    }
    return new Date(this.last);
  }
}
