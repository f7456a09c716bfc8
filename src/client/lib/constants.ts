export const APP_NAME = 'Baton';

/** The automation studio credited in the footer. */
export const STUDIO_CREDIT = 'Built by Relay Automation Studio';
