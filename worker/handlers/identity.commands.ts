/**
 * The real-name submission's outbox command (docs/protocol.md §30). Sent only while online (the
 * customer waits for the answer on the page; a submission is not to go out hours later); its
 * images are local files kept as bytes, each with its own upload key, uploaded by the worker
 * before the submission as feedback images are (front, back, holding: in that order).
 */
import { z } from 'zod';
import {
  DOCUMENT_TYPES,
  identityStoreParamsSchema,
  IDENTITY_IMAGES_MAX,
} from '../../contract/api/identity.js';
import {
  defineCommand,
  storedUploadSchema,
  uploadBlobSchema,
  type PendingUpload,
} from '../../sync/commands.js';

/** Long enough for three images to go up on a slow link; a submission older than this expires. */
const IDENTITY_SUBMIT_MAX_AGE_MS = 5 * 60 * 1000;

/** An image of the submission: a local file with its upload key, and its URL once uploaded. */

export const identityCommands = [
  defineCommand({
    kind: 'identity-submit',
    uri: '/api/v1/user/identity-store',
    maxAgeMs: IDENTITY_SUBMIT_MAX_AGE_MS,
    requiresOnline: true,
    pullsEveryAccount: false,
    secrets: [],
    input: z.object({
      documentType: identityStoreParamsSchema.shape.documentType,
      documentNumber: identityStoreParamsSchema.shape.documentNumber,
      realName: identityStoreParamsSchema.shape.realName,
      /** The images as local files, in the order front, back (when the type has one), holding. */
      images: z
        .array(uploadBlobSchema)
        .min(1, { error: 'server.identity_images_count' })
        .max(IDENTITY_IMAGES_MAX, { error: 'server.identity_images_count' }),
    }),
    stored: z.object({
      documentType: z.enum(DOCUMENT_TYPES),
      documentNumber: z.string(),
      realName: z.string(),
      images: z.array(storedUploadSchema),
    }),
    async toStored({ documentType, documentNumber, realName, images }, newKey) {
      const stored: z.infer<typeof storedUploadSchema>[] = [];
      for (const image of images) {
        stored.push({
          key: newKey(),
          type: image.type,
          name: image instanceof File ? image.name : 'image',
          bytes: new Uint8Array(await image.arrayBuffer()),
          url: null,
        });
      }
      return { documentType, documentNumber, realName, images: stored };
    },
    resourceOf: (_params, id) => `identity:new:${id}`,
    accountChangedBy: () => null,
    wireParamsOf({ documentType, documentNumber, realName, images }) {
      const urls: string[] = [];
      for (const image of images) {
        if (image.url === null) return null;
        urls.push(image.url);
      }
      return { documentType, documentNumber, realName, images: urls };
    },
    uploads: {
      pending: (params) =>
        params.images.flatMap((image, index): PendingUpload[] =>
          image.url !== null || image.bytes === null
            ? []
            : [{ index, key: image.key, file: { bytes: image.bytes, type: image.type, name: image.name } }],
        ),
      uploaded: (params, index, url) => ({
        ...params,
        images: params.images.map((image, at) => (at === index ? { ...image, url, bytes: null } : image)),
      }),
    },
    renew: (params, newKey) => ({
      ...params,
      images: params.images.map((image) => (image.url === null ? { ...image, key: newKey() } : image)),
    }),
  }),
] as const;
