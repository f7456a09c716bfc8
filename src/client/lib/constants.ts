export const APP_NAME = 'Baton';

/** The automation studio credited in the footer. */
export const STUDIO_CREDIT = 'Built by Relay Automation Studio';
/** The running version, package.json's (vite.config.ts puts it in at build time). */
export const APP_VERSION = __BATON_VERSION__;
