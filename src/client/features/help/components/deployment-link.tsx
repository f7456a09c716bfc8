import type { HelpLinks } from '@shared/contracts/help';
import type { ReactNode } from 'react';
import { useHelpLinks } from '../api/get-help-links';

/**
 * DeploymentLink is an inline link to one of the deployment's help links (the users forum, the
 * bug backlog; decision 184), opening in a new tab. Until the server has said where it points,
 * its words show as plain text rather than a link to a guessed address.
 */
export function DeploymentLink({ link, children }: { link: keyof HelpLinks; children: ReactNode }) {
  const href = useHelpLinks().data?.[link];
  if (!href) return <>{children}</>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
