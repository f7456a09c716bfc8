import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { INITIAL_JS_BUDGET_BYTES, initialJsGzip, kB, totalJsGzip } from '../../scripts/client-size';

/*
 * The first screen's budget (issue 31, decision 237): the client is built as `npm run build`
 * builds it, with NODE_ENV=development in the environment as `NODE_ENV=development npm start`
 * would have it, and what index.html loads up front must stay within 150 kB gzip.
 */

const root = path.resolve(import.meta.dirname, '../..');
let outDir: string;

beforeAll(() => {
  outDir = mkdtempSync(path.join(os.tmpdir(), 'baton-client-size-'));
  const built = spawnSync(process.execPath, ['scripts/build-client.mjs', '--outDir', outDir], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'development' },
    encoding: 'utf8',
  });
  expect(built.status, built.stderr).toBe(0);
}, 180_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

test('the first screen loads at most 150 kB of JavaScript, gzip', () => {
  const initial = initialJsGzip(outDir);
  const total = totalJsGzip(outDir);
  console.log(
    `client JS, gzip: first screen ${kB(initial.bytes)} in ${initial.chunks.length} files; all ${kB(total.bytes)} in ${total.files} files`,
  );
  const largest = initial.chunks
    .slice(0, 5)
    .map((c) => `${c.file} ${kB(c.gzipBytes)}`)
    .join(', ');
  expect(
    initial.bytes,
    `the first screen loads ${kB(initial.bytes)}, over ${kB(INITIAL_JS_BUDGET_BYTES)}; largest: ${largest}`,
  ).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
});

test("the build bundles React's production build even when NODE_ENV=development", () => {
  const react = initialJsGzip(outDir).chunks.find((c) => /\/react-[^/]*\.js$/.test(c.file));
  expect(react, 'index.html loads the react chunk').toBeDefined();
  const source = readFileSync(path.join(outDir, String(react?.file).replace(/^\//, '')), 'utf8');
  // Only React's production build sends its errors as codes to decode on react.dev.
  expect(source).toContain('Minified React error');
  expect(source).not.toContain('Download the React DevTools');
});
