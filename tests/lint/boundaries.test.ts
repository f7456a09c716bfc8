import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { sourceFiles } from '../setup/import-graph';
import { isLintProbe, LINT_PROBE_PREFIX } from '../setup/lint-probes';

/*
 * The import boundaries and the date-formatting rule live in biome.json (decision 193), so
 * `npm run lint` fails on a breach. Each case writes one deliberate breach into a temporary file
 * inside the folder the rule guards, lints that file with the project's Biome configuration, and
 * expects the rule's own message: remove the rule (or widen its folder) and the case fails. A
 * clean file in the same folders shows the failures come from the breach, not the folder.
 */

const root = path.resolve(import.meta.dirname, '../..');
const biome = path.join(root, 'node_modules/.bin/biome');
const written: string[] = [];

afterEach(() => {
  for (const file of written.splice(0)) rmSync(file, { force: true });
});

/** lint writes `source` to a new file in `folder` (relative to the root) and lints it. */
function lint(folder: string, source: string, extension = 'ts') {
  const file = path.join(
    root,
    folder,
    `${LINT_PROBE_PREFIX}${process.pid}-${written.length}-${Date.now()}.${extension}`,
  );
  written.push(file);
  writeFileSync(file, source);
  const run = spawnSync(biome, ['lint', '--colors=off', '--max-diagnostics=50', file], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

const SHARED = 'src/shared imports nothing from';
const CLIENT_SERVER = 'The client never imports the server';
const FEATURE = 'A client feature imports only its own files';
const DATES = 'Format dates only through src/client/lib/format-time.ts';

describe('a breach fails the lint', () => {
  test.each([
    ['src/shared/domain', "import { buildApp } from '../../server/app';", 'the server', SHARED],
    ['src/shared/contracts', "import { cn } from '@/lib/utils';", 'the client (alias)', SHARED],
    [
      'src/shared/domain',
      "import { cn } from '../../client/lib/utils';",
      'the client (path)',
      SHARED,
    ],
    [
      'src/shared/domain',
      "import { useState } from 'react';",
      'React',
      'src/shared imports nothing from React',
    ],
    [
      'src/shared/domain',
      "import { eq } from 'drizzle-orm';",
      'Drizzle',
      'src/shared imports nothing from Drizzle',
    ],
    [
      'src/shared/contracts',
      "import { randomUUID } from 'node:crypto';",
      'node:*',
      'src/shared imports no node:* module',
    ],
  ])('src/shared importing %s (%s)', (folder, line, _what, message) => {
    const result = lint(folder, `${line}\nexport const probe = 1;\n`);
    expect(result.output).toContain(message);
    expect(result.status).not.toBe(0);
  });

  test.each([
    ['src/client/lib', "import { buildApp } from '../../server/app';"],
    ['src/client/app/routes', "import { AppError } from '../../../server/http/errors';"],
    ['src/client/features/rotations/api', "import { buildApp } from '../../../../server/app';"],
  ])('the client (%s) importing the server', (folder, line) => {
    const result = lint(folder, `${line}\nexport const probe = 1;\n`);
    expect(result.output).toContain(CLIENT_SERVER);
    expect(result.status).not.toBe(0);
  });

  test.each([
    [
      'src/client/features/rotations/components',
      "import { useLogin } from '@/features/auth/api/login';",
    ],
    [
      'src/client/features/paging/api',
      "import { useRotation } from '../../rotations/api/get-rotation';",
    ],
  ])('a feature (%s) importing another feature', (folder, line) => {
    const result = lint(folder, `${line}\nexport const probe = 1;\n`);
    expect(result.output).toContain(FEATURE);
    expect(result.status).not.toBe(0);
  });

  test.each([
    [
      'src/client/features/calendar/components',
      "import { format } from 'date-fns';\nexport const probe = format(new Date(), 'PP');",
    ],
    [
      'src/client/components',
      "import { formatRelative } from 'date-fns';\nexport const probe = formatRelative(new Date(), new Date());",
    ],
    ['src/client/app/routes', 'export const probe = new Date().toLocaleString();'],
    [
      'src/client/features/audit-log/components',
      "export const probe = new Date().toLocaleDateString('en-US');",
    ],
    ['src/client/lib', 'export const probe = (at: Date) => at.toLocaleTimeString();'],
    [
      'src/client/features/paging/lib',
      "export const probe = new Intl.DateTimeFormat('en-US').format(new Date());",
    ],
  ])('formatting a date by hand in %s', (folder, source) => {
    const result = lint(folder, `${source}\n`);
    expect(result.output).toContain(DATES);
    expect(result.status).not.toBe(0);
  });
});

test.each(['src/client/features/rotations/components', 'src/client/app/routes'])(
  'showing a toast in %s other than through lib/notify.ts fails the lint',
  (folder) => {
    const result = lint(
      folder,
      "import { toast } from '@/components/ui/use-toast';\nexport const probe = () => toast({ title: 'x' });\n",
    );
    expect(result.output).toContain('Show toasts through src/client/lib/notify.ts');
    expect(result.status).not.toBe(0);
  },
);

test('the same folders lint clean without a breach', () => {
  const clean = [
    [
      'src/shared/domain',
      "import { z } from 'zod';\nimport { isTimeZone } from './time-zones';\nexport const probe = [z, isTimeZone];\n",
    ],
    [
      'src/client/features/rotations/components',
      "import { useAuth } from '@/lib/use-auth';\nimport { useRotation } from '../api/get-rotation';\nimport { formatDate } from '@/lib/format-time';\nimport { addDays } from 'date-fns';\nexport const probe = [useAuth, useRotation, formatDate, addDays];\n",
    ],
    [
      'src/client/lib',
      "import { renderToString } from 'react-dom/server';\nexport const probe = [renderToString, 'x'.toLocaleLowerCase()];\n",
    ],
  ];
  for (const [folder, source] of clean) {
    const result = lint(folder, source);
    expect(result.output).not.toContain('noRestrictedImports');
    expect(result.output).not.toContain(DATES);
    expect(result.status, result.output).toBe(0);
  }
});

test('the tests that read the source tree pass over the probes (they run beside these)', () => {
  lint('src/shared/domain', "import { buildApp } from '../../server/app';\n");
  const [probe] = written;
  expect(isLintProbe(probe)).toBe(true);
  expect(isLintProbe(path.join(root, 'src/shared/domain/rotation.ts'))).toBe(false);
  const listed = sourceFiles(path.join(root, 'src/shared/domain'));
  expect(listed).toContain(path.join(root, 'src/shared/domain/rotation.ts'));
  expect(listed).not.toContain(probe);
});
