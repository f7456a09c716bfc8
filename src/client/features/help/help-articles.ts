/** The five groups the Help Center sorts its articles into. */
export const HELP_CATEGORIES = [
  {
    id: 'getting-started',
    title: 'Getting Started',
    description: 'Signing in, finding your way around and setting up your profile.',
  },
  {
    id: 'rotations',
    title: 'Rotations & Handoffs',
    description: 'How rotations work, and passing, taking and covering on-call duty.',
  },
  {
    id: 'notifications',
    title: 'Notifications & Paging',
    description:
      'How Baton reaches you by email and SMS, paging whoever is on call, and alerts from monitoring tools.',
  },
  {
    id: 'administration',
    title: 'Administration',
    description: 'Inviting people, roles and permissions, and the audit log.',
  },
  {
    id: 'security',
    title: 'Security & Privacy',
    description: 'How Baton signs people in and protects personal data.',
  },
] as const;

export type HelpCategoryId = (typeof HELP_CATEGORIES)[number]['id'];

/** A help article: reachable at /help/{slug} unless `path` says otherwise. */
export type HelpArticle = {
  slug: string;
  title: string;
  /** one sentence, shown in lists and under the article's title */
  summary: string;
  category: HelpCategoryId;
  /** extra words the Help Center's search matches */
  keywords: readonly string[];
  featured?: boolean;
  /** where the article lives when not under /help (e.g. /support) */
  path?: string;
  /** the articles its "Related articles" lists, when not the first of its category */
  related?: readonly string[];
};

/** The alert sources' articles (issue 17) point to each other rather than to the paging ones. */
const ALERT_ARTICLES = [
  'integrations',
  'alerts-alertmanager',
  'alerts-grafana',
  'alerts-pagerduty-format',
  'alerts-opsgenie-format',
  'alerts-generic',
  'alerts-email',
  'moving-from-opsgenie',
  'moving-from-pagerduty',
  'importing',
] as const;
const RELATED_ALERT_ARTICLES: Record<(typeof ALERT_ARTICLES)[number], readonly string[]> = {
  integrations: ['alerts-alertmanager', 'alerts-grafana', 'alerts-generic', 'moving-from-opsgenie'],
  'alerts-alertmanager': [
    'integrations',
    'alerts-grafana',
    'alerts-pagerduty-format',
    'alerts-opsgenie-format',
  ],
  'alerts-grafana': ['integrations', 'alerts-alertmanager', 'alerts-generic', 'alerts-email'],
  'alerts-pagerduty-format': [
    'integrations',
    'moving-from-pagerduty',
    'alerts-alertmanager',
    'alerts-generic',
  ],
  'alerts-opsgenie-format': [
    'integrations',
    'moving-from-opsgenie',
    'alerts-alertmanager',
    'alerts-generic',
  ],
  'alerts-generic': [
    'integrations',
    'alerts-pagerduty-format',
    'alerts-email',
    'alerts-alertmanager',
  ],
  'alerts-email': ['integrations', 'alerts-generic', 'alerts-grafana', 'alerts-alertmanager'],
  'moving-from-opsgenie': [
    'importing',
    'alerts-opsgenie-format',
    'integrations',
    'moving-from-pagerduty',
  ],
  'moving-from-pagerduty': [
    'importing',
    'alerts-pagerduty-format',
    'integrations',
    'moving-from-opsgenie',
  ],
  importing: ['moving-from-pagerduty', 'moving-from-opsgenie', 'rotation-layers', 'integrations'],
};

