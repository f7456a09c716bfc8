import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { HelpLinksSchema, HelpTimingsSchema } from '../../../shared/contracts/help';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      HANDOFF_NOTICE_MINUTES: '45',
      HANDOFF_ESCALATE_MINUTES: '20',
      HANDOFF_AUTO_TRANSFER_MINUTES: '90',
      HANDOFF_ACK_MINUTES: '10',
      HANDOFF_BACKUP_MINUTES: '25',
      USERS_FORUM_URL: 'https://forum.acme.example/c/baton',
      BUG_REPORT_URL: 'https://jira.acme.example/projects/ONCALL',
    },
  });
});
afterAll(() => t.close());

test('GET /api/help/timings answers the deployment’s handoff timings, without signing in', async () => {
  const res = await t.app.inject({ url: '/api/help/timings' });
  expect(res.statusCode).toBe(200);
  expect(HelpTimingsSchema.parse(res.json())).toEqual({
    handoff: {
      noticeBeforeMinutes: 45,
      escalateAfterMinutes: 20,
      autoTransferAfterMinutes: 90,
      acknowledgeWithinMinutes: 10,
      backupMinutes: 25,
    },
  });
});

test('GET /api/help/links answers where the forum and bug-report links point, without signing in', async () => {
  const res = await t.app.inject({ url: '/api/help/links' });
  expect(res.statusCode).toBe(200);
  expect(HelpLinksSchema.parse(res.json())).toEqual({
    usersForumUrl: 'https://forum.acme.example/c/baton',
    bugReportUrl: 'https://jira.acme.example/projects/ONCALL',
  });
});
