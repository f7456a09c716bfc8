import Fastify, { type FastifyReply } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { checkAnswer } from './answer-check';
import { answers, content, noContent } from './openapi';

/**
 * The check every API test runs on every answer (decision 224): an answer its route does not
 * declare, in status, media type or body, is reported; one it declares is not.
 */
async function answering(send: (reply: FastifyReply) => unknown) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  const mismatches: string[] = [];
  app.addHook('onSend', async (req, reply, payload) => {
    const mismatch = checkAnswer(req, reply, payload);
    if (mismatch) mismatches.push(mismatch);
    return payload;
  });
  const response = answers(
    {
      200: z.object({ name: z.string() }),
      201: content('text/csv', 'A file.'),
      204: noContent('Gone.'),
    },
    404,
  );
  app.get('/api/thing', { schema: { response } }, async (_req, reply) => send(reply));
  app.get('/api/undeclared', async () => ({ name: 'x' }));
  await app.inject({ url: '/api/thing' });
  const undeclared = await app.inject({ url: '/api/undeclared' });
  expect(undeclared.statusCode).toBe(200);
  await app.close();
  return mismatches;
}

const NO_ANSWERS = 'GET /api/undeclared answered 200, but the route declares no answers';

describe('checkAnswer', () => {
  test.each([
    ['the declared body', (r: FastifyReply) => r.send({ name: 'Ada' })],
    ['a declared error', (r: FastifyReply) => r.code(404).send({ message: 'x' })],
    [
      'the declared media type',
      (r: FastifyReply) => r.code(201).type('text/csv; charset=utf-8').send('a,b\r\n'),
    ],
    ['no body where none is declared', (r: FastifyReply) => r.code(204).send()],
    [
      'a server failure in the error shape',
      (r: FastifyReply) => r.code(503).send({ message: 'busy', code: 'SERVICE_UNAVAILABLE' }),
    ],
  ])('passes %s', async (_name, send) => {
    expect(await answering(send)).toEqual([expect.stringContaining(NO_ANSWERS)]);
  });

  test.each([
    [
      'a body its schema refuses',
      (r: FastifyReply) => r.send({ name: 7 }),
      'GET /api/thing answered 200 with a body its declared schema refuses: name:',
    ],
    [
      'a status it does not declare',
      (r: FastifyReply) => r.code(409).send({ message: 'x' }),
      'GET /api/thing answered 409, a status the route does not declare',
    ],
    [
      'another media type',
      (r: FastifyReply) => r.code(201).type('text/plain').send('x'),
      'GET /api/thing answered 201 in text/plain, declared: text/csv',
    ],
    [
      'an error in another shape',
      (r: FastifyReply) => r.code(404).send({ error: 'gone' }),
      'GET /api/thing answered 404 with a body its declared schema refuses: message:',
    ],
  ])('reports %s', async (_name, send, expected) => {
    expect(await answering(send)).toEqual([
      expect.stringContaining(expected),
      expect.stringContaining(NO_ANSWERS),
    ]);
  });
});
