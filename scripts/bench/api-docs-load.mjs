// The API reference's load (decision 267): `node scripts/bench/api-docs-load.mjs <base URL> [loads]`
// against a running production build. For each load, in a fresh browser context: the time from
// navigation to the reference's "Baton API" heading visible, to the sidebar's "rotations" group
// visible, and the CPU (thread) time of the page's main thread until then, from a Chromium
// trace (`toplevel` events), which depends far less than wall time on what else the machine runs.
import { chromium } from 'playwright';

const base = process.argv[2] ?? 'http://127.0.0.1:3000';
const loads = Number(process.argv[3] ?? 5);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium-headless-shell',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const rows = [];
for (let i = 0; i < loads; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await browser.startTracing(page, { categories: ['toplevel', '__metadata'] });
  const start = Date.now();
  await page.goto(`${base}/api/docs/`, { waitUntil: 'commit' });
  const title = page.getByRole('heading', { name: 'Baton API' }).first();
  await title.waitFor({ state: 'visible', timeout: 60_000 });
  const titleMs = Date.now() - start;
  const group = page.getByRole('link', { name: 'rotations', exact: true }).first();
  await group.waitFor({ state: 'visible', timeout: 60_000 });
  const groupsMs = Date.now() - start;
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  const main = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const cpu = {};
  for (const e of events) {
    if (e.ph === 'X' && e.tdur && e.cat.includes('toplevel') && main.has(`${e.pid}:${e.tid}`)) {
      cpu[e.pid] = (cpu[e.pid] ?? 0) + e.tdur / 1000;
    }
  }
  rows.push({ titleMs, groupsMs, cpuMs: Math.round(Math.max(0, ...Object.values(cpu))) });
  await context.close();
}
await browser.close();
const median = (key) => rows.map((row) => row[key]).sort((a, b) => a - b)[Math.floor(loads / 2)];
for (const row of rows) console.log(JSON.stringify(row));
console.log(
  'median',
  JSON.stringify({
    titleMs: median('titleMs'),
    groupsMs: median('groupsMs'),
    cpuMs: median('cpuMs'),
  }),
);
