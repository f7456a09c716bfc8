// The oidc-provider package ships no types; these cover what tests/setup/oidc-provider.ts uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Interaction {
    uid: string;
    params: Record<string, unknown>;
  }
  interface Account {
    accountId: string;
    claims: () => Promise<Record<string, unknown>>;
  }
  class Grant {
    constructor(options: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  class Prompt {
    constructor(options: { name: string; requestable: boolean });
  }
  interface Policy {
    add(prompt: Prompt, index?: number): void;
  }
  export const interactionPolicy: { base(): Policy; Prompt: typeof Prompt };
  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined>;
        interactions?: { policy: Policy; url: (ctx: unknown, interaction: Interaction) => string };
      },
    );
    Grant: typeof Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
