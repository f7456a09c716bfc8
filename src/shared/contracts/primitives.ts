import { z } from 'zod';

/**
 * The two building blocks every contract takes its free text and its row ids from (decision 166):
 * `text` refuses what PostgreSQL cannot store or what no person types (NUL and the other control
 * characters, broken Unicode), and `id` / `idText` keep a number inside the column it is compared
 * with, so bad input is a 400 with a message and never a database error.
 */

/** The largest PostgreSQL integer (int4): serial ids and integer columns. */
export const INT4_MAX = 2_147_483_647;
/** The largest bigserial id Baton reads (Drizzle's 'number' mode: a safe JavaScript integer). */
export const INT8_ID_MAX = Number.MAX_SAFE_INTEGER;

// C0 controls (NUL included), DEL and C1 controls; multi-line text keeps tab, LF and CR.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL_SINGLE_LINE = /[\u0000-\u001F\u007F-\u009F]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// A lone UTF-16 surrogate has no UTF-8 form: drivers would store U+FFFD in its place.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface TextOptions {
  /** how the field is named in messages: 'Notes', 'Rotation name', 'search' */
  label: string;
  /** line breaks and tabs allowed (notes, descriptions, messages); default false */
  multiline?: boolean;
  /** trim white space at both ends before the checks; default false */
  trim?: boolean;
  /** the message when the value is missing */
  error?: string;
  /** the message when the value is there but not a string; default zod's ("expected string") */
  typeError?: string;
}

/** hasControlCharacter tells whether text holds a control character its kind of field refuses. */
export function hasControlCharacter(value: string, multiline = false): boolean {
  return (multiline ? CONTROL_MULTILINE : CONTROL_SINGLE_LINE).test(value);
}

/**
 * text returns the string schema of a free-text field: it refuses NUL and every other control
 * character (tab, line feed and carriage return are allowed when `multiline`) and text that is
 * not well-formed Unicode. Chain `.min()`, `.max()` and the rest after it.
 */
export function text({ label, multiline = false, trim = false, error, typeError }: TextOptions) {
  const base = z.string({
    error: (issue) => (issue.input === undefined ? error : typeError),
  });
  return (trim ? base.trim() : base)
    .refine(
      (s) => !hasControlCharacter(s, multiline),
      multiline
        ? `${label} must not contain control characters (line breaks and tabs are fine)`
        : `${label} must not contain control characters such as tabs or line breaks`,
    )
    .refine((s) => !LONE_SURROGATE.test(s), `${label} must be valid Unicode text`);
}

export interface IdOptions {
  /** how the field is named in messages: 'userId', 'before' */
  label?: string;
  /** the column's type: 'int4' (serial, the default) or 'int8' (bigserial) */
  column?: 'int4' | 'int8';
  /** the message when the value is missing or of the wrong type */
  error?: string;
}

function idBounds({ label = 'id', column = 'int4' }: IdOptions) {
  const max = column === 'int4' ? INT4_MAX : INT8_ID_MAX;
  return { max, message: `${label} must be a whole number from 1 to ${max}` };
}

/** id returns the schema of a row id sent as a JSON number: a whole number inside its column. */
export function id(options: IdOptions = {}) {
  const { max, message } = idBounds(options);
  return z
    .number({ error: options.error ?? message })
    .int(message)
    .min(1, message)
    .max(max, message);
}

/**
 * idText returns the schema of a row id written as decimal digits (a path parameter, a query
 * string value), read into the same bounded number as `id`.
 */
export function idText(options: IdOptions = {}) {
  const { message } = idBounds(options);
  return z
    .string({ error: options.error ?? message })
    .regex(/^\d{1,16}$/, message)
    .transform(Number)
    .pipe(id(options));
}

// Four-digit years: PostgreSQL's timestamps end in 4713 BC and 294276 AD, JavaScript's do not.
const EARLIEST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

export interface InstantOptions {
  /** how the field is named in messages: 'Start time', 'from' */
  label: string;
  /** the message for anything but a date and time in the years 1 to 9999 */
  message: string;
}

/**
 * instant returns the schema of a date and time sent as text (ISO 8601, or what Date.parse
 * reads): it refuses control characters like `text`, and dates outside the years 1 to 9999.
 */
export function instant({ label, message }: InstantOptions) {
  return text({ label, error: message, typeError: message })
    .max(100, message)
    .refine((s) => {
      const at = Date.parse(s);
      return at >= EARLIEST_INSTANT && at <= LATEST_INSTANT;
    }, message);
}

/** MessageSchema is a confirmation an action answers with: `{ message: 'Logged out' }`. */
export const MessageSchema = z.object({ message: z.string() });
export type Message = z.infer<typeof MessageSchema>;
