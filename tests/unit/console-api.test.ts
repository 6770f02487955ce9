/**
 * The console's API client (admin/api.ts): headers on every call, the answer parsed, and the
 * step-up: a 403 step_up_required asks once and sends the same command again with the same
 * Idempotency-Key; a cancelled step-up sends nothing more; 401 and setup_required hand over.
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ConsoleApiError, consoleApi, StepUpCancelled, type ConsoleApiOptions } from '../../admin/api.js';

interface Sent {
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A client over a scripted server: each call takes the next answer. */
function scripted(answers: unknown[], overrides: Partial<ConsoleApiOptions> = {}) {
  const sent: Sent[] = [];
  const events: string[] = [];
  let keys = 0;
  const api = consoleApi({
    fetch: async (input, init) => {
      sent.push({
        path: String(input),
        headers: z.record(z.string(), z.string()).parse(init?.headers),
        body: JSON.parse(String(init?.body)),
      });
      return new Response(JSON.stringify(answers.shift()));
    },
    token: () => 'token-1',
    lang: () => 'EN',
    newKey: () => `key-${++keys}`,
    onSignedOut: () => events.push('signed-out'),
    onSetupRequired: () => events.push('setup'),
    stepUp: async () => {
      events.push('step-up');
      return true;
    },
    ...overrides,
  });
  return { api, sent, events };
}

const ok = (data: unknown) => ({ code: 200, message: 'OK', data });
const refused = (reason: string) => ({ code: 403, message: 'Refused', data: { reason } });
const doneSchema = z.object({ done: z.literal(true) });

describe('the console API client', () => {
  test('a command sends the token, the lang and a new Idempotency-Key; a read sends no key', async () => {
    const { api, sent } = scripted([ok({ done: true }), ok({ done: true })]);
    await api.command('/api/admin/news/delete', { id: '1' }, doneSchema);
    await api.read('/api/admin/audit/verify', {}, doneSchema);
    expect(sent[0]?.headers).toMatchObject({
      authorization: 'Bearer token-1',
      lang: 'EN',
      'idempotency-key': 'key-1',
    });
    expect(sent[0]?.body).toEqual({ id: '1' });
    expect(sent[1]?.headers['idempotency-key']).toBeUndefined();
  });

  test('step_up_required asks for a code, then sends the same command once more with the same key', async () => {
    const { api, sent, events } = scripted([refused('step_up_required'), ok({ done: true })]);
    expect(await api.command('/api/admin/operator/disable', { operatorId: '2' }, doneSchema)).toEqual({
      done: true,
    });
    expect(events).toEqual(['step-up']);
    expect(sent.map((call) => call.headers['idempotency-key'])).toEqual(['key-1', 'key-1']);
    expect(sent[1]?.body).toEqual({ operatorId: '2' });
  });

  test('a second step_up_required is not retried again: the refusal comes back', async () => {
    const { api, sent } = scripted([refused('step_up_required'), refused('step_up_required')]);
    await expect(api.command('/api/admin/withdraw/approve', { id: '3' }, doneSchema)).rejects.toBeInstanceOf(
      ConsoleApiError,
    );
    expect(sent).toHaveLength(2);
  });

  test('a cancelled step-up sends nothing more', async () => {
    const { api, sent } = scripted([refused('step_up_required')], { stepUp: async () => false });
    await expect(api.command('/api/admin/withdraw/approve', { id: '3' }, doneSchema)).rejects.toBeInstanceOf(
      StepUpCancelled,
    );
    expect(sent).toHaveLength(1);
  });

  test('401 signs the console out; setup_required sends it to setup; a 400 names its field', async () => {
    const { api, events } = scripted([
      { code: 401, message: 'Sign in', data: null },
      refused('setup_required'),
      { code: 400, message: 'Code needed', data: { field: 'googleCode' } },
    ]);
    await expect(api.read('/api/admin/auth/me', {}, doneSchema)).rejects.toMatchObject({ code: 401 });
    await expect(api.read('/api/admin/operator/list', {}, doneSchema)).rejects.toMatchObject({
      reason: 'setup_required',
    });
    await expect(api.command('/api/admin/auth/login', {}, doneSchema)).rejects.toMatchObject({
      field: 'googleCode',
      message: 'Code needed',
    });
    expect(events).toEqual(['signed-out', 'setup']);
  });

  test('an image is read with the token and comes back as a data: URL; a refusal is the server message', async () => {
    const pixel = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const seen: Array<Record<string, string>> = [];
    const answers = [
      new Response(pixel, { headers: { 'content-type': 'image/png' } }),
      new Response(JSON.stringify({ code: 404, message: 'Not found', data: null }), {
        headers: { 'content-type': 'application/json' },
      }),
    ];
    const { api } = scripted([], {
      fetch: async (_input, init) => {
        seen.push(z.record(z.string(), z.string()).parse(init?.headers));
        const answer = answers.shift();
        if (!answer) throw new Error('no answer left');
        return answer;
      },
    });
    expect(await api.image('/api/v1/common/img/abcdefghij')).toBe(
      `data:image/png;base64,${pixel.toString('base64')}`,
    );
    expect(seen[0]).toEqual({ authorization: 'Bearer token-1' });
    await expect(api.image('/api/v1/common/img/missing000')).rejects.toMatchObject({
      code: 404,
      message: 'Not found',
    });
  });
});
