/**
 * The profile's outbox commands: a nickname and an avatar, each one resource (a refused change
 * holds the later ones to the same field back); they wait a day for the network.
 */
import { z } from 'zod';
import { avatarUpdateParamsSchema, nameUpdateParamsSchema } from '../../contract/api/content.js';
import { DAY_MS, defineCommand } from '../../sync/commands.js';

const everyday = { maxAgeMs: DAY_MS, requiresOnline: false, pullsEveryAccount: false, secrets: [] } as const;

export const userCommands = [
  defineCommand({
    kind: 'profile-nickname',
    uri: '/api/v1/user/name-update',
    ...everyday,
    input: nameUpdateParamsSchema,
    stored: z.object({ nickname: z.string() }),
    resourceOf: () => 'profile.nickname',
    accountChangedBy: () => null,
    wireParamsOf: ({ nickname }) => ({ nickname }),
  }),
  defineCommand({
    kind: 'profile-avatar',
    uri: '/api/v1/user/avatar-update',
    ...everyday,
    input: avatarUpdateParamsSchema,
    stored: z.object({ avatar: z.string() }),
    resourceOf: () => 'profile.avatar',
    accountChangedBy: () => null,
    wireParamsOf: ({ avatar }) => ({ avatar }),
  }),
] as const;
