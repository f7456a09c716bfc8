/*
 * Links in what people type (decision 261): an incident's description, impact, troubleshooting
 * steps, notes and resolution note, and a page's message, show their web addresses as links.
 * Only http and https become links: a `javascript:` or `data:` address stays text, so a typed
 * text cannot run script in a responder's browser. Pure, so each case is a table row.
 */

/** A run of text, or a link with the address it opens (also its words). */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; href: string };

// An address starts at http:// or https:// and runs to whitespace or a bracket or quote that
// usually ends it in prose.
const ADDRESS = /https?:\/\/[^\s<>"'`]+/gi;
// Punctuation that ends a sentence, not an address ("see https://x.example/a.").
const TRAILING = /[.,;:!?]+$/;

/** safeHref returns the address as a link may open it, or null unless it is http or https. */
export function safeHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** trimAddress drops trailing punctuation, and a closing bracket the address does not open. */
function trimAddress(found: string): string {
  let address = found.replace(TRAILING, '');
  while (address.endsWith(')') && !address.slice(0, -1).includes('(')) {
    address = address.slice(0, -1).replace(TRAILING, '');
  }
  return address;
}

/** textParts splits a text into its runs of text and its http(s) links, in order. */
export function textParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let from = 0;
  for (const match of text.matchAll(ADDRESS)) {
    const address = trimAddress(match[0]);
    const href = safeHref(address);
    if (!href) continue;
    const at = match.index ?? 0;
    if (at > from) parts.push({ kind: 'text', text: text.slice(from, at) });
    // The link shows what was typed; href is the parsed address.
    parts.push({ kind: 'link', href: address });
    from = at + address.length;
  }
  if (from < text.length) parts.push({ kind: 'text', text: text.slice(from) });
  return parts;
}
