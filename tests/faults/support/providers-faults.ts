/**
 * What a faulty provider does with one request. A fixed share of requests fails, in three
 * ways: an error answer (worth retrying), a timeout (no answer, nothing delivered), and the
 * worst one, an accepted message whose answer is lost (delivered, but the sender times out and
 * will send it again: a provider that drops repeats by key delivers it once, as these fakes do;
 * real SMS and SMTP providers deliver it twice).
 */
export type Fault = 'none' | 'error' | 'timeout' | 'accepted-timeout';

export interface FaultPlan {
  /** share of requests that fail, split evenly over the three kinds */
  failureRate: number;
  random: () => number;
  /**
   * Unset: a request that gets no answer hangs until the client gives up (its timeout). Set: the
   * provider cuts the connection this long after, still without an answer, so a client with long
   * timeouts (Baton's defaults: 15 s for SMTP, 10 s for SMS) learns of the lost answer sooner.
   * Either way the sender does not know whether the message went out.
   */
  dropAfterMs?: number;
}

export function pickFault(plan: FaultPlan): Fault {
  const r = plan.random();
  if (r >= plan.failureRate) return 'none';
  const kinds: Fault[] = ['error', 'timeout', 'accepted-timeout'];
  return kinds[Math.min(2, Math.floor((r / plan.failureRate) * 3))];
}

/** seededRandom is mulberry32: the same seed gives the same fault sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a provider saw: every request by outcome, and the messages it delivered, by key. */
export class ProviderLog<M> {
  readonly outcomes: Record<'delivered' | 'repeat' | 'refused' | Exclude<Fault, 'none'>, number> = {
    delivered: 0,
    repeat: 0,
    refused: 0,
    error: 0,
    timeout: 0,
    'accepted-timeout': 0,
  };
  /** permanent refusals by recipient (a refused recipient must not be tried again) */
  readonly refusals = new Map<string, number>();
  /** every message that reached its recipient, in order */
  readonly deliveries: { key: string; message: M }[] = [];
  /** the answer given for each idempotency key delivered (a repeat gets the same answer) */
  readonly answers = new Map<string, string>();
  /** requests that carried no idempotency key (a provider cannot drop their repeats) */
  unkeyed = 0;
  /** requests that reached the provider, by idempotency key, whatever their outcome */
  readonly requestsByKey = new Map<string, number>();

  /** counts a request under its key, before its outcome is drawn */
  requested(key: string): void {
    this.requestsByKey.set(key, (this.requestsByKey.get(key) ?? 0) + 1);
  }

  refuse(recipient: string): void {
    this.outcomes.refused += 1;
    this.refusals.set(recipient, (this.refusals.get(recipient) ?? 0) + 1);
  }

  get requests(): number {
    return Object.values(this.outcomes).reduce((a, b) => a + b, 0);
  }
}
