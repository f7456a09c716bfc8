import type { Integration } from '@shared/contracts/integrations';
import { SecretValue, ShownOncePanel } from '@/components/shown-once-panel';

/**
 * KeyPanel shows an integration's key the one time the server answers it (made or regenerated),
 * with the Events API URL most senders need; it stays until the user says they have copied it.
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
  return (
    <ShownOncePanel label={`Key of ${integration.name}`} what="key" onDone={onDone}>
      <p>
        Baton keeps only a hash of it. The configurations below have it filled in until you hide it.
      </p>
      <SecretValue label="Integration key" value={keyText} copyLabel="Copy key" />
      <SecretValue
        label="URL (PagerDuty Events API v2)"
        value={integration.endpoints.pagerduty}
        copyLabel="Copy URL"
      />
    </ShownOncePanel>
  );
}
