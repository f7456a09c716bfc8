/**
 * The spreadsheet an import reads (issue 34, decision 269): one CSV file, one row per person or
 * rotation, told apart by the `kind` column. A person row fills name, email and optionally phone,
 * role and time zone; a rotation row fills name, cadence, handoff day and time, time zone and its
 * members in turn order (emails or names of person rows, separated by semicolons). The template is
 * what the import screen offers to download.
 */

/** The columns, in the template's order. */
export const CSV_COLUMNS = [
  'kind',
  'name',
  'email',
  'phone',
  'role',
  'time_zone',
  'cadence',
  'handoff_day',
  'handoff_time',
  'members',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** The file name the template downloads as. */
export const CSV_TEMPLATE_FILE_NAME = 'baton-import.csv';

/** The template: the header and example rows (two people and the weekly rotation they share). */
export const CSV_TEMPLATE = [
  CSV_COLUMNS.join(','),
  'person,Ada Lovelace,ada@example.com,+442079460000,manager,Europe/London,,,,',
  'person,Grace Hopper,grace@example.com,,member,America/New_York,,,,',
  'rotation,Platform primary,,,,Europe/London,weekly,Monday,09:00,ada@example.com; Grace Hopper',
  '',
].join('\r\n');
