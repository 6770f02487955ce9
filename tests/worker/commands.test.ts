/**
 * The worker's outbox command list: every kind defined once (a duplicate throws at the start),
 * and the UI's reading of a kind (`src/features/outbox/command-kinds.ts`) agrees with it.
 */
import { describe, expect, test } from 'vitest';
import { defineCommands } from '../../sync/commands.js';
import { commandRegistry } from '../../worker/commands.js';
import { hostingCommands } from '../../worker/handlers/hosting.commands.js';
import { otcCommands } from '../../worker/handlers/otc.commands.js';

describe('command registry', () => {
  test('a kind defined twice throws when the list is assembled', () => {
    expect(() => defineCommands(hostingCommands, otcCommands, hostingCommands)).toThrow(
      'command kind defined twice: hosting-create',
    );
  });

  test('a kind carries secrets exactly when it stores a trade password (what the UI checks)', () => {
    for (const kind of commandRegistry.kinds) {
      const definition = commandRegistry.of(kind);
      if (definition === null) throw new Error(kind);
      expect([kind, definition.carriesSecrets]).toEqual([
        kind,
        definition.spec.secrets.some((field) => field === 'tradePassword'),
      ]);
    }
  });

  test('hosting and OTC kinds are exactly those with their prefix (what the UI checks)', () => {
    const kinds = commandRegistry.kinds;
    expect(kinds.filter((kind) => kind.startsWith('hosting-'))).toEqual(hostingCommands.map((c) => c.kind));
    expect(kinds.filter((kind) => kind.startsWith('otc-'))).toEqual(otcCommands.map((c) => c.kind));
  });
});
