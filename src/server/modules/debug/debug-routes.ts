import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import {
  type AuditIntegrity,
  AuditIntegritySchema,
  type ClientCheck,
  ClientCheckSchema,
  type DatabaseDiagnostics,
  DatabaseDiagnosticsSchema,
  DEBUG_SAMPLE_SIZE,
  DEBUG_WITHHELD,
  type DebugEnvironment,
  type DirectRotations,
  DirectRotationsSchema,
  type ProductionFiltering,
  ProductionFilteringSchema,
  type RotationsCompare,
  RotationsCompareSchema,
  type WithheldField,
} from '../../../shared/contracts/debug';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { permitted } from '../../http/request-context';
import { verifyAuditChain } from '../audit/audit-chain';
import {
  fieldDifferences,
  type RotationsRead,
  readDatabaseFacts,
  readRotationsDirect,
  readRotationsStorage,
} from './debug-repository';

/**
 * Administrators' diagnostics (specification section 7). Read-only, from the live database. They
 * never reveal a secret: the database is named without credentials (Database.location) and the
 * encryption key appears only as available or not. In production the host's name, where the data
 * lives and the database version read `withheld` unless the operator sets DEBUG_DETAILS=1, and
 * each answer lists what it withheld (decision 173).
 */
export async function debugRoutes(
  app: FastifyInstance,
  deps: AppDeps & {
    /** the diagnostics' storage read (absent: the one GET /api/rotations uses); tests replace it */
    rotationsStorageRead?: RotationsRead;
  },
) {
  const diagnostics = diagnosticsOf(deps);
  rotationDiagnosticRoutes(app, diagnostics);
  systemDiagnosticRoutes(app, diagnostics);
}

/** diagnosticsOf: what every diagnostic reads, and how it withholds a detail in production. */
function diagnosticsOf(deps: AppDeps & { rotationsStorageRead?: RotationsRead }) {
  const { config, database } = deps;
  const { db } = database;
  const readStorage = deps.rotationsStorageRead ?? readRotationsStorage;

  // A detail that helps an attacker map the deployment: shown only when config.debugDetails.
  const detail = (value: () => string) => (config.debugDetails ? value() : DEBUG_WITHHELD);
  const withheld = (...fields: WithheldField[]): WithheldField[] =>
    config.debugDetails ? [] : fields;
  const dbHost = () => detail(() => database.location);

  const environment = (): DebugEnvironment => ({
    nodeEnv: config.nodeEnv,
    hostname: detail(os.hostname),
    dbHost: dbHost(),
    encryptionKeyAvailable: Boolean(config.encryptionKey),
  });
  return { deps, db, readStorage, detail, withheld, dbHost, environment };
}

type Diagnostics = ReturnType<typeof diagnosticsOf>;

