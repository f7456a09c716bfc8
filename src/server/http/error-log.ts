import { DrizzleQueryError } from 'drizzle-orm';
import { stdSerializers } from 'pino';

/**
 * What a log line says about an error (decision 167). A failed query's error carries the query's
 * parameters (Drizzle's message is "Failed query: … params: …", PGlite's error keeps `params`,
 * PostgreSQL's `detail` quotes the row), and those parameters are what people typed: names,
 * notes, page messages. So an error caused by the database is logged by the statement's name
 * (its verb and table, e.g. "insert handoffs") and PostgreSQL's error code, constraint, table and
 * column, never by its text or its values. Other errors are logged as pino logs them.
 */

interface LoggedDatabaseError {
  /** verb and table of the failed statement, or the prepared statement's name */
  statement: string | null;
  /** SQLSTATE (23505, 22021 …) or the driver's code (ECONNREFUSED) */
  code: string | null;
  constraint?: string;
  table?: string;
  column?: string;
}

export interface LoggedError {
  type: string;
  message: string;
  stack: string;
  database?: LoggedDatabaseError;
  aggregateErrors?: unknown[];
  [key: string]: unknown;
}

/** serializeLoggedError is the logger's `err` serializer: database errors without their values. */
export function serializeLoggedError(err: Error): LoggedError {
  // pino calls it with whatever was logged under `err`.
  if (!(err instanceof Error)) return err as unknown as LoggedError;
  const chain = causeChain(err);
  const failedQuery = chain.find(isQueryError);
  if (!failedQuery) {
    if (err instanceof AggregateError && err.errors.some((e) => e instanceof Error)) {
      return {
        ...stdSerializers.err(err),
        aggregateErrors: err.errors.map(serializeLoggedError),
      } as LoggedError;
    }
    return stdSerializers.err(err) as LoggedError;
  }
  // The messages of the errors around the database's (an engine task's "failed: …") may repeat
  // its text: every database message in the chain is cut out of them.
  const secretTexts = chain.filter(isQueryError).map((e) => e.message);
  const redact = (message: string) =>
    secretTexts
      .reduce((m, secret) => (secret ? m.split(secret).join('<database error>') : m), message)
      .split('\nparams:')[0];
  const messages = chain
    .filter((e) => !isQueryError(e))
    .map((e) => redact(e.message))
    .filter(Boolean);
  const driver = chain.find((e) => e !== failedQuery && isQueryError(e)) ?? failedQuery;
  const fields = driver as unknown as Record<string, unknown>;
  const database: LoggedDatabaseError = {
    statement: statementName(failedQuery),
    code: firstString(chain, 'code'),
  };
  for (const key of ['constraint', 'table', 'column'] as const) {
    if (typeof fields[key] === 'string') database[key] = fields[key] as string;
  }
  const logged: LoggedError = {
    type: err.constructor?.name ?? err.name,
    message: [...messages, `database error ${database.code ?? 'without a code'}`].join(': '),
    // The frames only: the stack's first lines repeat the message.
    stack: (err.stack ?? '')
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n'),
    database,
  };
  if (err instanceof AggregateError) logged.aggregateErrors = err.errors.map(serializeLoggedError);
  return logged;
}

function causeChain(err: Error): Error[] {
  const chain: Error[] = [];
  for (let e: unknown = err; e instanceof Error && !chain.includes(e); e = e.cause) chain.push(e);
  return chain;
}

/** isQueryError tells whether an error comes from the database or its driver, for one query. */
function isQueryError(e: Error): boolean {
  if (e instanceof DrizzleQueryError) return true;
  const fields = e as unknown as Record<string, unknown>;
  // node-postgres' and PGlite's DatabaseError: a SQLSTATE with a severity; PGlite adds the query.
  if (typeof fields.severity === 'string' && typeof fields.code === 'string') return true;
  return typeof fields.query === 'string' && 'params' in fields;
}

function firstString(chain: Error[], key: string): string | null {
  for (const e of chain) {
    const value = (e as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string' && value) return value;
  }
  return null;
}

/** statementName returns "verb table" of the failed query, e.g. "update rotations". */
export function statementName(err: Error): string | null {
  const fields = err as unknown as Record<string, unknown>;
  const options = fields.queryOptions as { name?: unknown } | undefined;
  if (typeof options?.name === 'string') return options.name;
  const query = typeof fields.query === 'string' ? fields.query : null;
  if (!query) return null;
  const sqlText = query.replace(/\s+/g, ' ').trim();
  const verb = /^(with|select|insert|update|delete|begin|commit|rollback|set|create|alter|drop)\b/i
    .exec(sqlText)?.[1]
    ?.toLowerCase();
  if (!verb) return 'statement';
  const before: Record<string, string> = {
    insert: '^insert into',
    update: '^update',
    delete: '^delete from',
  };
  const target = new RegExp(`${before[verb] ?? '\\bfrom'} ("[^"]+"|[a-z_][a-z0-9_]*)`, 'i').exec(
    sqlText,
  );
  return target ? `${verb} ${target[1].replaceAll('"', '')}` : verb;
}
