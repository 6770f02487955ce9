/** The worker tells the windows whether the server answers at all (the offline banner). */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { withReachability } from '../../worker/reachability.js';
import type { Call, Outcome } from '../../worker/transport.js';

const call: Call<unknown> = {
  method: 'POST',
  uri: '/api/v1/sync/pull',
  params: {},
  data: z.unknown(),
  token: null,
  lang: 'EN',
};

function scripted(outcomes: Outcome<unknown>[]) {
  return async <T>(): Promise<Outcome<T>> => {
    const next = outcomes.shift();
    if (next === undefined) throw new Error('no more scripted outcomes');
    return next as Outcome<T>; // the scripted outcomes carry no data of any particular type
  };
}

describe('reachability', () => {
  test('no answer at all is unreachable; any HTTP answer, refusals and HTTP errors included, is reachable; only changes are told', async () => {
    const heard: boolean[] = [];
    const send = withReachability(
      scripted([
        { kind: 'ok', message: 'OK', data: null },
        { kind: 'ok', message: 'OK', data: null },
        { kind: 'transport', status: null, message: 'fetch failed' },
        { kind: 'transport', status: null, message: 'timed out' },
        { kind: 'transport', status: 502, message: 'HTTP 502' },
        { kind: 'refused', code: 401, message: 'not logged in', data: null },
        { kind: 'transport', status: null, message: 'fetch failed' },
      ]),
      (reachable) => heard.push(reachable),
    );
    for (let index = 0; index < 7; index++) await send(call);
    expect(heard).toEqual([true, false, true, false]);
  });
});
