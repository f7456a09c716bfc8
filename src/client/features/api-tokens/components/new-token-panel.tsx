import type { CreatedApiToken } from '@shared/contracts/api-tokens';
import { SecretValue, ShownOncePanel } from '@/components/shown-once-panel';

/**
 * NewTokenPanel shows a token the one time the server answers it, with a copy button and how to
 * send it; it stays (in memory only) until the person says they have copied it.
 */
export function NewTokenPanel({ token, onDone }: { token: CreatedApiToken; onDone: () => void }) {
  return (
    <ShownOncePanel label={`New API token ${token.name}`} what="token" onDone={onDone}>
      <p>
        Baton keeps only a hash of it. Send it as <code>Authorization: Bearer &lt;token&gt;</code>
        {'; it acts as you, '}
        {token.scope === 'read' ? 'for reading only' : 'reading and writing'}.
      </p>
      <SecretValue value={token.token} copyLabel="Copy token" />
    </ShownOncePanel>
  );
}
