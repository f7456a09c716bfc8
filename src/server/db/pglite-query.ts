import {
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
  types,
} from '@electric-sql/pglite';

/**
 * One statement as PGlite runs it, in one call into PostgreSQL instead of six, prepared once by its
 * text (decision 292).
 *
 * PGlite's own `query` sends the extended protocol's messages one call at a time (parse, describe
 * the statement, bind, describe the portal, execute, sync), parses and plans the statement every
 * time (its statements are unnamed), and asks for the statement's description only to learn the
 * parameters' types so it can turn each value into text. And when a caller gives result parsers
 * of its own, as Drizzle does on every statement (timestamps kept as text), it copies its table of
 * some 320 parsers into a new object for each statement (docs/performance.md, "Statements prepared
 * in one call").
 *
 * Here a statement's first run parses it under a name, and every run binds that name, describes
 * the portal, executes and syncs, all in one buffer, which PostgreSQL answers message by message as
 * it would over a socket. The parameters become text without their types, as node-postgres sends
 * them to a PostgreSQL server: every statement Baton runs is also run on PostgreSQL through
 * node-postgres (the API suite's second run), so a value both engines accept is written the way
 * both read it. The caller's parsers are laid over PGlite's table by a prototype instead of a copy.
 *
 * What this does not cover goes to PGlite's own `query`: a statement with a blob (COPY), with
 * parameter types given, or with notice handlers.
 */
export interface FusedQuery {
  /** a statement outside a transaction, as `PGlite.query` */
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  /** a transaction's `tx`, whose statements go the same way */
  inTransaction(tx: Transaction): Transaction;
}

/** PGlite's locks, which its own `query` and `transaction` take (they are public, not documented) */
interface PGliteLocks {
  _checkReady(): Promise<void>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

export function fusedQuery(client: PGlite): FusedQuery {
  const locks = client as unknown as PGliteLocks;
  /** the caller's parsers laid over PGlite's */
  const parsersFor = (options?: QueryOptions): Parameters<typeof parse.parseResults>[1] =>
    options?.parsers
      ? Object.assign(Object.create(client.parsers), options.parsers)
      : client.parsers;

  const prepared = new PreparedStatements();

  const run = async <T>(
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    inTransaction: boolean,
  ): Promise<Results<T>> => {
    const { name, parse: mustParse } = prepared.use(text);
    const closing = inTransaction ? [] : prepared.takeClosing();
    const message = statementMessage(text, params, { name, parse: mustParse, closing });
    let messages: Awaited<ReturnType<PGlite['execProtocolStream']>>;
    try {
      messages = await client.execProtocolStream(message, { syncToFs: !inTransaction });
    } catch (err) {
      // Prepared again on its next run: whatever failed may have been the statement itself.
      prepared.forget(text);
      // As PGlite's own query: the statement and its parameters on the error.
      if (err instanceof Error && 'code' in err) {
        Object.assign(err, { query: text, params, queryOptions: options });
      }
      throw err;
    }
    const rowMode = options?.rowMode;
    return parse.parseResults(
      messages,
      parsersFor(options),
      rowMode ? { rowMode } : undefined,
    )[0] as Results<T>;
  };

  return {
    query: async (text, params = [], options) => {
      if (!coveredBy(options)) return client.query(text, params, options);
      await locks._checkReady();
      return locks._runExclusiveTransaction(() =>
        locks._runExclusiveQuery(() => run(text, params, options, false)),
      );
    },
    inTransaction: (tx) =>
      new Proxy(tx, {
        get(target, key) {
          if (key !== 'query') return Reflect.get(target, key);
          return <T>(text: string, params: unknown[] = [], options?: QueryOptions) => {
            if (!coveredBy(options)) return target.query<T>(text, params, options);
            if (target.closed) return Promise.reject(new Error('Transaction is closed'));
            return locks._runExclusiveQuery(() => run<T>(text, params, options, true));
          };
        },
      }),
  };
}

/** coveredBy: whether a statement's options are ones this path runs as PGlite would */
function coveredBy(options?: QueryOptions): boolean {
  if (!options) return true;
  for (const key of Object.keys(options)) {
    if (key !== 'rowMode' && key !== 'parsers') return false;
  }
  return true;
}

const { serialize } = protocol;

/** the most statements kept prepared on the connection: the least recently run go first */
export const PREPARED_LIMIT = 500;

/** a connection's names: each FusedQuery's statements have names no other one uses */
let connections = 0;

/**
 * PreparedStatements: the statements prepared on PGlite's connection, by their text, the least
 * recently run first, and those to close (evicted or failed) with the next message sent outside a
 * transaction. Closing a statement that is not there is no error in PostgreSQL.
 */
export class PreparedStatements {
  readonly #names = new Map<string, string>();
  #closing: string[] = [];
  #count = 0;
  readonly #prefix = `baton${++connections}_`;

  constructor(readonly limit = PREPARED_LIMIT) {}

  /** use: the statement's name, and whether this message must prepare it */
  use(text: string): { name: string; parse: boolean } {
    const known = this.#names.get(text);
    if (known !== undefined) {
      this.#names.delete(text);
      this.#names.set(text, known);
      return { name: known, parse: false };
    }
    const name = `${this.#prefix}${++this.#count}`;
    this.#names.set(text, name);
    if (this.#names.size > this.limit) {
      const [oldest, oldestName] = this.#names.entries().next().value as [string, string];
      this.#names.delete(oldest);
      this.#closing.push(oldestName);
    }
    return { name, parse: true };
  }

  /** forget: the statement is prepared again when it next runs (it failed) */
  forget(text: string): void {
    const name = this.#names.get(text);
    if (name === undefined) return;
    this.#names.delete(text);
    this.#closing.push(name);
  }

  /** takeClosing: the names to close now, outside a transaction */
  takeClosing(): string[] {
    const closing = this.#closing;
    this.#closing = [];
    return closing;
  }

  get size(): number {
    return this.#names.size;
  }
}

/**
 * statementMessage: in one buffer, the statements to close, the statement prepared under its name
 * when new, then bind, describe the portal, execute and sync.
 */
export function statementMessage(
  text: string,
  params: unknown[],
  statement: { name: string; parse: boolean; closing: readonly string[] },
): Uint8Array {
  const parts = statement.closing.map((name) => serialize.close({ type: 'S', name }));
  if (statement.parse) parts.push(serialize.parse({ name: statement.name, text }));
  parts.push(
    serialize.bind({ statement: statement.name, values: params.map(toText) }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  );
  let length = 0;
  for (const part of parts) length += part.length;
  const message = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
}

/**
 * toText: a parameter as PostgreSQL's text input, as node-postgres writes it (its
 * `prepareValue`), but for a date, written as an instant in UTC (`toISOString`) as PGlite writes
 * it, and a boolean as PostgreSQL's own literal.
 */
export function toText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (Array.isArray(value)) return types.arraySerializer(value, arrayElement, 0);
  return JSON.stringify(value, (_, inner) =>
    typeof inner === 'bigint' ? inner.toString() : inner,
  );
}

/** an array's element: its text, which arraySerializer quotes and escapes */
function arrayElement(value: unknown): string {
  return toText(value) ?? 'NULL';
}
