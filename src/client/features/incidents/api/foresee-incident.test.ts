import type { Incident, IncidentList } from '@shared/contracts/incidents';
import { MutationObserver, type QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, test, vi } from 'vitest';

vi.mock('@/components/ui/use-toast', () => ({ toast: vi.fn() }));
// A worker's files share its modules (isolate: false): load these again, with the mock.
vi.resetModules();

const { createQueryClient } = await import('@/lib/query-client');
const { toast } = await import('@/components/ui/use-toast');
const { incidentActionMutationOptions } = await import('./act-on-incident');
const { patchIncident, withAcknowledged } = await import('./foresee-incident');

/*
 * An acknowledgement shown before the server answers, and put back when it refuses: a real
 * QueryClient with the product's defaults; only fetch is replaced, and answers when told.
 */

const INCIDENT = {
  id: 42,
  title: 'Checkout is failing',
  status: 'triggered',
  acknowledgedAt: null,
  nextStepAt: '2026-11-29T21:30:00.000Z',
  actions: {
    acknowledge: true,
    resolve: true,
    escalate: true,
    reassign: true,
    addNote: true,
    reopen: false,
  },
} as unknown as Incident;
const OTHER = { ...INCIDENT, id: 43, title: 'Search is slow' } as Incident;
const LIST = { incidents: [INCIDENT, OTHER], nextBefore: null, counts: {} } as IncidentList;

function heldServer() {
  let release: (status: number, body: unknown) => void = () => undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(
      () =>
        new Promise<Response>((resolve) => {
          release = (status, body) => resolve(new Response(JSON.stringify(body), { status }));
        }),
    ),
  );
  return { answer: (status: number, body: unknown) => release(status, body) };
}

function cached(): QueryClient {
  const client = createQueryClient();
  client.setQueryData(['/api/incidents', 42], INCIDENT);
  client.setQueryData(['/api/incidents', 'mine'], LIST);
  client.setQueryData(['/api/incidents', 'list', 'status=triggered'], LIST);
  return client;
}

const shown = (client: QueryClient) => [
  client.getQueryData<Incident>(['/api/incidents', 42]),
  client.getQueryData<IncidentList>(['/api/incidents', 'mine'])?.incidents[0],
  client.getQueryData<IncidentList>(['/api/incidents', 'list', 'status=triggered'])?.incidents[0],
];

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(toast).mockClear();
});

describe('the guess', () => {
  test('acknowledged now: no next step, no Acknowledge; the other actions stay', () => {
    expect(withAcknowledged(INCIDENT, new Date('2026-11-29T21:00:00Z'))).toMatchObject({
      status: 'acknowledged',
      acknowledgedAt: '2026-11-29T21:00:00.000Z',
      nextStepAt: null,
      actions: { acknowledge: false, resolve: true, escalate: true },
    });
  });

  test('patchIncident changes the incident in a read of one or a list, and nothing else', () => {
    const mark = (i: Incident) => ({ ...i, title: 'marked' });
    expect((patchIncident(INCIDENT, 42, mark) as Incident).title).toBe('marked');
    expect(patchIncident(OTHER, 42, mark)).toBe(OTHER);
    const list = patchIncident(LIST, 42, mark) as IncidentList;
    expect(list.incidents.map((i) => i.title)).toEqual(['marked', 'Search is slow']);
    const alerts = [{ id: 42, format: 'generic' }];
    expect(patchIncident(alerts, 42, mark)).toBe(alerts);
    expect(patchIncident(undefined, 42, mark)).toBeUndefined();
  });
});

describe('before the server answers', () => {
  test('acknowledge: acknowledged in every read at once; a refusal puts each back and says why', async () => {
    const server = heldServer();
    const client = cached();
    const done = new MutationObserver(client, incidentActionMutationOptions(client, 42))
      .mutate({ kind: 'acknowledge' })
      .catch(() => undefined);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    for (const incident of shown(client)) {
      expect(incident).toMatchObject({ status: 'acknowledged', actions: { acknowledge: false } });
    }
    expect(client.getQueryData<IncidentList>(['/api/incidents', 'mine'])?.incidents[1]).toBe(OTHER);

    server.answer(409, { message: 'This incident is already resolved.', code: 'CONFLICT' });
    await done;
    expect(shown(client)).toEqual([INCIDENT, INCIDENT, INCIDENT]);
    expect(toast).toHaveBeenCalledWith(
      expect.objectContaining({
        title: 'Error acknowledging incident',
        description: 'This incident is already resolved.',
      }),
    );
  });

  test('other actions wait for the answer', async () => {
    heldServer();
    const client = cached();
    void new MutationObserver(client, incidentActionMutationOptions(client, 42))
      .mutate({ kind: 'resolve' })
      .catch(() => undefined);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(shown(client)).toEqual([INCIDENT, INCIDENT, INCIDENT]);
  });
});
