import {
  CADENCE_EVERY_MAX,
  type CreateRotationInput,
  CreateRotationInputSchema,
  LayerInputSchema,
  OnDutyWindowSchema,
  type RotationLayer,
  type UpdateRotationInput,
} from '@shared/contracts/rotations';
import { type Cadence, describePattern, type NamedLayerPattern } from '@shared/domain/layers';
import { z } from 'zod';
import { fromLocalInput, toLocalInput } from '@/lib/format-time';

/*
 * The rotation form's layers (issue 32, decision 248): what the form holds for each layer, the
 * request's `layers` made of it, the pattern in words while it is typed, and where the server's
 * refusals show. The form checks with the shared contract (CreateRotationInputSchema and its
 * LayerInputSchema) after turning its values into the request, so there is one set of rules.
 */

/** How the rotation's shifts are given: the specification's one cadence, or layers. */
export const SHIFT_PATTERNS = ['cadence', 'layers'] as const;
export type ShiftPatternChoice = (typeof SHIFT_PATTERNS)[number];

/** An on-duty window as the form holds it: days 0 (Sunday) … 6, local HH:MM times. */
export interface WindowFormValues {
  days: number[];
  start: string;
  end: string;
}

/** A layer as the form holds it: the start is a datetime-local value in the rotation's zone. */
export interface LayerFormValues {
  name: string;
  memberIds: number[];
  cadence: Cadence;
  /** N; NaN while the box is empty (the contract's message shows) */
  cadenceEvery: number;
  handoffTime: string;
  handoffWeekday: number;
  activeWindows: WindowFormValues[];
  /** 'YYYY-MM-DDTHH:MM' in the rotation's zone, '' for none */
  startsAt: string;
  /** the start as read (ISO), sent as it was while the field still shows it */
  readStartsAt?: string;
}

/** The rotation form: the specification's fields, the shift pattern chosen, and the layers. */
export type RotationFormValues = Omit<CreateRotationInput, 'layers'> & {
  pattern: ShiftPatternChoice;
  layers: LayerFormValues[];
};

/** The days of the week by their number in the contract: 0 is Sunday. */
export const WEEKDAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/** The units a shift length is counted in, as the form names them. */
export const CADENCE_UNITS: Record<Cadence, string> = {
  hourly: 'hours',
  daily: 'days',
  weekly: 'weeks',
};
export { CADENCE_EVERY_MAX };

/** A new window: weekdays 09:00–17:00. */
export const newWindow = (): WindowFormValues => ({
  days: [1, 2, 3, 4, 5],
  start: '09:00',
  end: '17:00',
});

/**
 * newLayer is the layer the form adds: named by its place, no members yet, with the shift of the
 * layer before it (or the rotation's cadence and handoff), always on duty, starting now.
 */
export function newLayer(
  place: number,
  like: Pick<LayerFormValues, 'cadence' | 'cadenceEvery' | 'handoffTime' | 'handoffWeekday'>,
): LayerFormValues {
  return {
    name: `Layer ${place}`,
    memberIds: [],
    cadence: like.cadence,
    cadenceEvery: like.cadenceEvery,
    handoffTime: like.handoffTime,
    handoffWeekday: like.handoffWeekday,
    activeWindows: [],
    startsAt: '',
  };
}

/** moved is the list with the item at `from` moved to `to` (both within the list). */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/** layerFormValuesOf is a layer as a rotation read answers it, as the form holds it. */
export function layerFormValuesOf(layer: RotationLayer, timeZone: string): LayerFormValues {
  const start = new Date(layer.startsAt);
  const valid = !Number.isNaN(start.getTime());
  return {
    name: layer.name,
    memberIds: [...layer.memberIds],
    cadence: layer.cadence,
    cadenceEvery: layer.cadenceEvery,
    handoffTime: layer.handoffTime,
    handoffWeekday: layer.handoffWeekday,
    activeWindows: layer.activeWindows.map((w) => ({ ...w, days: [...w.days] })),
    startsAt: valid ? toLocalInput(start, timeZone) : '',
    ...(valid ? { readStartsAt: layer.startsAt } : {}),
  };
}

/**
 * startOf is a layer's start as the request gives it: none for an empty field; the start as read
 * while the field still shows it (to the second it was); otherwise the instant the field names in
 * the rotation's zone, or the text itself so the contract refuses it in its own words.
 */
function startOf(layer: LayerFormValues, timeZone: string): string | undefined {
  const shown = layer.startsAt.trim();
  if (shown === '') return undefined;
  if (layer.readStartsAt && toLocalInput(new Date(layer.readStartsAt), timeZone) === shown) {
    return layer.readStartsAt;
  }
  return fromLocalInput(shown, timeZone)?.toISOString() ?? shown;
}

/** layerInputOf is one layer of the request: the form's fields, windows' days in week order. */
export function layerInputOf(layer: LayerFormValues, timeZone: string) {
  const startsAt = startOf(layer, timeZone);
  return {
    name: layer.name,
    memberIds: layer.memberIds,
    cadence: layer.cadence,
    cadenceEvery: layer.cadenceEvery,
    handoffTime: layer.handoffTime,
    handoffWeekday: layer.handoffWeekday,
    activeWindows: layer.activeWindows.map((w) => ({
      days: [...w.days].sort((a, b) => a - b),
      start: w.start,
      end: w.end,
    })),
    ...(startsAt === undefined ? {} : { startsAt }),
  };
}

/**
 * rotationRequestOf is the body the form sends: with layers chosen (a fixed rotation only), the
 * layers instead of the cadence and handoff fields; otherwise the specification's fields alone.
 */
