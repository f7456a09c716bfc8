// Its own file, without zod: the client's first screen imports it (the first screen's budget).

/**
 * SESSION_ELEMENT_ID is the id of the JSON data block in which the app's page carries the signed-in
 * user's AuthResponse (decision 264): the server writes it, the client reads it once at start-up.
 */
export const SESSION_ELEMENT_ID = 'baton-session';
