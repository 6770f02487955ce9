/**
 * The feedback ticket's outbox command. Its images may be local files (Blob/File): each is kept
 * as bytes with its own upload key (made when the user acted) and uploaded as its own step
 * before the ticket is sent; once uploaded, its URL is kept and the bytes are let go. A retry
 * gives the images not uploaded yet a new key.
 */
import { z } from 'zod';
import { pushFeedbackParamsSchema } from '../../contract/api/content.js';
import {
  defineCommand,
  storedUploadSchema,
  uploadBlobSchema,
  type PendingUpload,
} from '../../sync/commands.js';
import { everydayCommand } from './command-policies.js';

/** At most this many images on a ticket (the spec's album maximum, as the server checks). */
const FEEDBACK_MAX_IMAGES = 9;

/** An image of a ticket: a URL, or a local file with its upload key (and its URL once uploaded). */
const storedImageSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal('url'), url: z.string() }),
  storedUploadSchema.extend({ source: z.literal('local') }),
]);
type StoredImage = z.infer<typeof storedImageSchema>;

const imageUrlSchema = pushFeedbackParamsSchema.shape.images.unwrap().element;

export const feedbackCommands = [
  defineCommand({
    kind: 'feedback-submit',
    uri: '/api/v1/common/pushFeedback',
    ...everydayCommand,
    input: z.object({
      title: pushFeedbackParamsSchema.shape.title,
      content: pushFeedbackParamsSchema.shape.content,
      /** Uploaded image URLs, or local images (Blob/File) uploaded before the ticket is sent. */
      images: z
        .array(z.union([imageUrlSchema, uploadBlobSchema]))
        .max(FEEDBACK_MAX_IMAGES, { error: 'server.field_invalid' })
        .default([]),
    }),
    stored: z.object({ title: z.string(), content: z.string(), images: z.array(storedImageSchema) }),
    async toStored({ title, content, images }, newKey) {
      const stored: StoredImage[] = [];
      for (const image of images) {
        if (typeof image === 'string') {
          stored.push({ source: 'url', url: image });
          continue;
        }
        stored.push({
          source: 'local',
          key: newKey(),
          type: image.type,
          name: image instanceof File ? image.name : 'image',
          bytes: new Uint8Array(await image.arrayBuffer()),
          url: null,
        });
      }
      return { title, content, images: stored };
    },
    resourceOf: (_params, id) => `feedback:new:${id}`,
    wireParamsOf({ title, content, images }) {
      const urls: string[] = [];
      for (const image of images) {
        if (image.url === null) return null;
        urls.push(image.url);
      }
      return { title, content, images: urls };
    },
    uploads: {
      pending: (params) =>
        params.images.flatMap((image, index): PendingUpload[] =>
          image.url !== null || image.source !== 'local' || image.bytes === null
            ? []
            : [{ index, key: image.key, file: { bytes: image.bytes, type: image.type, name: image.name } }],
        ),
      uploaded: (params, index, url) => ({
        ...params,
        images: params.images.map((image, at) =>
          at === index && image.source === 'local' ? { ...image, url, bytes: null } : image,
        ),
      }),
    },
    renew: (params, newKey) => ({
      ...params,
      images: params.images.map((image) =>
        image.source === 'local' && image.url === null ? { ...image, key: newKey() } : image,
      ),
    }),
  }),
] as const;
