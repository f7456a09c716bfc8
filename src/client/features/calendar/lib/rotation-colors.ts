/**
 * One colour per rotation, in the order the calendar lists them. Whole class names (Tailwind
 * finds them here); each reads in light and dark mode.
 */
const ROTATION_COLORS = [
  { swatch: 'bg-sky-500', chip: 'border-l-sky-500 bg-sky-500/10' },
  { swatch: 'bg-amber-500', chip: 'border-l-amber-500 bg-amber-500/10' },
  { swatch: 'bg-emerald-500', chip: 'border-l-emerald-500 bg-emerald-500/10' },
  { swatch: 'bg-rose-500', chip: 'border-l-rose-500 bg-rose-500/10' },
  { swatch: 'bg-violet-500', chip: 'border-l-violet-500 bg-violet-500/10' },
  { swatch: 'bg-teal-500', chip: 'border-l-teal-500 bg-teal-500/10' },
  { swatch: 'bg-orange-500', chip: 'border-l-orange-500 bg-orange-500/10' },
  { swatch: 'bg-fuchsia-500', chip: 'border-l-fuchsia-500 bg-fuchsia-500/10' },
  { swatch: 'bg-lime-500', chip: 'border-l-lime-500 bg-lime-500/10' },
  { swatch: 'bg-indigo-500', chip: 'border-l-indigo-500 bg-indigo-500/10' },
] as const;

export type RotationColor = (typeof ROTATION_COLORS)[number];

/** rotationColor returns the colour of the rotation at `index` in the calendar's list. */
export function rotationColor(index: number): RotationColor {
  return ROTATION_COLORS[index % ROTATION_COLORS.length];
}
