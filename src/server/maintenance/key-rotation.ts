import { sql } from 'drizzle-orm';
import { normalizePhone } from '../../shared/domain/notification-routing';
import { createCipher, resolveSecrets } from '../bootstrap';
import { loadConfig } from '../core/config';
import { type FieldCipher, generateMasterKey } from '../crypto/field-crypto';
import { type Db, openDatabase, selectRows } from '../db/client';
import { allowAuditReseal } from '../modules/audit/audit-reseal';
import {
  AUDIT_REASON,
  AUDIT_TARGET_NAME,
  auditReasonCtx,
  auditTargetNameCtx,
} from '../modules/audit/audit-sealed';
import { sealClearPageContent } from '../modules/incidents/incident-text';
import { CLOSED_CODE_MEMORY_MS } from '../modules/sms-replies/reply-codes';
import { loadOrCreateDemoSecrets, saveDemoSecrets } from '../secrets';

/** Every encrypted column: table, column as stored, the name bound into the associated data. */
export const ENCRYPTED_COLUMNS = [
  { table: 'users', column: 'name_enc', field: 'name' },
  { table: 'users', column: 'email_enc', field: 'email', blindIndex: 'email_index' },
  { table: 'users', column: 'phone_enc', field: 'phone' },
  { table: 'invitations', column: 'name_enc', field: 'name' },
  { table: 'invitations', column: 'email_enc', field: 'email', blindIndex: 'email_index' },
  { table: 'invitations', column: 'token_enc', field: 'token' },
  { table: 'notifications', column: 'content_enc', field: 'content' },
  { table: 'pages', column: 'message_enc', field: 'message' },
  // An incident's own texts (decision 204, incident-text.ts)
  { table: 'pages', column: 'title_enc', field: 'title' },
  { table: 'pages', column: 'description_enc', field: 'description' },
  { table: 'pages', column: 'impact_enc', field: 'impact' },
  { table: 'pages', column: 'troubleshooting_enc', field: 'troubleshooting' },
  { table: 'integrations', column: 'signing_secret_enc', field: 'signing_secret' },
  { table: 'alerts', column: 'event_enc', field: 'event' },
  { table: 'alerts', column: 'payload_enc', field: 'payload' },
  // A person's time off: its note (issue 18, decision 217)
  { table: 'time_off', column: 'note_enc', field: 'note' },
  // Token sync's held tokens (issue 21, decision 228)
  { table: 'token_syncs', column: 'id_token_enc', field: 'id_token' },
  { table: 'token_syncs', column: 'refresh_token_enc', field: 'refresh_token' },
  // Push (issue 33, decision 253): a device's subscription and Baton's VAPID private key
  { table: 'push_subscriptions', column: 'endpoint_enc', field: 'endpoint' },
  { table: 'push_subscriptions', column: 'keys_enc', field: 'keys' },
  { table: 'push_subscriptions', column: 'name_enc', field: 'name' },
  { table: 'push_keys', column: 'private_key_enc', field: 'private_key' },
  // An import's snapshot and plan (issue 34, decision 268)
  { table: 'imports', column: 'snapshot_enc', field: 'snapshot' },
  { table: 'imports', column: 'plan_enc', field: 'plan' },
] as const;

/** Values sealed inside audit events' details (a key inside a jsonb column). */
const AUDIT_SEALED_DETAILS = [
  { jsonKey: AUDIT_TARGET_NAME.jsonKey, ctx: auditTargetNameCtx },
  // an escalation's reason, and an incident's note (decision 205), sealed the same way
  { jsonKey: AUDIT_REASON.jsonKey, ctx: auditReasonCtx },
] as const;

const BATCH = 500;

/**
 * reencryptAll re-seals every encrypted value not yet under the cipher's current key (and
 * recomputes blind indexes), in batches of one transaction each. Values under previous keys stay
 * readable throughout, so Baton can keep running. Returns how many values were rewritten.
 */
export async function reencryptAll(db: Db, cipher: FieldCipher): Promise<number> {
  const prefix = `v1.${cipher.keyId}.%`;
  // Page texts still in clear (a database not started since migration 0007) are sealed first.
  let total = await sealClearPageContent(db, cipher);
  for (const spec of ENCRYPTED_COLUMNS) {
    const table = sql.identifier(spec.table);
    const column = sql.identifier(spec.column);
    for (;;) {
      const rewritten = await db.transaction(async (tx) => {
        const rows = await selectRows<{ id: number; value: string }>(
          tx,
          sql`select id, ${column} as value from ${table}
              where ${column} is not null and ${column} not like ${prefix}
              order by id limit ${BATCH} for update`,
        );
        for (const row of rows) {
          const ctx = { table: spec.table, column: spec.field, rowId: Number(row.id) };
          const plain = cipher.decrypt(row.value, ctx);
          const sealed = cipher.encrypt(plain, ctx);
          const index =
            'blindIndex' in spec
              ? sql`, ${sql.identifier(spec.blindIndex)} = ${cipher.blindIndex(plain)}`
              : sql``;
          await tx.execute(
            sql`update ${table} set ${column} = ${sealed}${index} where id = ${row.id}`,
          );
        }
        return rows.length;
      });
      total += rewritten;
      if (rewritten < BATCH) break;
    }
  }
  total += await reencryptAuditNames(db, cipher, prefix);
  return total + (await rehashReplyCodes(db, cipher));
}

