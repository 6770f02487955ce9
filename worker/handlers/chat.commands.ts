/**
 * The chat message's outbox command, `chat-send` (docs/protocol.md §35). A message written
 * offline waits here with its `clientMsgId` (made when the customer pressed Send) and is sent once
 * the link is back; every send and retry of it carries the same `clientMsgId`, so the server keeps
 * one message however often it arrives (a lost answer, a retry after a refusal). An image is a
 * local file kept as bytes with its own upload key, uploaded before the message is sent, as a
 * feedback ticket's images are. All messages share one resource, so they leave in the order
 * written; a refused one holds the later ones back until the customer retries or removes it.
 */
import { z } from 'zod';
import { chatSendParamsSchema } from '../../contract/api/chat.js';
import {
  defineCommand,
  storedUploadSchema,
  uploadBlobSchema,
  type PendingUpload,
} from '../../sync/commands.js';
import { everydayCommand } from './command-policies.js';

/** Every chat message waits on this one resource: they are sent in the order written. */
export const CHAT_RESOURCE = 'chat:conversation';

const imageBlobSchema = uploadBlobSchema.refine(
  (blob) => blob.type === '' || blob.type.startsWith('image/'),
  { error: 'server.field_invalid' },
);

export const chatCommands = [
  defineCommand({
    kind: 'chat-send',
    uri: '/api/v1/chat/send',
    ...everydayCommand,
    /** Text (1 to 2,000 characters once trimmed) or one image, not both. */
    input: z
      .object({
        text: chatSendParamsSchema.shape.text,
        image: imageBlobSchema.optional(),
      })
      .refine((value) => (value.text === undefined) !== (value.image === undefined), {
        error: 'server.chat_text_or_image',
        path: ['text'],
      }),
    stored: z.object({
      clientMsgId: z.string(),
      text: z.string().nullable(),
      image: storedUploadSchema.nullable(),
    }),
    async toStored({ text, image }, newKey) {
      return {
        clientMsgId: newKey(),
        text: text ?? null,
        image:
          image === undefined
            ? null
            : {
                key: newKey(),
                type: image.type || 'image/jpeg',
                name: image instanceof File ? image.name : 'image',
                bytes: new Uint8Array(await image.arrayBuffer()),
                url: null,
              },
      };
    },
    resourceOf: () => CHAT_RESOURCE,
    wireParamsOf({ clientMsgId, text, image }) {
      if (image === null) return { clientMsgId, text };
      return image.url === null ? null : { clientMsgId, imageUrl: image.url };
    },
    uploads: {
      pending: ({ image }) =>
        image === null || image.url !== null || image.bytes === null
          ? []
          : [
              {
                index: 0,
                key: image.key,
                file: { bytes: image.bytes, type: image.type, name: image.name },
              } satisfies PendingUpload,
            ],
      uploaded: (params, _index, url) =>
        params.image === null ? params : { ...params, image: { ...params.image, url, bytes: null } },
    },
    /** A retry keeps the clientMsgId (the same message); an image not uploaded yet gets a new key. */
    renew: (params, newKey) =>
      params.image !== null && params.image.url === null
        ? { ...params, image: { ...params.image, key: newKey() } }
        : params,
  }),
] as const;