/** HELP_ARTICLES lists every help article by slug, in the order the Help Center shows them. */
export const HELP_ARTICLES: readonly HelpArticle[] = [
  {
    slug: 'welcome',
    title: 'Welcome to Baton',
    summary: 'What Baton does, who it is for, and where to find everything.',
    category: 'getting-started',
    keywords: ['introduction', 'overview', 'dashboard', 'sign in', 'google', 'invitation', 'start'],
    featured: true,
  },
  {
    slug: 'profile-setup',
    title: 'Setting Up Your Profile',
    summary: 'Your name, phone number, time zone and how Baton should reach you.',
    category: 'getting-started',
    keywords: ['profile', 'phone', 'timezone', 'time zone', 'name', 'settings', 'reminder'],
  },
  {
    slug: 'rotations-intro',
    title: 'Introduction to Rotations',
    summary:
      'Members, the baton, cadences, fixed and scheduled rotations, who is on call when, and suspension.',
    category: 'rotations',
    keywords: [
      'rotation',
      'member',
      'cadence',
      'daily',
      'weekly',
      'fixed',
      'scheduled',
      'suspend',
      'upcoming shifts',
      'who is on call',
      'next 7 days',
    ],
  },
  {
    slug: 'rotation-layers',
    title: 'Layers and Shift Patterns',
    summary:
      'Shifts of N hours, days or weeks, on-duty windows, and stacked layers: follow the sun, weekends, business hours.',
    category: 'rotations',
    keywords: [
      'layer',
      'layers',
      'shift length',
      'shift pattern',
      '12-hour',
      'hourly',
      'on-duty window',
      'business hours',
      'after hours',
      'weekend',
      'follow the sun',
      'daylight saving',
      'stacking',
    ],
  },
  {
    slug: 'create-rotation',
    title: 'Creating a Rotation',
    summary: 'Create a rotation, choose its cadence and handoff time, and add members.',
    category: 'rotations',
    keywords: [
      'new rotation',
      'create',
      'members',
      'order',
      'handoff time',
      'time zone',
      'shift pattern',
      'layers',
    ],
  },
  {
    slug: 'manage-oncall',
    title: 'Managing On-Call Duty',
    summary: 'Take on-call, pass the baton with notes, reassign and reorder members.',
    category: 'rotations',
    keywords: ['pass baton', 'take on-call', 'reassign', 'handoff', 'notes', 'reorder', 'holder'],
  },
  {
    slug: 'coverage-requests',
    title: 'Coverage Requests',
    summary: 'Ask a teammate to hold the baton for part of your shift.',
    category: 'rotations',
    keywords: ['coverage', 'cover', 'swap', 'vacation', 'time off', 'request'],
  },
  {
    slug: 'handoff-process',
    title: 'Handoff Process Guide',
    summary: 'The standard and emergency handoff, step by step, with their timings.',
    category: 'rotations',
    keywords: ['handoff', 'escalation', 'acknowledge', 'emergency', 'shift end', 'backup'],
    featured: true,
  },
  {
    slug: 'notification-methods',
    title: 'Notification Methods',
    summary: 'Email and SMS, your notification preference, and what triggers a message.',
    category: 'notifications',
    keywords: ['email', 'sms', 'text', 'preference', 'push', 'channels'],
  },
  {
    slug: 'sms-setup',
    title: 'Setting Up SMS Notifications',
    summary: 'Add your phone number and choose SMS so pages reach your phone.',
    category: 'notifications',
    keywords: ['sms', 'text message', 'phone', 'twilio', 'mobile'],
  },
  {
    slug: 'email-notifications',
    title: 'Email Notifications',
    summary: 'What Baton emails you, and making sure those emails arrive.',
    category: 'notifications',
    keywords: ['email', 'smtp', 'spam', 'inbox', 'filter'],
  },
  {
    slug: 'paging-oncall',
    title: 'Paging On-Call Personnel',
    summary: 'Page whoever holds the baton during an incident, and what happens next.',
    category: 'notifications',
    keywords: ['page', 'incident', 'urgency', 'escalation', 'severity', 'p1', 'alert'],
    featured: true,
  },
  {
    slug: 'notification-settings',
    title: 'Notification Settings',
    summary: 'Make sure Baton’s emails and texts get through on iPhone and Android.',
    category: 'notifications',
    keywords: ['ios', 'iphone', 'android', 'do not disturb', 'focus', 'push', 'faq'],
    path: '/notification-help',
  },
  {
    slug: 'integrations',
    related: RELATED_ALERT_ARTICLES.integrations,
    title: 'Integrations: Alerts from Monitoring Tools',
    summary:
      'Let Alertmanager, Grafana, scripts and email raise incidents with an integration key.',
    category: 'notifications',
    keywords: [
      'integration',
      'alert',
      'alerts',
      'key',
      'monitoring',
      'webhook',
      'test alert',
      'dedup',
      'storm',
      'regenerate',
    ],
  },
  {
    slug: 'alerts-alertmanager',
    related: RELATED_ALERT_ARTICLES['alerts-alertmanager'],
    title: 'Alerts from Prometheus Alertmanager',
    summary: 'Its webhook, PagerDuty or Opsgenie receiver, grouping, resending and resolving.',
    category: 'notifications',
    keywords: [
      'alertmanager',
      'prometheus',
      'webhook_configs',
      'pagerduty_configs',
      'opsgenie_configs',
      'receiver',
      'alert',
      'integration',
      'group',
      'fingerprint',
    ],
  },
  {
    slug: 'alerts-grafana',
    related: RELATED_ALERT_ARTICLES['alerts-grafana'],
    title: 'Alerts from Grafana',
    summary: 'A webhook contact point with the key, and optional HMAC-signed requests.',
    category: 'notifications',
    keywords: ['grafana', 'contact point', 'webhook', 'hmac', 'signature', 'alert', 'integration'],
  },
  {
    slug: 'alerts-pagerduty-format',
    related: RELATED_ALERT_ARTICLES['alerts-pagerduty-format'],
    title: 'PagerDuty-Format Senders',
    summary: 'Tools that send PagerDuty Events API v2 events: change the URL and routing key.',
    category: 'notifications',
    keywords: [
      'pagerduty',
      'events api',
      'v2',
      'enqueue',
      'routing key',
      'dedup_key',
      'alert',
      'integration',
      'curl',
    ],
  },
  {
    slug: 'alerts-opsgenie-format',
    related: RELATED_ALERT_ARTICLES['alerts-opsgenie-format'],
    title: 'Opsgenie-Format Senders',
    summary: 'Tools that use the Opsgenie Alert API: change the API URL and the GenieKey.',
    category: 'notifications',
    keywords: ['opsgenie', 'alert api', 'geniekey', 'alias', 'priority', 'alert', 'integration'],
  },
  {
    slug: 'alerts-generic',
    related: RELATED_ALERT_ARTICLES['alerts-generic'],
    title: 'Alerts from Scripts and curl',
    summary: 'Raise and resolve incidents from cron jobs, CI and scripts with one request.',
    category: 'notifications',
    keywords: ['curl', 'script', 'cron', 'generic', 'token', 'ci', 'alert', 'integration'],
  },
  {
    slug: 'webhook-receivers',
    related: ['integrations', 'alerts-generic'],
    title: 'Webhook Receivers',
    summary: 'The events a signed webhook destination sends, and how to verify their signature.',
    category: 'notifications',
    keywords: [
      'webhook',
      'slack',
      'teams',
      'mattermost',
      'discord',
      'signature',
      'standard webhooks',
      'whsec',
      'chat',
    ],
  },
  {
    slug: 'alerts-email',
    related: RELATED_ALERT_ARTICLES['alerts-email'],
    title: 'Alerts by Email',
    summary: 'Tools that can only send mail raise incidents by writing to the key’s address.',
    category: 'notifications',
    keywords: ['email', 'smtp', 'mail', 'inbound', 'alert', 'integration'],
  },
  {
    slug: 'moving-from-opsgenie',
    related: RELATED_ALERT_ARTICLES['moving-from-opsgenie'],
    title: 'Moving from Opsgenie',
    summary: 'Opsgenie ends on 2027-04-05: what maps to what, and changing the API URL and key.',
    category: 'notifications',
    keywords: [
      'opsgenie',
      'migrate',
      'migration',
      'move',
      'atlassian',
      'teams',
      'schedules',
      'escalations',
      'priority',
      'integration',
    ],
  },
  {
    slug: 'moving-from-pagerduty',
    related: RELATED_ALERT_ARTICLES['moving-from-pagerduty'],
    title: 'Moving from PagerDuty',
    summary: 'Services, schedules and escalation policies, and the Events v2 URL and routing key.',
    category: 'notifications',
    keywords: [
      'pagerduty',
      'migrate',
      'migration',
      'move',
      'services',
      'routing key',
      'severity',
      'events api',
      'integration',
    ],
  },
  {
    slug: 'importing',
    related: RELATED_ALERT_ARTICLES.importing,
    title: 'Importing from Another Tool',
    summary:
      'Bring people, schedules, escalation policies and integrations over from PagerDuty, Opsgenie, Grafana OnCall, a calendar or a spreadsheet.',
    category: 'administration',
    keywords: [
      'import',
      'migrate',
      'migration',
      'move',
      'pagerduty',
      'opsgenie',
      'grafana oncall',
      'goalert',
      'ics',
      'calendar',
      'csv',
      'spreadsheet',
      'verify',
    ],
  },
  {
    slug: 'inviting-users',
    title: 'Inviting Users',
    summary: 'Administrators invite people by email; an invitation is valid for 7 days.',
    category: 'administration',
    keywords: ['invite', 'invitation', 'new user', 'register', 'domain', 'expire'],
  },
  {
    slug: 'user-access',
    title: 'Managing User Access',
    summary: 'Change a person’s roles, remove a user, and what happens to their rotations.',
    category: 'administration',
    keywords: ['roles', 'delete user', 'remove', 'access', 'admin', 'permissions'],
  },
  {
    slug: 'user-roles',
    title: 'User Roles & Permissions',
    summary: 'The four roles and exactly what each one may do.',
    category: 'administration',
    keywords: ['role', 'permission', 'admin', 'manager', 'on-call', 'incident manager'],
  },
  {
    slug: 'audit-logs',
    title: 'Audit Logs',
    summary: 'Search the handoff history, export it, and review administrative actions.',
    category: 'administration',
    keywords: ['audit', 'history', 'export', 'csv', 'search', 'trail', 'log'],
  },
  {
    slug: 'security-disclosures',
    title: 'Security Disclosures',
    summary: 'How sign-in, sessions and personal data are protected, and the known limits.',
    category: 'security',
    keywords: ['security', 'authentication', 'session', 'cookie', 'csrf', 'vulnerability'],
  },
  {
    slug: 'encryption',
    title: 'Data Encryption',
    summary: 'Which fields are encrypted, how, and how keys are rotated.',
    category: 'security',
    keywords: ['encryption', 'aes', 'gcm', 'key', 'privacy', 'tls', 'personal data'],
  },
  {
    slug: 'support',
    title: 'Contact Support',
    summary: 'Where to ask a question, report a bug or get help in an emergency.',
    category: 'getting-started',
    keywords: ['support', 'contact', 'help', 'bug', 'forum', 'question'],
    path: '/support',
  },
  {
    slug: 'slack-app',
    title: 'Baton in Slack',
    summary: 'Acknowledge, resolve and escalate from Slack’s buttons, and /baton who.',
    category: 'notifications',
    keywords: ['slack', 'button', 'slash command', '/baton', 'who', 'chat', 'acknowledge'],
  },
  {
    slug: 'api-tokens',
    title: 'Personal API Tokens',
    summary: 'Call Baton’s API from scripts as yourself, with a read or a read and write token.',
    category: 'security',
    keywords: ['api', 'token', 'bearer', 'script', 'automation', 'curl', 'rate limit', 'revoke'],
  },
];

