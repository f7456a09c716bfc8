import { z } from 'zod';
import { MAX_DEVICE_NAME } from '../domain/push-devices';

/**
 * Push to the installable app (issue 33, decision 253): Baton's VAPID public key, a person's
 * devices (`POST /api/users/{id}/push-subscriptions` takes the browser's
 * `PushSubscription.toJSON()` and a name; the list never shows the keys or the endpoint), and the
 * message the service worker shows.
 */

export const PushPublicKeySchema = z.object({
  /** the VAPID public key, base64url (an uncompressed P-256 point): `applicationServerKey` */
  publicKey: z.string(),
});
export type PushPublicKey = z.infer<typeof PushPublicKeySchema>;

export const PUSH_MESSAGES = {
  endpointHttps: 'The endpoint must be an https URL',
  endpointInsideNetwork:
    'The endpoint points inside the network; Baton sends pushes only to public push services',
  endpointHostNotFound: 'The endpoint’s host name cannot be found',
  keys: 'The keys are the browser’s p256dh and auth keys, base64url',
  name: `A device name has 1 to ${MAX_DEVICE_NAME} characters`,
  notFound: 'Device not found',
  forbidden: 'You can only see and change your own devices.',
} as const;

/** decodedLength: how many bytes a base64url text stands for (no Buffer: the client shares this). */
function decodedLength(text: string): number {
  const bare = text.replace(/=+$/, '');
  return bare.length % 4 === 1 ? -1 : Math.floor((bare.length * 6) / 8);
}

const base64url = (bytes: number) =>
  z
    .string({ error: PUSH_MESSAGES.keys })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, PUSH_MESSAGES.keys)
    .refine((s) => decodedLength(s) === bytes, PUSH_MESSAGES.keys);

const DeviceName = z
  .string({ error: PUSH_MESSAGES.name })
  .trim()
  .min(1, PUSH_MESSAGES.name)
  .max(MAX_DEVICE_NAME, PUSH_MESSAGES.name);

/** What the browser's `PushSubscription.toJSON()` gives, and the device's name. */
export const PushSubscriptionInputSchema = z.object({
  endpoint: z
    .string({ error: PUSH_MESSAGES.endpointHttps })
    .max(2048, PUSH_MESSAGES.endpointHttps)
    .refine((s) => URL.canParse(s) && new URL(s).protocol === 'https:', {
      error: PUSH_MESSAGES.endpointHttps,
    }),
  /** when the subscription ends, in ms since the epoch; null: the push service did not say */
  expirationTime: z.number().int().nonnegative().nullable().optional(),
  keys: z.object(
    {
      /** the browser's P-256 public key (65 bytes) */
      p256dh: base64url(65),
      /** the browser's auth secret (16 bytes) */
      auth: base64url(16),
    },
    { error: PUSH_MESSAGES.keys },
  ),
  /** what the person calls the device; absent: from the browser's user agent */
  name: DeviceName.optional(),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInputSchema>;

export const PushDeviceRenameSchema = z.object({ name: DeviceName });

/** A device as its person and administrators see it: never its keys or its endpoint. */
export const PushDeviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** the push service's host (fcm.googleapis.com, updates.push.services.mozilla.com, …) */
  service: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastSentAt: z.string().nullable(),
});
export type PushDevice = z.infer<typeof PushDeviceSchema>;

export const PushDeviceListSchema = z.array(PushDeviceSchema);

/** The actions a push of an incident offers. */
export const PUSH_ACTIONS = ['acknowledge', 'open'] as const;

/**
 * What a push carries (its encrypted body, JSON): the notification the service worker shows.
 * `data.acknowledge` is the signed one-time link's API path (POST acknowledges, decision 062),
 * `data.open` the page to open; both are paths, which the service worker resolves on its own
 * origin.
 */
export const PushNoticeSchema = z.object({
  title: z.string(),
  body: z.string(),
  /** one notification per incident: a reminder replaces the first */
  tag: z.string().optional(),
  urgency: z.enum(['high', 'medium', 'low']).optional(),
  actions: z.array(z.object({ action: z.enum(PUSH_ACTIONS), title: z.string() })),
  data: z.object({
    open: z.string(),
    acknowledge: z.string().optional(),
    /**
     * the notification's id, the same on every attempt at it (decision 284): a push with the id
     * of one the device shows is a repeat, shown in its place without alerting again
     */
    id: z.string().optional(),
  }),
});
export type PushNotice = z.infer<typeof PushNoticeSchema>;