/** rotationDiagnosticRoutes: the rotations read directly and as GET /api/rotations reads them. */
function rotationDiagnosticRoutes(app: FastifyInstance, diagnostics: Diagnostics) {
  const { deps, db, readStorage, dbHost, environment, withheld } = diagnostics;
  const { config } = deps;
  app.get(
    '/api/debug/rotations-compare',
    {
      preValidation: permitted('debug.view'),
      schema: { response: answers({ 200: RotationsCompareSchema }, 401, 403) },
    },
    async (): Promise<RotationsCompare> => {
      const [direct, storage] = await Promise.all([readRotationsDirect(db), readStorage(db)]);
      const storageById = new Map(storage.map((r) => [r.id, r]));
      const directIds = new Set(direct.map((r) => r.id));
      const differences = direct.flatMap((d) => {
        const s = storageById.get(d.id);
        if (!s) return [];
        const fields = fieldDifferences(d, s);
        return fields.length > 0 ? [{ id: d.id, differences: fields, direct: d, storage: s }] : [];
      });
      const onlyInDirect = direct.filter((r) => !storageById.has(r.id)).map((r) => r.id);
      const onlyInStorage = storage.filter((r) => !directIds.has(r.id)).map((r) => r.id);
      return {
        summary: {
          directCount: direct.length,
          storageCount: storage.length,
          match:
            direct.length === storage.length &&
            onlyInDirect.length === 0 &&
            onlyInStorage.length === 0 &&
            differences.length === 0,
        },
        idComparison: { onlyInDirect, onlyInStorage },
        environment: environment(),
        fieldDifferences: differences,
        samples: {
          directFirst: direct.slice(0, DEBUG_SAMPLE_SIZE),
          storageFirst: storage.slice(0, DEBUG_SAMPLE_SIZE),
        },
        withheld: withheld('hostname', 'dbHost'),
      };
    },
  );

  app.get(
    '/api/debug/production-filtering',
    {
      preValidation: permitted('debug.view'),
      schema: { response: answers({ 200: ProductionFilteringSchema }, 401, 403) },
    },
    async (): Promise<ProductionFiltering> => {
      const [direct, storage] = await Promise.all([readRotationsDirect(db), readStorage(db)]);
      const suspended = direct.filter((r) => r.suspended).length;
      const storageSuspended = storage.filter((r) => r.suspended).length;
      return {
        environment: { environment: config.nodeEnv, dbHost: dbHost() },
        rotationsStats: {
          total: direct.length,
          active: direct.length - suspended,
          suspended,
          percentSuspended:
            direct.length === 0 ? 0 : Math.round((suspended / direct.length) * 1000) / 10,
        },
        potentialFilteringIssues: {
          hasFilteringSuspended: storageSuspended < suspended,
          hasFilteringProduction: config.isProduction && storage.length < direct.length,
        },
        allRotationsWithStatus: direct.map((r) => ({
          id: r.id,
          name: r.name,
          status: r.suspended ? 'suspended' : 'active',
        })),
        withheld: withheld('dbHost'),
      };
    },
  );

  app.get(
    '/api/debug/rotations',
    {
      preValidation: permitted('debug.view'),
      schema: { response: answers({ 200: DirectRotationsSchema }, 401, 403) },
    },
    async (): Promise<DirectRotations> => {
      const rotations = await readRotationsDirect(db);
      return { source: 'direct-sql', count: rotations.length, rotations };
    },
  );
}

/** systemDiagnosticRoutes: the database, what the client receives, and the audit chain. */
function systemDiagnosticRoutes(app: FastifyInstance, diagnostics: Diagnostics) {
  const { deps, db, readStorage, detail, dbHost, withheld } = diagnostics;
  const { config, database, clock } = deps;
  app.get(
    '/api/debug/database',
    {
      preValidation: permitted('debug.view'),
      schema: { response: answers({ 200: DatabaseDiagnosticsSchema }, 401, 403) },
    },
    async (): Promise<DatabaseDiagnostics> => {
      const started = performance.now();
      await database.ping();
      const pingMs = Math.round((performance.now() - started) * 100) / 100;
      const facts = await readDatabaseFacts(db);
      return {
        engine: database.engine,
        dbHost: dbHost(),
        pingMs,
        ...facts,
        serverVersion: detail(() => facts.serverVersion),
        checkedAt: clock.now().toISOString(),
        withheld: withheld('dbHost', 'serverVersion'),
      };
    },
  );

  app.get(
    '/api/debug/client-check',
    {
      preValidation: permitted('debug.view'),
      schema: { response: answers({ 200: ClientCheckSchema }, 401, 403) },
    },
    async (): Promise<ClientCheck> => {
      const rotations = await readStorage(db);
      return {
        rotations: {
          asObject: { count: rotations.length, ids: rotations.map((r) => r.id) },
          jsonArray: rotations,
          stringified: JSON.stringify(rotations),
          sampleRotation: rotations[0] ?? null,
        },
        environment: {
          nodeEnv: config.nodeEnv,
          hostname: detail(os.hostname),
          isProd: config.isProduction,
        },
        testValues: {
          number: 42,
          zero: 0,
          string: 'baton',
          emptyString: '',
          nullValue: null,
          booleanAsBoolean: true,
          booleanAsString: 'true',
          falseAsBoolean: false,
          falseAsString: 'false',
          date: clock.now().toISOString(),
        },
        withheld: withheld('hostname'),
      };
    },
  );

  // The audit trail's hash chain, verified from the first event to the head (decision 172).
  app.get(
    '/api/debug/audit-integrity',
    {
      preValidation: permitted('debug.view'),
      schema: { response: answers({ 200: AuditIntegritySchema }, 401, 403) },
    },
    async (): Promise<AuditIntegrity> => {
      const started = performance.now();
      const result = await verifyAuditChain(db, deps.cipher);
      return {
        ...result,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        checkedAt: clock.now().toISOString(),
      };
    },
  );
}
