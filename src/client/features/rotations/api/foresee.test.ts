import type { Rotation } from '@shared/contracts/rotations';
import { MutationObserver, type QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, test, vi } from 'vitest';

vi.mock('@/components/ui/use-toast', () => ({ toast: vi.fn() }));
// A worker's files share its modules (isolate: false): load these again, with the mock.
vi.resetModules();

const { createQueryClient } = await import('@/lib/query-client');
const { toast } = await import('@/components/ui/use-toast');
const { passBatonMutationOptions } = await import('./pass-baton');
const { addMemberMutationOptions } = await import('./add-member');
const { withHolder, withMember } = await import('./foresee');

/*
 * Changes shown before the server answers, and put back when it refuses: a real QueryClient with
 * the product's defaults; only fetch is replaced, at the HTTP boundary, and answers when told.
 */

const person = (id: number, name: string) => ({ id, name, email: `${id}@example.com` });
const olivia = person(2, 'Olivia Ortiz');
const sam = person(4, 'Sam Sullivan');
const noah = person(5, 'Noah Nakamura');

const ROTATION = {
  id: 7,
  name: 'Platform Primary',
  currentOnCallUserId: olivia.id,
  currentOnCall: olivia,
  holderSince: '2026-11-01T09:00:00.000Z',
  members: [
    { id: 70, userId: olivia.id, order: 0, user: olivia },
    { id: 71, userId: sam.id, order: 1, user: sam },
  ],
} as unknown as Rotation;
const OTHER = { ...ROTATION, id: 8, name: 'Database On-Call' } as Rotation;

/** heldServer answers each request only when `answer` is called: the request stays in flight. */
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
  client.setQueryData(['/api/rotations', 7], ROTATION);
  client.setQueryData(['/api/rotations'], [ROTATION, OTHER]);
  client.setQueryData(['/api/user/rotations'], [ROTATION]);
  return client;
}

const shown = (client: QueryClient) => [
  client.getQueryData<Rotation>(['/api/rotations', 7]),
  client.getQueryData<Rotation[]>(['/api/rotations'])?.[0],
  client.getQueryData<Rotation[]>(['/api/user/rotations'])?.[0],
];

/** untilSent waits until the mutation's request has gone out (its onMutate has run). */
const untilSent = () => vi.waitFor(() => expect(fetch).toHaveBeenCalled());

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(toast).mockClear();
});

describe('the guess', () => {
  test('withHolder names the member as holder since now; someone not a member changes nothing', () => {
    const now = new Date('2026-11-29T20:00:00Z');
    expect(withHolder(ROTATION, sam.id, now)).toMatchObject({
      currentOnCallUserId: sam.id,
      currentOnCall: sam,
      holderSince: '2026-11-29T20:00:00.000Z',
    });
    expect(withHolder(ROTATION, 99, now)).toBe(ROTATION);
  });

  test('withMember adds the person at the end with a stand-in id; a member already in changes nothing', () => {
    expect(withMember(ROTATION, noah, 2).members.at(-1)).toEqual({
      id: -noah.id,
      userId: noah.id,
      order: 2,
      user: noah,
    });
    expect(withMember(ROTATION, sam, 2)).toBe(ROTATION);
  });
});

describe('before the server answers', () => {
  test('pass baton: the new holder shows in every read at once; a refusal puts Olivia back and says why', async () => {
    const server = heldServer();
    const client = cached();
    const done = new MutationObserver(client, passBatonMutationOptions(client))
      .mutate({ rotationId: 7, toUserId: sam.id, toUserName: sam.name })
      .catch(() => undefined);
    await untilSent();
    for (const r of shown(client)) expect(r?.currentOnCall).toEqual(sam);
    expect(client.getQueryData<Rotation[]>(['/api/rotations'])?.[1]).toBe(OTHER);

    server.answer(409, { message: 'Only the current holder can pass the baton.', code: 'X' });
    await done;
    for (const r of shown(client)) expect(r).toEqual(ROTATION);
    expect(toast).toHaveBeenCalledWith(
      expect.objectContaining({
        title: 'Error passing baton',
        description: 'Only the current holder can pass the baton.',
      }),
    );
  });

  test('pass baton: the answer replaces the guess', async () => {
    const server = heldServer();
    const client = cached();
    const done = new MutationObserver(client, passBatonMutationOptions(client)).mutate({
      rotationId: 7,
      toUserId: sam.id,
    });
    await untilSent();
    const answer = { ...withHolder(ROTATION, sam.id, new Date()), holderSince: 'from the server' };
    server.answer(200, answer);
    await done;
    for (const r of shown(client)) expect(r).toEqual(answer);
  });

  test('add member: the person shows at the end at once; a refusal takes them out and says why', async () => {
    const server = heldServer();
    const client = cached();
    const done = new MutationObserver(client, addMemberMutationOptions(client))
      .mutate({ rotationId: 7, userId: noah.id, order: 2, person: noah })
      .catch(() => undefined);
    await untilSent();
    for (const r of shown(client)) {
      expect(r?.members.map((m) => m.user.name)).toEqual([olivia.name, sam.name, noah.name]);
    }
    server.answer(409, { message: 'Noah Nakamura is already a member.', code: 'X' });
    await done;
    for (const r of shown(client)) expect(r).toEqual(ROTATION);
    expect(toast).toHaveBeenCalledWith(
      expect.objectContaining({
        title: 'Error adding on-call person',
        description: 'Noah Nakamura is already a member.',
      }),
    );
  });
});
