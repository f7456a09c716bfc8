import { textParts } from '@/lib/linkify';

/**
 * LinkedText shows what someone typed with its http(s) addresses as links that open in a new tab
 * without handing it this page (`rel="noopener noreferrer"`; decision 261). Everything else is
 * text, never markup.
 */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {textParts(text).map((part, index) =>
        part.kind === 'link' ? (
          <a
            // Parts have no id; their order is the text's and stable.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            key={index}
            href={part.href}
            target="_blank"
            rel="noopener noreferrer"
            className="break-all font-medium text-primary underline underline-offset-4"
          >
            {part.href}
          </a>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}
