/** Where the sidebar's 'Users Forum' link points. */
export const USERS_FORUM_URL = 'https://github.com/baton-oncall/baton/discussions';

/** Where the sidebar's 'Report a Bug' link points: the project's bug backlog. */
export const BUG_REPORT_URL = 'https://github.com/baton-oncall/baton/issues';

export const APP_NAME = 'Baton';

/** The automation studio credited in the footer. */
export const STUDIO_CREDIT = 'Built by Relay Automation Studio';
