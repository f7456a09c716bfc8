import { z } from 'zod';

/**
 * chosenPerson reads a person select's value (the id as text, '' for none) with the shared
 * contract's id schema, so the form shows the contract's own message when nobody is chosen.
 */
export function chosenPerson(idSchema: z.ZodType<number, number>) {
  return z
    .string()
    .transform((value) => (value === '' ? undefined : Number(value)))
    .pipe(idSchema);
}
