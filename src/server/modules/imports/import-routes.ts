import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IMPORT_CONTENT_MAX,
  ImportPlanSchema,
  ImportRequestSchema,
  ImportVerifySchema,
} from '../../../shared/contracts/imports';
import { answers, content } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { permitted, requireUser } from '../../http/request-context';
import { CSV_TEMPLATE, CSV_TEMPLATE_FILE_NAME } from './csv-template';
import { applyImport } from './import-apply';
import { getImport, type ImportDeps, listImports, planImport } from './import-service';
import { verifyImport } from './import-verify';

/**
 * Imports (issue 34, decision 268), for administrators: plan from a source, apply once, verify
 * against the source's rendering. The screen and `npm run import` make the same calls.
 */
export async function importRoutes(app: FastifyInstance, deps: ImportDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const baseUrl = (req: FastifyRequest) => deps.config.publicUrl ?? `${req.protocol}://${req.host}`;

  api.post(
    '/api/imports',
    {
      preValidation: permitted('system.configure'),
      // A calendar or a spreadsheet of up to 5 MB, as JSON text (escapes make it longer).
      bodyLimit: 2 * IMPORT_CONTENT_MAX,
      schema: {
        body: ImportRequestSchema,
        response: answers({ 201: ImportPlanSchema }, 400, 401, 403, 413, 415, 422, 502),
      },
    },
    async (req, reply) => reply.code(201).send(await planImport(deps, requireUser(req), req.body)),
  );

  // The spreadsheet's template (decision 269): the header and example rows to fill in.
  api.get(
    '/api/imports/template.csv',
    {
      preValidation: permitted('system.configure'),
      schema: {
        response: answers(
          { 200: content('text/csv', 'The import spreadsheet’s template, as CSV.') },
          401,
          403,
        ),
      },
    },
    async (_req, reply) =>
      reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${CSV_TEMPLATE_FILE_NAME}"`)
        .send(CSV_TEMPLATE),
  );

  api.get(
    '/api/imports',
    {
      preValidation: permitted('system.configure'),
      schema: { response: answers({ 200: z.array(ImportPlanSchema) }, 401, 403) },
    },
    async () => listImports(deps),
  );

  api.get(
    '/api/imports/:id',
    {
      preValidation: permitted('system.configure'),
      schema: {
        params: IdParams,
        response: answers({ 200: ImportPlanSchema }, 400, 401, 403, 404),
      },
    },
    async (req) => getImport(deps, req.params.id),
  );

  api.post(
    '/api/imports/:id/apply',
    {
      preValidation: permitted('system.configure'),
      schema: {
        params: IdParams,
        response: answers({ 200: ImportPlanSchema }, 400, 401, 403, 404, 409, 422),
      },
    },
    async (req) => applyImport({ ...deps, baseUrl: baseUrl(req) }, requireUser(req), req.params.id),
  );

  api.get(
    '/api/imports/:id/verify',
    {
      preValidation: permitted('system.configure'),
      schema: {
        params: IdParams,
        response: answers({ 200: ImportVerifySchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => verifyImport(deps, req.params.id),
  );
}
