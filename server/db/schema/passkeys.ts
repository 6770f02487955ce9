/**
 * Passkeys (WebAuthn credentials, docs/protocol.md section 33): a user signs in with one instead
 * of the e-mail and password. The public key is COSE-encoded (base64url), the credential id is
 * base64url and unique across users; `counter` is the authenticator's signature counter, which
 * must grow at each sign-in when the authenticator counts (0 for those that do not).
 */
import { bigint, boolean, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, createdAt, id, label, userRef } from './columns.js';

export const passkeys = pgTable(
  'passkeys',
  {
    id: id(),
    userId: userRef(),
    credentialId: label('credential_id'),
    publicKey: label('public_key'),
    counter: bigint('counter', { mode: 'number' }).notNull(),
    transports: jsonb('transports').$type<string[]>().notNull(),
    deviceType: label('device_type'),
    backedUp: boolean('backed_up').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: at('last_used_at'),
  },
  (t) => [uniqueIndex('passkeys_credential').on(t.credentialId), index('passkeys_user').on(t.userId, t.id)],
);
