// The import's verify figure (issue 34, decision 268): an account of 20 PagerDuty schedules (the
// loopback PagerDuty's account, its layered schedules copied until there are 20) planned and
// applied through the app in this process, then `GET /api/imports/{id}/verify` timed: Baton's
// rendering of 90 days of every imported rotation compared, minute by minute, with the source's.
import { createCipher } from '../../src/server/bootstrap';
import { insertUsers } from '../../src/server/modules/users/user-repository';
import {
  type FakePdAccount,
  pagerDutyAccount,
  startFakePagerDuty,
} from '../../tests/setup/fake-pagerduty';
import { benchConfig, inProcessApp, openTarget, signIn, type Target } from './in-process';

/** The schedules the account holds: issue 36's "20-schedule account". */
export const IMPORT_SCHEDULES = 20;
const KEY = 'bench-read-only-key';
const NOW = new Date('2027-03-01T00:00:00Z');

/** twentySchedules: the test account with its schedules copied (new ids and names) up to 20. */
function twentySchedules(): FakePdAccount {
  const account = pagerDutyAccount();
  const originals = account.schedules;
  const schedules = [...originals];
  for (let i = 0; schedules.length < IMPORT_SCHEDULES; i++) {
    const from = originals[i % originals.length];
    if (!from) break;
    schedules.push({
      ...from,
      id: `${from.id}X${i}`,
      name: `${from.name} ${i + 2}`,
      layers: from.layers.map((l) => ({ ...l, id: `${l.id}X${i}` })),
      overrides: from.overrides.map((o) => ({ ...o, id: `${o.id}X${i}` })),
    });
  }
  return { ...account, schedules };
}

/** timeImportVerify imports the account and times its verify; answers each run's milliseconds. */
export async function timeImportVerify(
  target: Target,
  env: Record<string, string>,
  runs: number,
): Promise<{ ms: number[]; schedules: number; differences: number }> {
  const config = benchConfig({ ...env, COMPANY_DOMAIN: 'acme.example' });
  const cipher = createCipher(config);
  const database = await openTarget(target);
  const account = twentySchedules();
  const pagerduty = await startFakePagerDuty({ account, key: KEY });
  try {
    await insertUsers(database.db, cipher, [
      { name: 'Bench Importer', email: 'importer@acme.example', roles: ['admin'] },
      ...account.users.map((u) => ({ name: u.name, email: u.email, roles: ['on-call' as const] })),
    ]);
    const app = await inProcessApp(database, { config, cipher }, () => NOW);
    const headers = await signIn(app, 'importer@acme.example', env.LOCAL_LOGIN_PASSWORD);
    const plan = await app.inject({
      method: 'POST',
      url: '/api/imports',
      headers,
      payload: { source: 'pagerduty', apiUrl: pagerduty.url, apiKey: KEY },
    });
    if (plan.statusCode !== 201) throw new Error(`plan: ${plan.statusCode} ${plan.body}`);
    const { id } = plan.json() as { id: number };
    const applied = await app.inject({ method: 'POST', url: `/api/imports/${id}/apply`, headers });
    if (applied.statusCode !== 200) throw new Error(`apply: ${applied.statusCode} ${applied.body}`);
    const ms: number[] = [];
    let differences = 0;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const res = await app.inject({ method: 'GET', url: `/api/imports/${id}/verify`, headers });
      ms.push(performance.now() - started);
      if (res.statusCode !== 200) throw new Error(`verify: ${res.statusCode} ${res.body}`);
      differences = (res.json() as { differences: unknown[] }).differences.length;
    }
    await app.close();
    return { ms, schedules: account.schedules.length, differences };
  } finally {
    await pagerduty.close();
    await database.close();
  }
}
