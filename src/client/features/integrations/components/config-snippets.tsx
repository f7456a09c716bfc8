import type { Integration } from '@shared/contracts/integrations';
import { CopyButton } from '@/components/copy-button';
import {
  type ConfigSnippet,
  configSnippets,
  KEY_PLACEHOLDER,
  snippetsBySource,
} from '../lib/config-snippets';

function Snippet({ snippet }: { snippet: ConfigSnippet }) {
  return (
    <figure className="grid min-w-0 gap-2">
      <div className="flex items-start justify-between gap-2">
        <figcaption className="grid min-w-0 flex-1 gap-0.5">
          <span className="font-medium text-sm">{snippet.title}</span>
          <span className="text-muted-foreground text-xs">{snippet.description}</span>
        </figcaption>
        <CopyButton text={snippet.text} label={`Copy ${snippet.title}`} />
      </div>
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls sideways must be reachable by keyboard
        tabIndex={0}
        className="min-w-0 overflow-x-auto whitespace-pre rounded-md border bg-muted p-3 font-mono text-xs leading-relaxed focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <code>{snippet.text}</code>
      </pre>
    </figure>
  );
}

/**
 * ConfigSnippets shows an integration's ready-to-paste configurations, its source's first (decision
 * 260), then the other formats its key takes, each with a Copy button:
 * with the key filled in while it is shown once, with KEY_PLACEHOLDER after. Long lines scroll
 * sideways inside their box (which a keyboard can focus and scroll), never the page.
 */
export function ConfigSnippets({
  integration,
  revealedKey,
}: {
  integration: Integration;
  revealedKey: string | null;
}) {
  const { own, others } = snippetsBySource(
    configSnippets(integration, revealedKey),
    integration.source,
  );
  return (
    <section aria-label={`Configuration of ${integration.name}`} className="grid min-w-0 gap-4">
      <p className="text-muted-foreground text-sm">
        {revealedKey
          ? 'Ready to paste, with the key filled in.'
          : `Ready to paste: put the key where ${KEY_PLACEHOLDER} stands. Regenerate the key if you no longer have it.`}
      </p>
      {own.map((snippet) => (
        <Snippet key={snippet.id} snippet={snippet} />
      ))}
      {others.length > 0 ? (
        <>
          {own.length > 0 ? (
            <h4 className="border-t pt-3 font-medium text-muted-foreground text-xs uppercase tracking-wider">
              {integration.hasSigningSecret
                ? 'Other formats: its key works there only without a signing secret'
                : 'Other formats this key takes'}
            </h4>
          ) : null}
          {others.map((snippet) => (
            <Snippet key={snippet.id} snippet={snippet} />
          ))}
        </>
      ) : null}
    </section>
  );
}
