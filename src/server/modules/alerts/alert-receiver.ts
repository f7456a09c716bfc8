import { IntegrationKeyGone } from '../integrations/integration-keys';
import { type Admitted, type AlertAdmission, refuseUnsigned } from './alert-admission';
import type { InboundBody } from './alert-body';
import type { AlertDeps } from './alert-deps';
import {
  type AlertReceipt,
  type FoldProbe,
  foldIntoStorms,
  foldProbeOf,
  foldReceipt,
  type InboundEvent,
  receiveAlerts,
  repeatProbeOf,
  repeatReceipt,
  touchDue,
} from './alert-intake';
import type { Wire } from './alert-paths';
import { type FoldHit, type RepeatHit, type RepeatProbe, repeatAlerts } from './alert-repository';
import { oneBatchAtATime } from './one-batch-at-a-time';

/**
 * AlertReceiver hands an admitted request's events to the intake (decision 216): a plain repeat
 * through the batched repeat statement, a new key of an integration in a storm through the
 * batched fold, anything else through receiveAlerts' full path.
 */
export class AlertReceiver {
  // The repeats that arrive while the database is busy go as one statement (decision 216), one
  // statement at a time: the repeats that arrive while a batch is in the database go as the next.
  private readonly repeats;
  // So do the new keys of an integration in an alert storm: a share of two statements each.
  private readonly folds;

  constructor(
    private readonly deps: AlertDeps,
    private readonly admission: AlertAdmission,
  ) {
    this.repeats = oneBatchAtATime<RepeatProbe, RepeatHit | undefined>((probes) =>
      repeatAlerts(deps.database.db, probes, deps.clock.now()),
    );
    this.folds = oneBatchAtATime<FoldProbe, FoldHit | undefined>((probes) =>
      foldIntoStorms(deps, probes, deps.clock.now()),
    );
  }

  /**
   * receive hands the events to the intake. A plain repeat goes through the batched repeat
   * statement, which checks the key as it writes; so does a trigger's key lock. An acknowledge or
   * resolve reads the integration's row again first if it came from memory. Either way, a key
   * regenerated or deleted since writes nothing and is answered as a wrong key.
   */
  async receive(
    admitted: Admitted,
    format: Wire,
    events: InboundEvent[],
    body: InboundBody | undefined,
  ): Promise<AlertReceipt[]> {
    const { deps, admission } = this;
    const inbound = { format, events, payload: body?.text ?? '' };
    // Unsigned: each write checks too that the integration has no signing secret (decision 235).
    const unsigned = admitted.wire !== 'grafana';
    const repeatProbe = repeatProbeOf(admitted.integration, inbound, deps.clock.now());
    const probe = repeatProbe && { ...repeatProbe, unsigned };
    if (probe) {
      const hit = await this.repeats.load(probe);
      if (hit) {
        deps.metrics?.alertsStored(format, 1);
        return [repeatReceipt(inbound, hit)];
      }
      const folded = await this.folds.load(foldProbeOf(probe, inbound));
      if (folded) {
        deps.metrics?.alertsStored(format, 1);
        return [foldReceipt(inbound, folded)];
      }
    }
    const checkedAsWritten = events.every((e) => e.action === 'trigger');
    const integration =
      admitted.fresh || checkedAsWritten
        ? admitted.integration
        : await admission.readIntegration(
            admitted.wire,
            admitted.address,
            admitted.integration.keyHash,
          );
    refuseUnsigned(admitted.wire, integration);
    const now = deps.clock.now();
    try {
      const receipts = await receiveAlerts(deps, integration, inbound, {
        repeatProbed: probe !== undefined,
        unsigned,
      });
      deps.metrics?.alertsStored(format, receipts.length);
      // The intake recorded the key's use: the remembered row says so, or each request would.
      if (touchDue(integration, now)) admission.recent.used(integration.keyHash, now);
      return receipts;
    } catch (err) {
      if (err instanceof IntegrationKeyGone) throw await admission.keyGone(admitted);
      throw err;
    }
  }
}
