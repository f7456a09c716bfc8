import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, isTestCode, withoutComments } from '../../../../tests/setup/import-graph';

/**
 * One way out (decision 241): an event is announced through `announce`, and rendered by the
 * notifications module's channels only. No module outside notifications/ imports a chat renderer
 * or the chat registry, or writes chat rows to the outbox itself; and the arrow between
 * notifications and destinations runs one way: notifications imports destinations' repository,
 * destinations imports nothing of notifications.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const NOTIFICATIONS = 'src/server/modules/notifications/';
const DESTINATIONS = 'src/server/modules/destinations/';
const RENDERERS = /^src\/server\/modules\/notifications\/chat-[a-z-]+\.ts$/;
const PERSON_RENDERERS = /^src\/server\/modules\/notifications\/person-(messages|registry)\.ts$/;

const graph = importGraph(ROOT, ['src/server', 'scripts']);
const code = [...graph].filter(([file]) => !isTestCode(file));

describe('one way out (decision 241)', () => {
  it('nothing outside notifications/ imports the chat renderers or the chat registry', () => {
    expect(graph.get(`${NOTIFICATIONS}announce.ts`)).toContain(`${NOTIFICATIONS}chat-registry.ts`);
    const reachIn = code
      .filter(([file]) => !file.startsWith(NOTIFICATIONS))
      .flatMap(([file, targets]) =>
        targets.filter((t) => RENDERERS.test(t)).map((t) => `${file} → ${t}`),
      );
    expect(reachIn).toEqual([]);
  });

  it("nothing outside notifications/ imports the person channels' renderers or registry", () => {
    expect(graph.get(`${NOTIFICATIONS}announce.ts`)).toContain(
      `${NOTIFICATIONS}person-messages.ts`,
    );
    const reachIn = code
      .filter(([file]) => !file.startsWith(NOTIFICATIONS))
      .flatMap(([file, targets]) =>
        targets.filter((t) => PERSON_RENDERERS.test(t)).map((t) => `${file} → ${t}`),
      );
    expect(reachIn).toEqual([]);
  });

  it('nothing outside notifications/ posts to destinations itself: it announces', () => {
    const posting = code
      .filter(([file]) => !file.startsWith(NOTIFICATIONS))
      .filter(([file]) =>
        /\b(enqueueChatMessages|postToDestinations|listSubscribedDestinations)\s*\(/.test(
          withoutComments(readFileSync(path.join(ROOT, file), 'utf8')),
        ),
      )
      .map(([file]) => file)
      // the repository defines the subscription query that announce reads
      .filter((file) => file !== `${DESTINATIONS}destination-repository.ts`);
    expect(posting).toEqual([]);
    expect(graph.get('src/server/modules/shift-changes/shift-changes.ts')).toContain(
      `${NOTIFICATIONS}announce.ts`,
    );
  });

  it("nothing outside notifications/ writes people's rows itself: it announces", () => {
    const writing = code
      .filter(([file]) => !file.startsWith(NOTIFICATIONS))
      .filter(([file]) =>
        /\b(enqueueNotifications|addToFollowUps|toInput)\s*\(/.test(
          withoutComments(readFileSync(path.join(ROOT, file), 'utf8')),
        ),
      )
      .map(([file]) => file)
      .sort();
    expect(writing).toEqual([]);
    for (const site of ['incident-step-messages', 'incident-actions', 'incident-engine']) {
      expect(graph.get(`src/server/modules/incidents/${site}.ts`)).toContain(
        `${NOTIFICATIONS}announce.ts`,
      );
    }
  });

  it('destinations/ imports nothing from notifications/', () => {
    const back = code
      .filter(([file]) => file.startsWith(DESTINATIONS))
      .flatMap(([file, targets]) =>
        targets.filter((t) => t.startsWith(NOTIFICATIONS)).map((t) => `${file} → ${t}`),
      );
    expect(back).toEqual([]);
    expect(graph.get(`${NOTIFICATIONS}announce.ts`)).toContain(
      `${DESTINATIONS}destination-repository.ts`,
    );
  });
});