/** relatedArticles returns what an article's "Related articles" lists: its own, or its category's first. */
export function relatedArticles(article: HelpArticle, count = 4): HelpArticle[] {
  if (article.related) {
    return article.related
      .map((slug) => findHelpArticleBySlug(slug))
      .filter((a): a is HelpArticle => a !== undefined)
      .slice(0, count);
  }
  return HELP_ARTICLES.filter(
    (a) => a.category === article.category && a.slug !== article.slug,
  ).slice(0, count);
}

/** helpArticlePath returns where an article lives. */
export function helpArticlePath(article: HelpArticle): string {
  return article.path ?? `/help/${article.slug}`;
}

/** findHelpArticle returns the article at /help/{slug}, or undefined. */
export function findHelpArticle(slug: string | undefined): HelpArticle | undefined {
  return HELP_ARTICLES.find((article) => article.slug === slug && !article.path);
}

/** findHelpArticleBySlug returns any article with this slug, wherever it lives. */
export function findHelpArticleBySlug(slug: string): HelpArticle | undefined {
  return HELP_ARTICLES.find((article) => article.slug === slug);
}

/**
 * searchHelpArticles returns the articles whose title, summary, category or keywords contain
 * every word of the query (ignoring case), best matches (title hits) first.
 */
export function searchHelpArticles(query: string): HelpArticle[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...HELP_ARTICLES];
  const categoryTitle = (id: HelpCategoryId) =>
    HELP_CATEGORIES.find((c) => c.id === id)?.title ?? '';
  const scored = HELP_ARTICLES.map((article) => {
    const title = article.title.toLocaleLowerCase();
    const text = [article.summary, categoryTitle(article.category), ...article.keywords]
      .join(' ')
      .toLocaleLowerCase();
    const matches = words.every((w) => title.includes(w) || text.includes(w));
    const score = words.filter((w) => title.includes(w)).length;
    return { article, matches, score };
  });
  return scored
    .filter((s) => s.matches)
    .sort((a, b) => b.score - a.score)
    .map((s) => s.article);
}
