/**
 * emailFrameDocument returns an email's HTML as the document of a sandboxed frame: its links open
 * in a new tab (the frame may open popups, never run scripts), so following "View rotation" from
 * the demo inbox leaves the frame as a mail client would.
 */
export function emailFrameDocument(html: string): string {
  const base = '<base target="_blank">';
  if (/<head(\s[^>]*)?>/i.test(html))
    return html.replace(/<head(\s[^>]*)?>/i, (m) => `${m}${base}`);
  if (/<html(\s[^>]*)?>/i.test(html)) {
    return html.replace(/<html(\s[^>]*)?>/i, (m) => `${m}<head>${base}</head>`);
  }
  return `${base}${html}`;
}
