import { describe, expect, test } from 'vitest';
import type { Database, ListenHandlers } from '../../db/client';
import { CHANGE_CHANNEL } from './live-hub';
import { OnCallChanges } from './on-call-changes';

/** a database whose change feed the test speaks for */
function feed() {
  let handlers: ListenHandlers | undefined;
  let unlistened = false;
  const database = {
    listen: async (channel: string, given: ListenHandlers) => {
      expect(channel).toBe(CHANGE_CHANNEL);
      handlers = given;
      return async () => {
        unlistened = true;
      };
    },
  } as unknown as Database;
  const notify = (...kinds: string[]) =>
    handlers?.onNotify(
      JSON.stringify(kinds.map((kind, i) => ({ id: i + 1, kind, entityId: 1, rotationId: 1 }))),
    );
  return { database, notify, handlers: () => handlers, unlistened: () => unlistened };
}

describe('OnCallChanges (decision 295)', () => {
  test('every change but an incident moves the version', async () => {
    const { database, notify, handlers } = feed();
    const changes = await OnCallChanges.listen(database);
    expect(changes.version()).toBe('on-call:0');
    notify('incident');
    notify('incident', 'incident');
    expect(changes.version()).toBe('on-call:0');
    notify('handoff');
    expect(changes.version()).toBe('on-call:1');
    // One notification is one move, however many changes it names.
    notify('incident', 'rotation', 'time-off');
    expect(changes.version()).toBe('on-call:2');
    for (const kind of ['user', 'coverage', 'session', 'escalation-policy']) notify(kind);
    expect(changes.version()).toBe('on-call:6');
    // One that cannot be read moves it too: a read again costs less than a stale one.
    handlers()?.onNotify('not json');
    expect(changes.version()).toBe('on-call:7');
  });

  test('a lost feed, and a closed one, give no version', async () => {
    const lost = feed();
    const changes = await OnCallChanges.listen(lost.database);
    lost.handlers()?.onLost?.(new Error('gone'));
    expect(changes.version()).toBeNull();
    lost.notify('handoff');
    expect(changes.version()).toBeNull();

    const closing = feed();
    const closed = await OnCallChanges.listen(closing.database);
    await closed.close();
    expect(closed.version()).toBeNull();
    expect(closing.unlistened()).toBe(true);
  });
});
