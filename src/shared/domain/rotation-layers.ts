import type { LayerInputSchema, RotationLayer } from '../contracts/rotations';
import { describePattern, type Layer, layeredSegments, onCallAt } from './layers';
import type { TimeWindow } from './shifts';

/**
 * A rotation's layers (issue 32, decisions 246 and 247): what is stored, what every read answers,
 * and the windows the clock-driven engine and the calendar read from them. Pure.
 *
 * A rotation given layers (`layered`) is a fixed rotation whose turns follow the clock from each
 * layer's start: who is on call at any instant is the projection of its layers (layers.ts), and
 * the engine moves the baton at each change of that projection as it does at a scheduled
 * rotation's entries. A rotation of the specification's fields alone reads as one layer of them,
 * its members in order and always on duty, and keeps the specification's behaviour: its baton
 * passes from the holder to the next member.
 */

type LayerInput = ReturnType<typeof LayerInputSchema.parse>;

/** A rotation as its layers are read from it: the stored row's fields, or a read's. */
export interface LayeredRotationFields {
  type: string;
  /** its stored layers; null: the specification's fields alone */
  layers: readonly RotationLayer[] | null;
  cadence: string;
  cadenceEvery: number;
  handoffTime: string;
  handoffWeekday: number;
  createdAt: Date;
}
type LayerRow = LayeredRotationFields;

/** The name of the one layer a rotation of the specification's fields reads as. */
export const SPECIFICATION_LAYER_NAME = 'Layer 1';

/** isLayered tells whether a rotation follows its stored layers (a fixed rotation given layers). */
export function isLayered(row: Pick<LayeredRotationFields, 'type' | 'layers'>): boolean {
  return row.type === 'fixed' && Array.isArray(row.layers) && row.layers.length > 0;
}

/** followsWindows tells whether the engine moves the baton at windows: scheduled or layered. */
export function followsWindows(row: Pick<LayeredRotationFields, 'type' | 'layers'>): boolean {
  return row.type === 'scheduled' || isLayered(row);
}

/**
 * layerReadsOf returns a rotation's layers as reads answer them: its stored layers, or one layer
 * of its specification fields with `memberIds` (its members in order) as the turn order.
 */
export function layerReadsOf(row: LayerRow, memberIds: readonly number[]): RotationLayer[] {
  if (Array.isArray(row.layers) && row.layers.length > 0) return [...row.layers];
  return [
    {
      name: SPECIFICATION_LAYER_NAME,
      memberIds: [...memberIds],
      cadence: row.cadence as RotationLayer['cadence'],
      cadenceEvery: row.cadenceEvery,
      handoffTime: row.handoffTime,
      handoffWeekday: row.handoffWeekday,
      activeWindows: [],
      startsAt: row.createdAt.toISOString(),
    },
  ];
}

/**
 * projectionLayersOf returns a layered rotation's layers as the projection reads them: each
 * layer's turn order keeps only `eligible` people (members who may hold the baton), so someone
 * who left the rotation or lost the role is passed over rather than leaving an empty turn.
 */
export function projectionLayersOf(
  row: Pick<LayeredRotationFields, 'layers'>,
  eligible: ReadonlySet<number>,
): Layer[] {
  return (row.layers ?? []).map((l) => ({
    ...l,
    memberIds: l.memberIds.filter((id) => eligible.has(id)),
    startsAt: new Date(l.startsAt),
  }));
}

/**
 * layeredHolderAt returns whom a layered rotation's layers name at `at`, their turn orders kept
 * to `eligible` (projectionLayersOf), or null when no layer has anyone on duty.
 */
export function layeredHolderAt(
  row: Pick<LayeredRotationFields, 'layers'> & { timeZone: string },
  eligible: ReadonlySet<number>,
  at: Date,
): number | null {
  return onCallAt(projectionLayersOf(row, eligible), row.timeZone, at)?.memberId ?? null;
}

/**
 * layerWindowsOf returns who the layers name over [from, to) as windows (a scheduled rotation's
 * entries have the same shape): the stretches with somebody on call, nobody's left out.
 */
export function layerWindowsOf(
  layers: readonly Layer[],
  timeZone: string,
  from: Date,
  to: Date,
): TimeWindow[] {
  return layeredSegments(layers, timeZone, from, to).flatMap((s) =>
    s.memberId === null ? [] : [{ userId: s.memberId, start: s.start, end: s.end }],
  );
}

/**
 * withoutMember returns layers with a person taken out of every turn order (they left the
 * rotation); a layer left with nobody names nobody until it is given members again.
 */
export function withoutMember(layers: readonly RotationLayer[], userId: number): RotationLayer[] {
  return layers.map((l) => ({ ...l, memberIds: l.memberIds.filter((id) => id !== userId) }));
}

const sameShift = (a: RotationLayer, b: LayerInput) =>
  a.cadence === b.cadence &&
  a.cadenceEvery === b.cadenceEvery &&
  a.handoffTime === b.handoffTime &&
  (a.cadence !== 'weekly' || a.handoffWeekday === b.handoffWeekday);

/**
 * storedLayersOf returns the layers to store from a request's: each keeps the start it was given;
 * otherwise the start of the layer at the same place before, when its shift is the same (its
 * turns go on as they were); otherwise `now` (its first member's turn begins).
 */
export function storedLayersOf(
  input: readonly LayerInput[],
  before: readonly RotationLayer[] | null,
  now: Date,
): RotationLayer[] {
  return input.map((layer, i) => {
    const previous = before?.[i];
    const startsAt = layer.startsAt
      ? new Date(layer.startsAt).toISOString()
      : previous && sameShift(previous, layer)
        ? previous.startsAt
        : now.toISOString();
    return {
      name: layer.name,
      memberIds: [...layer.memberIds],
      cadence: layer.cadence,
      cadenceEvery: layer.cadenceEvery,
      handoffTime: layer.handoffTime,
      handoffWeekday: layer.handoffWeekday,
      activeWindows: layer.activeWindows.map((w) => ({ ...w, days: [...w.days] })),
      startsAt,
    };
  });
}

/** rowFieldsOfLayers returns the rotation fields that repeat the first layer's (decision 247). */
export function rowFieldsOfLayers(
  layers: readonly RotationLayer[],
): Pick<RotationLayer, 'cadence' | 'cadenceEvery' | 'handoffTime' | 'handoffWeekday'> {
  const [first] = layers;
  return {
    cadence: first.cadence,
    cadenceEvery: first.cadenceEvery,
    handoffTime: first.handoffTime,
    handoffWeekday: first.handoffWeekday,
  };
}

/** The words of a scheduled rotation's pattern: its entries name who is on call. */
export const SCHEDULED_PATTERN = 'Scheduled entries';

/** patternInWords returns a rotation's pattern in words for screens. */
export function patternInWords(row: LayerRow, memberIds: readonly number[]): string {
  if (row.type === 'scheduled') return SCHEDULED_PATTERN;
  return describePattern(
    layerReadsOf(row, memberIds).map((l) => ({ ...l, startsAt: new Date(l.startsAt) })),
  );
}
