import { z } from 'zod';
import * as alerts from '../../shared/contracts/alerts';
import * as apiTokens from '../../shared/contracts/api-tokens';
import * as audit from '../../shared/contracts/audit';
import * as auth from '../../shared/contracts/auth';
import * as calendar from '../../shared/contracts/calendar';
import * as coverPlans from '../../shared/contracts/cover-plans';
import * as coverage from '../../shared/contracts/coverage';
import * as debug from '../../shared/contracts/debug';
import * as destinations from '../../shared/contracts/destinations';
import * as errors from '../../shared/contracts/errors';
import * as escalationPolicies from '../../shared/contracts/escalation-policies';
import * as health from '../../shared/contracts/health';
import * as help from '../../shared/contracts/help';
import * as imports from '../../shared/contracts/imports';
import * as inbox from '../../shared/contracts/inbox';
import * as incidents from '../../shared/contracts/incidents';
import * as integrations from '../../shared/contracts/integrations';
import * as invitations from '../../shared/contracts/invitations';
import * as liveEvents from '../../shared/contracts/live-events';
import * as notificationRules from '../../shared/contracts/notification-rules';
import * as notificationTest from '../../shared/contracts/notification-test';
import * as notifications from '../../shared/contracts/notifications';
import * as onCallTeam from '../../shared/contracts/on-call-team';
import * as oncalls from '../../shared/contracts/oncalls';
import * as pageSession from '../../shared/contracts/page-session';
import * as paging from '../../shared/contracts/paging';
import * as primitives from '../../shared/contracts/primitives';
import * as push from '../../shared/contracts/push';
import * as reachability from '../../shared/contracts/reachability';
import * as rotations from '../../shared/contracts/rotations';
import * as settings from '../../shared/contracts/settings';
import * as setup from '../../shared/contracts/setup';
import * as shiftChanges from '../../shared/contracts/shift-changes';
import * as slack from '../../shared/contracts/slack';
import * as smsReplies from '../../shared/contracts/sms-replies';
import * as timeOff from '../../shared/contracts/time-off';
import * as users from '../../shared/contracts/users';
import * as voiceCalls from '../../shared/contracts/voice-calls';
import * as workingHours from '../../shared/contracts/working-hours';

/*
 * The document's named schemas (decision 267). Every route used to inline the contracts it
 * answers with: a rotation's 5 kB schema fourteen times, an incident's 8 kB nine times, a 526 kB
 * document that Scalar took 1.5 s to read. Each contract module's exported object (and union)
 * schemas are now named components, `Rotation` for `RotationSchema`, referenced with `$ref`
 * wherever a route uses that very schema; zod's own JSON Schema conversion does the referencing
 * (fastify-type-provider-zod reads the names from zod's global registry).
 */

/** The contract modules, by the name that tells two same-named exports apart. */
export const CONTRACT_MODULES: Record<string, Record<string, unknown>> = {
  alerts,
  'api-tokens': apiTokens,
  audit,
  auth,
  calendar,
  'cover-plans': coverPlans,
  coverage,
  debug,
  destinations,
  errors,
  'escalation-policies': escalationPolicies,
  health,
  help,
  imports,
  inbox,
  incidents,
  integrations,
  invitations,
  'live-events': liveEvents,
  'notification-rules': notificationRules,
  'notification-test': notificationTest,
  notifications,
  'on-call-team': onCallTeam,
  oncalls,
  'page-session': pageSession,
  paging,
  primitives,
  push,
  reachability,
  rotations,
  settings,
  setup,
  'shift-changes': shiftChanges,
  slack,
  'sms-replies': smsReplies,
  'time-off': timeOff,
  users,
  'voice-calls': voiceCalls,
  'working-hours': workingHours,
};

/** The kinds of schema worth a name: an object, or a choice of shapes. */
const NAMED_KINDS = new Set(['object', 'union']);

let named = false;

/**
 * nameContractSchemas gives each exported object or union schema of the contracts its name in
 * zod's global registry (once per process): `RotationSchema` is `Rotation`. A name already
 * taken (the error shape's `ApiError`) is left to its owner; two modules exporting the same
 * name get the module's name before it (`alerts.Status`).
 */
