import type { FastifyRequest } from 'fastify';
import { ErrorCodes } from '../../../shared/contracts/errors';
import { INTEGRATION_MESSAGES } from '../../../shared/contracts/integrations';
import type { AppDeps } from '../../core/deps';
import {
  findIntegrationByKeyHash,
  hashIntegrationKey,
  type IntegrationRow,
  RecentIntegrations,
} from '../integrations/integration-keys';
import type { Wire } from './alert-paths';
import { AlertRefusal, guessRefusal, keyRefusal } from './alert-refusals';
import {
  checkGrafanaSignature,
  GRAFANA_SIGNATURE_HEADER,
  GRAFANA_TIMESTAMP_HEADER,
} from './grafana-signature';
import { KeyGuesses } from './key-guesses';
import { KeyRateLimiter } from './key-rate-limiter';

/** What admit answers: the integration, and whether its row was read for this request. */
export interface Admitted {
  wire: Wire;
  /** the client's address (its wrong keys are counted: decision 235) */
  address: string;
  integration: IntegrationRow;
  /** false: the row is one this process read within the minute (RecentIntegrations) */
  fresh: boolean;
}

/**
 * AlertAdmission decides whether an inbound alert request may in (issue 17, decisions 211, 216 and
 * 235): the integration found by its key (from the one-minute memory of rows read, or the
 * database), the client's wrong keys counted, a signed integration's key kept to the Grafana
 * endpoint, and each integration's rate. Each refusal is thrown before anything is written.
 */
export class AlertAdmission {
  private readonly limiter: KeyRateLimiter;
  private readonly guesses: KeyGuesses;
  /** The key cache: rows read within the minute (every write still checks the key itself). */
  readonly recent = new RecentIntegrations();

  constructor(private readonly deps: AppDeps) {
    this.limiter = new KeyRateLimiter(deps.clock);
    this.guesses = new KeyGuesses(
      { db: deps.database.db, cipher: deps.cipher, clock: deps.clock },
      deps.config.alertKeyGuessLimit,
    );
  }

  /**
   * admit finds the integration of `key`, runs `verify` (Grafana's signature) and counts the
   * request against the integration's rate; it throws the refusal otherwise. A client past the
   * limit of wrong keys is refused whatever its key (decision 235), and the key of an integration
   * with a signing secret opens only the Grafana endpoint, which checks the signature. A key used
   * within the minute is answered from the row read then (never when `verify` needs the stored
   * secret).
   */
  async admit(
    req: FastifyRequest,
    wire: Wire,
    key: string | undefined,
    verify?: (integration: IntegrationRow) => void,
  ): Promise<Admitted> {
    const address = req.ip;
    const blocked = this.guesses.waitOf(address);
    if (blocked > 0) throw guessRefusal(blocked);
    if (key === undefined || key.trim() === '') throw keyRefusal(wire, 'keyMissing');
    if (key.length > 200) throw await this.wrongKey(wire, address);
    const keyHash = hashIntegrationKey(key);
    const known = verify ? undefined : this.recent.get(keyHash, this.deps.clock.now());
    const integration = known ?? (await this.readIntegration(wire, address, keyHash));
    refuseUnsigned(wire, integration);
    verify?.(integration);
    const wait = this.limiter.take(integration.id, integration.rateLimit);
    if (wait > 0) {
      throw new AlertRefusal(
        429,
        ErrorCodes.RATE_LIMITED,
        INTEGRATION_MESSAGES.rateLimited(integration.rateLimit),
        undefined,
        wait,
      );
    }
    return { wire, address, integration, fresh: known === undefined };
  }

  /** readIntegration reads the integration of a key hash, or throws the wrong-key refusal. */
  async readIntegration(wire: Wire, address: string, keyHash: string): Promise<IntegrationRow> {
    const integration = await findIntegrationByKeyHash(this.deps.database.db, keyHash);
    if (!integration) throw await this.wrongKey(wire, address);
    this.recent.remember(integration, this.deps.clock.now());
    return integration;
  }

  /**
   * keyGone answers a key that no longer opened its integration as the write checked it: signed
   * only now (a secret set since its row was read, on any instance), or a wrong key.
   */
  async keyGone(admitted: Admitted): Promise<AlertRefusal> {
    const now = await findIntegrationByKeyHash(this.deps.database.db, admitted.integration.keyHash);
    if (now) {
      this.recent.remember(now, this.deps.clock.now());
      if (admitted.wire !== 'grafana' && now.signingSecretEnc !== null) {
        return keyRefusal(admitted.wire, 'signedOnly');
      }
    }
    return this.wrongKey(admitted.wire, admitted.address);
  }

  /**
   * wrongKey counts a client's wrong key and answers the refusal: the wrong key's, or 429 once
   * the client passes the limit (decision 235).
   */
  private async wrongKey(wire: Wire, address: string): Promise<AlertRefusal> {
    const wait = await this.guesses.wrongKey(address);
    return wait > 0 ? guessRefusal(wait) : keyRefusal(wire, 'keyUnknown');
  }
}

/**
 * refuseUnsigned: a signing secret binds the whole key (decision 235). Only the Grafana endpoint
 * checks a signature; on every other, the key of an integration with a secret is refused.
 */
export function refuseUnsigned(wire: Wire, integration: IntegrationRow): void {
  if (wire !== 'grafana' && integration.signingSecretEnc !== null) {
    throw keyRefusal(wire, 'signedOnly');
  }
}

/**
 * grafanaSignatureOf: admit's `verify` for the Grafana endpoint. An integration with a signing
 * secret takes only a request signed with it (checkGrafanaSignature); it throws the 401 otherwise.
 */
export function grafanaSignatureOf(deps: AppDeps, req: FastifyRequest, body: string) {
  return (found: IntegrationRow): void => {
    if (found.signingSecretEnc === null) return;
    const secret = deps.cipher.decrypt(found.signingSecretEnc, {
      table: 'integrations',
      column: 'signing_secret',
      rowId: found.id,
    });
    const check = checkGrafanaSignature({
      secret,
      body,
      signature: req.headers[GRAFANA_SIGNATURE_HEADER],
      timestamp: req.headers[GRAFANA_TIMESTAMP_HEADER],
      now: deps.clock.now(),
    });
    if (check !== 'ok') {
      throw new AlertRefusal(
        401,
        ErrorCodes.UNAUTHENTICATED,
        check === 'missing'
          ? INTEGRATION_MESSAGES.signatureRequired
          : INTEGRATION_MESSAGES.signatureWrong,
      );
    }
  };
}
