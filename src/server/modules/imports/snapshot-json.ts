import type { SourceShift, SourceSnapshot } from './source-snapshot';

/**
 * A snapshot as an import keeps it (issue 34): JSON with its instants as ISO text, read back
 * with them as dates again. Only what the snapshot interface names is kept.
 */

/** snapshotToJson writes a snapshot as JSON text. */
export function snapshotToJson(snapshot: SourceSnapshot): string {
  return JSON.stringify(snapshot);
}

type Stored<T> = T extends Date
  ? string
  : T extends (infer U)[]
    ? Stored<U>[]
    : T extends object
      ? { [K in keyof T]: Stored<T[K]> }
      : T;

const shift = (s: Stored<SourceShift>): SourceShift => ({
  start: new Date(s.start),
  end: new Date(s.end),
  personSourceId: s.personSourceId,
});

/** snapshotFromJson reads back what snapshotToJson wrote. */
export function snapshotFromJson(text: string): SourceSnapshot {
  const s = JSON.parse(text) as Stored<SourceSnapshot>;
  return {
    ...s,
    window: { from: new Date(s.window.from), to: new Date(s.window.to) },
    schedules: s.schedules.map((schedule) => ({
      ...schedule,
      layers: schedule.layers
        ? schedule.layers.map((l) => ({ ...l, startsAt: new Date(l.startsAt) }))
        : null,
      overrides: schedule.overrides.map(shift),
      rendered: schedule.rendered.map(shift),
    })),
  };
}
