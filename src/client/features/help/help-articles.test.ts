import { describe, expect, test } from 'vitest';
import { ARTICLE_CONTENT } from './articles/article-content';
import {
  findHelpArticle,
  findHelpArticleBySlug,
  HELP_ARTICLES,
  HELP_CATEGORIES,
  helpArticlePath,
  relatedArticles,
  searchHelpArticles,
} from './help-articles';

// Issue 17's articles: each alert source, and the two moving guides.
const ALERT_LINKS = [
  '/help/integrations',
  '/help/alerts-alertmanager',
  '/help/alerts-grafana',
  '/help/alerts-pagerduty-format',
  '/help/alerts-opsgenie-format',
  '/help/alerts-generic',
  '/help/alerts-email',
  '/help/moving-from-opsgenie',
  '/help/moving-from-pagerduty',
  // Issue 19's receiver documentation (decision 221)
  '/help/webhook-receivers',
];

// Issue 19's: the Slack app (decision 222).
const SLACK_LINKS = ['/help/slack-app'];

// Issue 20's: personal API tokens (decision 223).
const API_TOKEN_LINKS = ['/help/api-tokens'];

// Issue 32's: layers and shift patterns (decision 248).
const LAYER_LINKS = ['/help/rotation-layers'];

// Issue 34's: importing from another tool (decision 268).
const IMPORT_LINKS = ['/help/importing'];

// Every link the specification names for the Help Center and its guide pages.
const SPEC_LINKS = [
  '/help/user-roles',
  '/help/handoff-process',
  '/help/paging-oncall',
  '/help/security-disclosures',
  '/help/encryption',
  '/help/welcome',
  '/help/profile-setup',
  '/help/rotations-intro',
  '/help/create-rotation',
  '/help/manage-oncall',
  '/help/coverage-requests',
  '/help/notification-methods',
  '/help/sms-setup',
  '/help/email-notifications',
  '/help/inviting-users',
  '/help/user-access',
  '/help/audit-logs',
  '/support',
  '/notification-help',
];

describe('help articles', () => {
  test('every link the specification names is an article with a body', () => {
    const paths = HELP_ARTICLES.map(helpArticlePath);
    expect([...paths].sort()).toEqual(
      [
        ...SPEC_LINKS,
        ...ALERT_LINKS,
        ...SLACK_LINKS,
        ...API_TOKEN_LINKS,
        ...LAYER_LINKS,
        ...IMPORT_LINKS,
      ].sort(),
    );
    for (const article of HELP_ARTICLES)
      expect(ARTICLE_CONTENT[article.slug]).toBeTypeOf('function');
  });

  test('slugs are unique, every category has articles, three are featured', () => {
    expect(new Set(HELP_ARTICLES.map((a) => a.slug)).size).toBe(HELP_ARTICLES.length);
    expect(HELP_CATEGORIES).toHaveLength(5);
    for (const c of HELP_CATEGORIES) {
      expect(HELP_ARTICLES.some((a) => a.category === c.id)).toBe(true);
    }
    expect(HELP_ARTICLES.filter((a) => a.featured)).toHaveLength(3);
  });

  test('findHelpArticle finds /help/{slug} articles only', () => {
    expect(findHelpArticle('encryption')?.title).toBe('Data Encryption');
    expect(findHelpArticle('support')).toBeUndefined(); // lives at /support
    expect(findHelpArticle('nope')).toBeUndefined();
    expect(findHelpArticle(undefined)).toBeUndefined();
  });

  test.each([
    ['', HELP_ARTICLES.length],
    ['SMS', undefined],
    ['zzz-no-such-thing', 0],
  ])('searchHelpArticles(%j)', (query, count) => {
    const found = searchHelpArticles(query);
    if (count !== undefined) expect(found).toHaveLength(count);
    else expect(found.length).toBeGreaterThan(0);
  });

  test('search matches every word, in titles, summaries and keywords, title matches first', () => {
    expect(searchHelpArticles('sms')[0].slug).toBe('sms-setup');
    expect(searchHelpArticles('csv').map((a) => a.slug)).toEqual(['importing', 'audit-logs']);
    expect(searchHelpArticles('ENCRYPTION key').map((a) => a.slug)).toContain('encryption');
    expect(searchHelpArticles('encryption sms')).toEqual([]);
    expect(searchHelpArticles('iphone').map((a) => a.slug)).toEqual(['notification-settings']);
  });

  test.each([
    ['opsgenie', 'moving-from-opsgenie'],
    ['moving from opsgenie', 'moving-from-opsgenie'],
    ['pagerduty migrate', 'moving-from-pagerduty'],
    ['alertmanager', 'alerts-alertmanager'],
    ['grafana hmac', 'alerts-grafana'],
    ['curl cron', 'alerts-generic'],
    ['routing key', 'alerts-pagerduty-format'],
    ['geniekey', 'alerts-opsgenie-format'],
    ['email alert', 'alerts-email'],
    ['integration key', 'integrations'],
    ['slack', 'slack-app'],
    ['/baton who', 'slack-app'],
    ['follow the sun', 'rotation-layers'],
    ['12-hour shifts', 'rotation-layers'],
    ['on-duty window', 'rotation-layers'],
    ['import pagerduty', 'importing'],
    ['spreadsheet', 'importing'],
    ['grafana oncall', 'importing'],
  ])('the alert articles are found: %j finds %s', (query, slug) => {
    expect(searchHelpArticles(query).map((a) => a.slug)).toContain(slug);
  });
});

test('related articles: an article’s own list, else the first of its category', () => {
  for (const article of HELP_ARTICLES) {
    for (const slug of article.related ?? [])
      expect(findHelpArticleBySlug(slug), slug).toBeDefined();
    expect(relatedArticles(article).map((a) => a.slug)).not.toContain(article.slug);
  }
  expect(relatedArticles(findHelpArticle('moving-from-opsgenie')!).map((a) => a.slug)[0]).toBe(
    'importing',
  );
  expect(relatedArticles(findHelpArticle('sms-setup')!).map((a) => a.slug)).toEqual([
    'notification-methods',
    'email-notifications',
    'paging-oncall',
    'notification-settings',
  ]);
});