export function rotationRequestOf(values: RotationFormValues): CreateRotationInput {
  const {
    pattern,
    layers,
    cadence,
    handoffTime,
    handoffWeekday,
    memberIds,
    firstOnCallId,
    ...rest
  } = values;
  if (pattern === 'layers' && values.type !== 'scheduled') {
    const zone = values.timeZone ?? 'UTC';
    return { ...rest, layers: layers.map((l) => layerInputOf(l, zone)) };
  }
  // Members made with the rotation (decision 255): the first on call only for a fixed rotation,
  // and only one of them (a member taken out again leaves the first of the rest).
  const members = memberIds ?? [];
  const first =
    values.type === 'fixed' && firstOnCallId !== undefined && members.includes(firstOnCallId)
      ? { firstOnCallId }
      : {};
  return {
    ...rest,
    cadence,
    handoffTime,
    handoffWeekday,
    ...(members.length > 0 ? { memberIds: members, ...first } : {}),
  };
}

/**
 * RotationFormSchema checks the form with the API's own CreateRotationInputSchema: the form's
 * values become the request first, so a refusal's path (`layers.0.activeWindows.0.end`) is the
 * form field it belongs to. Its output is the request.
 */
export const RotationFormSchema = z
  .custom<RotationFormValues>()
  .transform(rotationRequestOf)
  .pipe(CreateRotationInputSchema);
export type RotationFormOutput = z.output<typeof RotationFormSchema>;

/**
 * updateRequestOf is the edit form's PATCH body: a layered rotation's layers without the cadence
 * and handoff fields (the server refuses those beside layers it keeps); a simple rotation's
 * cadence and handoff; a layered rotation given the specification's cadence again also sends
 * `layers: null` and is marked `unlayers` (to be confirmed). The type only for those who may
 * change it; a layered rotation made scheduled keeps its layers untouched.
 */
export function updateRequestOf(
  request: RotationFormOutput,
  { layered, canChangeType }: { layered: boolean; canChangeType: boolean },
): { input: UpdateRotationInput; unlayers: boolean } {
  const { type, cadence, handoffTime, handoffWeekday, layers, memberIds, firstOnCallId, ...rest } =
    request;
  const input: UpdateRotationInput = { ...rest, ...(canChangeType ? { type } : {}) };
  if (layers) return { input: { ...input, layers }, unlayers: false };
  if (layered && type === 'scheduled') return { input, unlayers: false };
  const shift = { cadence, handoffTime, handoffWeekday };
  if (layered) return { input: { ...input, ...shift, layers: null }, unlayers: true };
  return { input: { ...input, ...shift }, unlayers: false };
}

/**
 * previewPattern is the layers in words (describePattern) while they are typed: each layer whose
 * shift and windows the contract accepts (members do not change the words); null when none is.
 * `incomplete` says some were left out.
 */
export function previewPattern(
  layers: readonly LayerFormValues[],
): { words: string; incomplete: boolean } | null {
  const { handoffTime, cadenceEvery } = LayerInputSchema.shape;
  const shown: NamedLayerPattern[] = [];
  for (const layer of layers) {
    const windows = layer.activeWindows.map((w) => OnDutyWindowSchema.safeParse(w));
    const n = cadenceEvery.safeParse(layer.cadenceEvery);
    const ok =
      layer.name.trim() !== '' &&
      handoffTime.safeParse(layer.handoffTime).success &&
      n.success &&
      n.data <= CADENCE_EVERY_MAX[layer.cadence] &&
      windows.every((w) => w.success);
    if (!ok) continue;
    shown.push({
      name: layer.name.trim(),
      cadence: layer.cadence,
      cadenceEvery: layer.cadenceEvery,
      handoffTime: layer.handoffTime,
      handoffWeekday: layer.handoffWeekday,
      activeWindows: windows.flatMap((w) => (w.success ? [w.data] : [])),
    });
  }
  if (shown.length === 0) return null;
  return { words: describePattern(shown), incomplete: shown.length < layers.length };
}

const LAYER_FIELDS = new Set([
  'name',
  'memberIds',
  'cadence',
  'cadenceEvery',
  'handoffTime',
  'handoffWeekday',
  'startsAt',
  'activeWindows',
]);
const WINDOW_FIELDS = new Set(['days', 'start', 'end']);
const ROTATION_FIELDS = new Set([
  'name',
  'description',
  'type',
  'cadence',
  'timeZone',
  'handoffTime',
  'handoffWeekday',
  'layers',
  'memberIds',
  'firstOnCallId',
]);

/**
 * formFieldOf is the form field a refusal's field key (`layers.0.memberIds.2`,
 * `layers.1.activeWindows.0.start`) shows beside: an element's refusal shows beside its list;
 * null for a key the form has no field for.
 */
export function formFieldOf(key: string): string | null {
  const parts = key.split('.');
  if (!ROTATION_FIELDS.has(parts[0])) return null;
  if (parts[0] === 'memberIds') return 'memberIds';
  if (parts[0] !== 'layers' || parts.length === 1) return parts.length === 1 ? parts[0] : null;
  const [, layer, field, window, windowField] = parts;
  if (!/^\d+$/.test(layer)) return 'layers';
  if (field === undefined || !LAYER_FIELDS.has(field)) return `layers.${layer}.name`;
  if (field !== 'activeWindows' || window === undefined) return `layers.${layer}.${field}`;
  if (!/^\d+$/.test(window) || windowField === undefined || !WINDOW_FIELDS.has(windowField)) {
    return `layers.${layer}.activeWindows`;
  }
  return `layers.${layer}.activeWindows.${window}.${windowField}`;
}