export function nameContractSchemas() {
  if (named) return;
  named = true;
  const exportedAs = new Map<string, number>();
  for (const exports of Object.values(CONTRACT_MODULES)) {
    for (const name of Object.keys(exports)) exportedAs.set(name, (exportedAs.get(name) ?? 0) + 1);
  }
  const names = new Map<z.ZodType, string>();
  for (const [module, exports] of Object.entries(CONTRACT_MODULES)) {
    for (const [name, schema] of Object.entries(exports)) {
      if (!(schema instanceof z.ZodType) || !NAMED_KINDS.has(schema._zod.def.type)) continue;
      const plain = name.replace(/Schema$/, '');
      if (!names.has(schema)) {
        names.set(schema, (exportedAs.get(name) ?? 0) > 1 ? `${module}.${plain}` : plain);
      }
    }
  }
  // A schema's input form is named `<name>Input` beside its output form: a contract called
  // `ApiTokenInput` would take the input name of `ApiToken`, so it stays unnamed.
  const taken = new Set(names.values());
  // The registry is the process's (zod keeps it on globalThis), the contracts this load's: a test
  // file that re-imports its modules (vi.resetModules) makes new schemas while the names still
  // point at the earlier ones. A name held by a schema of this load (or one derived from it, as
  // the error shape's `ApiError`) stays with it; a name held by an earlier copy moves here.
  const live = (held: z.ZodType) =>
    names.has(held) || (held._zod.parent !== undefined && names.has(held._zod.parent as z.ZodType));
  for (const [schema, id] of names) {
    const meta = z.globalRegistry.get(schema);
    if (meta?.id) continue;
    const holder = z.globalRegistry._idmap.get(id) as z.ZodType | undefined;
    if (holder && live(holder)) continue;
    if (id.endsWith('Input') && taken.has(id.slice(0, -'Input'.length))) continue;
    if (holder) z.globalRegistry.remove(holder);
    z.globalRegistry.add(schema, { ...meta, id });
  }
}

/** ZodObject and the others: a schema's class, to make an unnamed copy of it. */
type SchemaClass = new (def: z.ZodType['_zod']['def']) => z.ZodType;

/**
 * unnamed is the schema without its component name, for a route's path, query and header
 * parameters: @fastify/swagger lists their properties one by one and cannot read them through a
 * `$ref`. The copy has the same definition (the same checks, the same properties, which may
 * still be named) but no place in the registry.
 */
export function unnamed(schema: unknown): unknown {
  if (!(schema instanceof z.ZodType) || !z.globalRegistry.get(schema)?.id) return schema;
  const Class = schema._zod.constr as unknown as SchemaClass;
  return new Class(schema._zod.def);
}

/**
 * tidyComponents keeps in `components.schemas` the schemas the paths refer to, directly or through
 * another component: the registry also names schemas no route uses. fastify-type-provider-zod
 * writes each name twice, its input form as `<name>Input`; an input form that is the only one
 * used, or the same as the output form, takes the plain name (`LoginInput`, not
 * `LoginInputInput`), and the references follow.
 */
export function tidyComponents<T extends object>(document: T): T {
  const whole = document as { components?: { schemas?: Record<string, unknown> } };
  const schemas = whole.components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(COMPONENT)) {
        const name = child.slice(COMPONENT.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(child);
    }
  };
  visit({ ...whole, components: { ...whole.components, schemas: {} } });

  const renamed = new Map<string, string>();
  for (const name of used) {
    const plain = name.endsWith(INPUT) ? name.slice(0, -INPUT.length) : null;
    if (!plain) continue;
    const same = JSON.stringify(schemas[name]) === JSON.stringify(schemas[plain]);
    if (!used.has(plain) || same) renamed.set(name, plain);
  }
  const kept: Record<string, unknown> = {};
  for (const name of [...used].sort()) kept[renamed.get(name) ?? name] = schemas[name];
  const tidy = { ...document, components: { ...whole.components, schemas: kept } };
  if (renamed.size === 0) return tidy;
  // The names in every reference: a JSON round trip, once per process.
  return JSON.parse(JSON.stringify(tidy), (key, value) =>
    key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT)
      ? COMPONENT + (renamed.get(value.slice(COMPONENT.length)) ?? value.slice(COMPONENT.length))
      : value,
  );
}

const COMPONENT = '#/components/schemas/';
const INPUT = 'Input';