/**
 * rehashReplyCodes moves the SMS reply codes that can still be answered (open, or closed within
 * CLOSED_CODE_MEMORY_MS) to the current key's phone hash (decision 201). A code keeps only the
 * keyed hash of the number it went to, so the number is read from its person: a code whose hash
 * is their number's under a previous key is moved; one sent to a number they have changed since
 * is left as it is (its reply is then "unknown" once the previous key is dropped). Without this, a
 * reply to an SMS sent before the rotation would stop being recognised when the old key goes.
 */
async function rehashReplyCodes(db: Db, cipher: FieldCipher): Promise<number> {
  let moved = 0;
  let after = 0;
  for (;;) {
    const rows = await db.transaction(async (tx) => {
      const batch = await selectRows<{
        id: number;
        phoneHash: string;
        userId: number;
        phone: string | null;
      }>(
        tx,
        sql`select c.id, c.phone_hash as "phoneHash", c.user_id as "userId", u.phone_enc as phone
              from sms_reply_codes c join users u on u.id = c.user_id
             where c.id > ${after}
               and (c.closed_at is null
                    or c.closed_at > now() - make_interval(secs => ${CLOSED_CODE_MEMORY_MS / 1000}))
             order by c.id limit ${BATCH} for update of c`,
      );
      for (const row of batch) {
        const phone = row.phone
          ? normalizePhone(
              cipher.decrypt(row.phone, { table: 'users', column: 'phone', rowId: row.userId }),
            )
          : null;
        if (!phone) continue;
        const current = cipher.phoneIndex(phone);
        if (row.phoneHash === current || !cipher.phoneIndexes(phone).includes(row.phoneHash)) {
          continue;
        }
        await tx.execute(
          sql`update sms_reply_codes set phone_hash = ${current} where id = ${row.id}`,
        );
        moved += 1;
      }
      return batch;
    });
    if (rows.length < BATCH) break;
    after = Number(rows[rows.length - 1]?.id);
  }
  return moved;
}

/** reencryptAuditNames re-seals the values sealed in audit events' details (jsonb keys). */
async function reencryptAuditNames(db: Db, cipher: FieldCipher, prefix: string): Promise<number> {
  let total = 0;
  for (const { jsonKey, ctx: ctxOf } of AUDIT_SEALED_DETAILS) {
    for (;;) {
      const rewritten = await db.transaction(async (tx) => {
        await allowAuditReseal(tx);
        const rows = await selectRows<{ id: number; value: string }>(
          tx,
          sql`select id, details ->> ${jsonKey} as value from audit_events
              where details ->> ${jsonKey} is not null and details ->> ${jsonKey} not like ${prefix}
              order by id limit ${BATCH} for update`,
        );
        for (const row of rows) {
          const ctx = ctxOf(Number(row.id));
          const sealed = cipher.encrypt(cipher.decrypt(row.value, ctx), ctx);
          await tx.execute(
            sql`update audit_events
                   set details = jsonb_set(details, ${`{${jsonKey}}`}::text[], to_jsonb(${sealed}::text))
                 where id = ${row.id}`,
          );
        }
        return rows.length;
      });
      total += rewritten;
      if (rewritten < BATCH) break;
    }
  }
  return total;
}

export interface KeyRotationResult {
  /** values re-encrypted */
  count: number;
  /** id of the key everything is now under */
  keyId: string;
  /** the new key came from ENCRYPTION_KEY (else it was generated into DATA_DIR/secrets.json) */
  fromEnv: boolean;
}

/**
 * rotateKeys is `npm run keys:rotate`: it re-encrypts every personal value under the new key and
 * returns how many it rewrote. With ENCRYPTION_KEY configured, that is the new key and
 * ENCRYPTION_KEYS_PREVIOUS the old ones. In demo mode (the key kept in DATA_DIR/secrets.json) it
 * generates the new key itself, and forgets the old one once every value is under the new one.
 */
export async function rotateKeys(
  env: Record<string, string | undefined> = process.env,
): Promise<KeyRotationResult> {
  let config = loadConfig(env);
  const fromEnv = Boolean(config.encryptionKey);
  if (!fromEnv) {
    const secrets = await loadOrCreateDemoSecrets(config.dataDir);
    // Write the new key first, keeping the old one readable, so a crash midway loses nothing.
    secrets.previousEncryptionKeys = [secrets.encryptionKey, ...secrets.previousEncryptionKeys];
    secrets.encryptionKey = generateMasterKey();
    await saveDemoSecrets(config.dataDir, secrets);
  }
  config = (await resolveSecrets(config)).config;
  const cipher = createCipher(config);
  const database = await openDatabase(config);
  try {
    await database.migrate();
    const count = await reencryptAll(database.db, cipher);
    if (!fromEnv) {
      const secrets = await loadOrCreateDemoSecrets(config.dataDir);
      secrets.previousEncryptionKeys = [];
      await saveDemoSecrets(config.dataDir, secrets);
    }
    return { count, keyId: cipher.keyId, fromEnv };
  } finally {
    await database.close();
  }
}
