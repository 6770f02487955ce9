/** Proof of reserves: the latest snapshot and its leaves (public), a customer's proof, the history, an operator's snapshot. */
import * as reserves from '../../contract/api/reserves.js';
import { noParamsSchema } from '../../contract/schema.js';
import type { RoutesOf } from './route-list.js';

export const reservesRoutes: RoutesOf = (define, { proofOfReserves }) => {
  define({
    path: '/api/v1/reserves/latest',
    kind: 'read',
    access: 'public',
    params: noParamsSchema,
    data: reserves.reservesLatestDataSchema,
    summary: "The latest snapshot: the Merkle-sum root, every leaf, the chains' reserves and the ratio",
    handle: () => proofOfReserves.latest(),
  });
  define({
    path: '/api/v1/reserves/proof',
    kind: 'read',
    access: 'user',
    params: reserves.reservesProofParamsSchema,
    data: reserves.reservesProofSchema,
    summary:
      "The caller's leaf (nonce and sums) and its path to the root, in the latest snapshot or the one named",
    handle: (ctx, params) => proofOfReserves.proof(ctx, params),
  });
  define({
    path: '/api/v1/reserves/history',
    kind: 'read',
    access: 'public',
    params: reserves.reservesHistoryParamsSchema,
    data: reserves.reservesHistoryDataSchema,
    summary: 'Snapshots, newest first',
    handle: (_ctx, params) => proofOfReserves.history(params),
  });
  define({
    path: '/api/admin/reserves/snapshot',
    kind: 'command',
    access: { roles: ['finance', 'compliance'] },
    params: noParamsSchema,
    data: reserves.reservesSnapshotSchema,
    summary: 'Take a proof-of-reserves snapshot now (audited)',
    success: 'server.saved',
    handle: (ctx) => proofOfReserves.takeNow(ctx),
  });
};
