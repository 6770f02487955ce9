/**
 * The UI's one door to the network: the worker's typed command surface (STYLE.md rule 1).
 * The UI never calls fetch for data.
 */
import { wrap, type Remote } from 'comlink';
import type { Handlers } from '../../worker/handlers/index.js';

let remote: Remote<Handlers> | undefined;

function worker(): Remote<Handlers> {
  remote ??= wrap<Handlers>(
    new Worker(new URL('../../worker/index.ts', import.meta.url), { type: 'module', name: 'coffer-worker' }),
  );
  return remote;
}

type Name = keyof Handlers;
type ParamsOf<N extends Name> = Parameters<Handlers[N]>;
export type ResultOf<N extends Name> = Awaited<ReturnType<Handlers[N]>>;

/** Sends one named command to the worker. */
export function send<N extends Name>(name: N, ...params: ParamsOf<N>): Promise<ResultOf<N>> {
  const handler = worker()[name] as unknown as (...args: ParamsOf<N>) => Promise<ResultOf<N>>; // comlink's Remote mirrors the handler's signature
  return handler(...params);
}
