import { sql } from 'drizzle-orm';
import type { AuditIntegrity } from '../../../shared/contracts/debug';
import {
  type FieldCipher,
  type FieldContext,
  FieldDecryptionError,
} from '../../crypto/field-crypto';
import { type Db, selectRows } from '../../db/client';
import {
  AUDIT_REASON,
  AUDIT_TARGET_NAME,
  auditReasonCtx,
  auditTargetNameCtx,
} from './audit-sealed';

/**
 * The audit trail's hash chain (decision 172, migration 0006). The database writes it: an insert
 * trigger gives every event the next position (chain_seq), the previous event's hash (prev_hash)
 * and its own hash, `audit_event_digest`, a SHA-256 over its fields and prev_hash. This module
 * only reads and verifies it.
 */

/** The previous hash of the chain's first event. */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

type Broken = NonNullable<AuditIntegrity['firstBroken']>;

interface ChainRow {
  id: string | number;
  chain_seq: string | number;
  prev_hash: string;
  hash: string;
  digest: string;
  sealed: string | null;
  sealed_reason: string | null;
}

/**
 * verifyAuditChain walks the audit trail in chain order, in batches, inside one read-only
 * snapshot, and returns how many events verified and the first broken link: an event changed
 * (its hash no longer matches its fields), an event out of line (its previous hash is not the
 * one before it), a deleted event (a position missing), a sealed name that does not open, or a
 * head that does not name the last event (events deleted from the end).
 */
export async function verifyAuditChain(
  db: Db,
  cipher: FieldCipher,
  options: { batch?: number } = {},
): Promise<Omit<AuditIntegrity, 'durationMs' | 'checkedAt'>> {
  const batch = options.batch ?? 2000;
  return db.transaction(
    async (tx) => {
      const [headRow] = await selectRows<{ seq: string | number; hash: string }>(
        tx,
        sql`select seq, hash from audit_chain_head where id = 1`,
      );
      const head = headRow
        ? { seq: Number(headRow.seq), hash: headRow.hash }
        : { seq: 0, hash: AUDIT_GENESIS_HASH };
      let checked = 0;
      let lastSeq = 0;
      let lastHash = AUDIT_GENESIS_HASH;
      let lastId: number | null = null;
      const broken = (b: Broken) => ({
        status: 'broken' as const,
        eventsChecked: checked,
        head,
        firstBroken: b,
      });

      for (;;) {
        const rows = await selectRows<ChainRow>(
          tx,
          sql`select e.id, e.chain_seq, e.prev_hash, e.hash, audit_event_digest(e) as digest,
                     e.details ->> ${AUDIT_TARGET_NAME.jsonKey} as sealed,
                     e.details ->> ${AUDIT_REASON.jsonKey} as sealed_reason
                from audit_events e
               where e.chain_seq > ${lastSeq}
               order by e.chain_seq
               limit ${batch}`,
        );
        for (const row of rows) {
          const id = Number(row.id);
          const seq = Number(row.chain_seq);
          const expected = lastSeq + 1;
          if (seq > head.seq) {
            return broken({
              kind: 'head',
              chainSeq: seq,
              eventId: id,
              message: `Event ${id} is at position ${seq}, after the chain head (${head.seq}): it was written around the trigger.`,
            });
          }
          if (seq !== expected) {
            return broken({
              kind: 'missing',
              chainSeq: expected,
              eventId: null,
              message: `Position ${expected} of the chain has no event: ${seq - expected === 1 ? 'an event was' : `${seq - expected} events were`} deleted before event ${id}.`,
            });
          }
          if (row.prev_hash !== lastHash) {
            return broken({
              kind: 'unlinked',
              chainSeq: seq,
              eventId: id,
              message: `Event ${id} (position ${seq}) does not follow the event before it: its previous hash is not that event's hash.`,
            });
          }
          if (row.digest !== row.hash) {
            return broken({
              kind: 'altered',
              chainSeq: seq,
              eventId: id,
              message: `Event ${id} (position ${seq}) was changed after it was written: its fields no longer give its hash.`,
            });
          }
          if (
            (row.sealed !== null && !opens(cipher, auditTargetNameCtx(id), row.sealed)) ||
            (row.sealed_reason !== null && !opens(cipher, auditReasonCtx(id), row.sealed_reason))
          ) {
            return broken({
              kind: 'sealed',
              chainSeq: seq,
              eventId: id,
              message: `Event ${id} (position ${seq}) holds a sealed value (a name or a reason) that does not open for it: altered, or moved from another event.`,
            });
          }
          checked += 1;
          lastSeq = seq;
          lastHash = row.hash;
          lastId = id;
        }
        if (rows.length < batch) break;
      }

      if (lastSeq !== head.seq || lastHash !== head.hash) {
        return broken({
          kind: 'head',
          chainSeq: lastSeq + 1,
          eventId: null,
          message:
            lastSeq < head.seq
              ? `The chain head is at position ${head.seq} but the last event is at ${lastSeq}${lastId === null ? '' : ` (event ${lastId})`}: events at the end were deleted.`
              : `The chain head's hash is not the hash of the last event${lastId === null ? '' : ` (event ${lastId})`}.`,
        });
      }
      return { status: 'intact' as const, eventsChecked: checked, head, firstBroken: null };
    },
    // One snapshot for the whole walk: events committed meanwhile are neither half-seen nor
    // mistaken for events written around the trigger.
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

function opens(cipher: FieldCipher, ctx: FieldContext, sealed: string): boolean {
  try {
    cipher.decrypt(sealed, ctx);
    return true;
  } catch (err) {
    if (err instanceof FieldDecryptionError) return false;
    throw err;
  }
}
