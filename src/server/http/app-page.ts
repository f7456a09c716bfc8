import type { FastifyRequest } from 'fastify';
import { type AuthResponse, AuthResponseSchema } from '../../shared/contracts/auth';
import { SESSION_ELEMENT_ID } from '../../shared/contracts/page-session';
import type { User } from '../../shared/contracts/users';

/*
 * The app's page carries the signed-in user (issue 35, "pages that feel instant"): the browser's
 * first screen then knows who is signed in without asking GET /api/auth/user first, so a
 * signed-in load paints the screen without the session's "Loading..." in between. The user is
 * what GET /api/auth/user answers, in a JSON data block the client reads once; a data block is not
 * a script the Content-Security-Policy would have to allow.
 */

/**
 * isAppPageRequest tells whether a request asks for a page of the app (a browser's navigation,
 * which accepts HTML) rather than a file or the API: only then is the session read for the page.
 */
export function isAppPageRequest(req: FastifyRequest): boolean {
  return (
    req.method === 'GET' &&
    !req.url.startsWith('/api/') &&
    String(req.headers.accept ?? '').includes('text/html')
  );
}

/**
 * pageWithSession returns index.html with the signed-in user's answer before `</head>`, or the
 * page as built when nobody is signed in. The JSON is escaped so no text of the user's can close
 * the block or start markup (`<`, `>`, `&`, and the line separators JavaScript once refused).
 */
export function pageWithSession(html: string, user: User | null): string {
  if (!user) return html;
  const answer: AuthResponse = AuthResponseSchema.parse({ user });
  const json = JSON.stringify(answer).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const block = `<script type="application/json" id="${SESSION_ELEMENT_ID}">${json}</script>`;
  const at = html.indexOf('</head>');
  return at === -1 ? `${block}${html}` : `${html.slice(0, at)}${block}${html.slice(at)}`;
}
