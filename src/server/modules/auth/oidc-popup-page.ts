import {
  AUTH_BROADCAST_CHANNEL,
  OIDC_RESULT_MESSAGE,
  type OidcResult,
} from '../../../shared/contracts/auth';

/** Where the popup page loads its script from (the CSP allows only same-origin scripts). */
export const POPUP_SCRIPT_PATH = '/api/auth/oidc/popup.js';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * popupPage returns the small page the sign-in popup ends on: it tells the main window how
 * sign-in went (the result rides in a data attribute; the script is a static file) and closes.
 */
export function popupPage(result: OidcResult): string {
  const text = result.ok
    ? 'You are signed in. This window closes by itself.'
    : `${result.message} You can close this window.`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${result.ok ? 'Signed in' : 'Sign-in failed'} · Baton</title>
<script src="${POPUP_SCRIPT_PATH}" defer></script>
<style>body{font:14px system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;padding:1rem;box-sizing:border-box;color:#222;background:#fafafa}@media(prefers-color-scheme:dark){body{color:#eee;background:#111}}</style>
</head>
<body>
<main id="oidc-result" data-result="${escapeHtml(JSON.stringify(result))}"><p>${escapeHtml(text)}</p></main>
</body>
</html>`;
}

/**
 * The popup's script. It posts the result to its opener (own origin only) and on a
 * BroadcastChannel (which still reaches the main window when a provider's page cut the opener
 * link), then closes; when it cannot close, it goes on to the app instead.
 */
export const POPUP_SCRIPT = `(() => {
  const el = document.getElementById('oidc-result');
  if (!el) return;
  let result;
  try { result = JSON.parse(el.dataset.result || ''); } catch { return; }
  if (!result || result.type !== ${JSON.stringify(OIDC_RESULT_MESSAGE)}) return;
  let opener = null;
  try { opener = window.opener && !window.opener.closed ? window.opener : null; } catch {}
  if (opener) {
    try { opener.postMessage(result, window.location.origin); } catch {}
  }
  try {
    const channel = new BroadcastChannel(${JSON.stringify(AUTH_BROADCAST_CHANNEL)});
    channel.postMessage(result);
    channel.close();
  } catch {}
  window.close();
  // Still open (a window the script may not close): continue in the app instead.
  setTimeout(() => window.location.replace(result.ok ? '/' : '/login'), opener ? 1500 : 300);
})();
`;
