import type { Integration } from '@shared/contracts/integrations';
import { SecretValue, ShownOncePanel } from '@/components/shown-once-panel';
import { sourceUrl } from '../lib/config-snippets';

/**
 * KeyPanel shows an integration's key the one time the server answers it (made or regenerated),
 * with where its source sends (decision 260); it stays until the user says they have copied it.
 */
export function KeyPanel({
  integration,
  keyText,
  onDone,
}: {
  integration: Integration;
  keyText: string;
  onDone: () => void;
}) {
  const where = sourceUrl(integration.source, integration.endpoints, keyText);
  return (
    <ShownOncePanel label={`Key of ${integration.name}`} what="key" onDone={onDone}>
      <p>
        Baton keeps only a hash of it. The configurations below have it filled in until you hide it.
      </p>
      <SecretValue label="Integration key" value={keyText} copyLabel="Copy key" />
      <SecretValue
        label={where.label}
        value={where.value}
        copyLabel={where.label === 'Address' ? 'Copy address' : 'Copy URL'}
      />
    </ShownOncePanel>
  );
}
