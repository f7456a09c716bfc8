/**
 * What a control the specification keeps inert says beside it (the per-type notification
 * choices, the integrations' Connect buttons), so nobody thinks it saved or connected anything.
 */
export const NOT_AVAILABLE_YET = 'Not available yet';
