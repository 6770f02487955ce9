/**
 * The profile's outbox commands: a nickname and an avatar, each one resource (a refused change
 * holds the later ones to the same field back); they wait a day for the network.
 */
import { z } from 'zod';
import { avatarUpdateParamsSchema, nameUpdateParamsSchema } from '../../contract/api/content.js';
import { defineCommand } from '../../sync/commands.js';
import { everydayCommand } from './command-policies.js';

export const userCommands = [
  defineCommand({
    kind: 'profile-nickname',
    uri: '/api/v1/user/name-update',
    ...everydayCommand,
    input: nameUpdateParamsSchema,
    stored: z.object({ nickname: z.string() }),
    resourceOf: () => 'profile.nickname',
    wireParamsOf: ({ nickname }) => ({ nickname }),
  }),
  defineCommand({
    kind: 'profile-avatar',
    uri: '/api/v1/user/avatar-update',
    ...everydayCommand,
    input: avatarUpdateParamsSchema,
    stored: z.object({ avatar: z.string() }),
    resourceOf: () => 'profile.avatar',
    wireParamsOf: ({ avatar }) => ({ avatar }),
  }),
] as const;
