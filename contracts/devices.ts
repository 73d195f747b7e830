/** Devices that receive push notifications, and the log of what was pushed to them. */
import { z } from 'zod';
import { checkedByServer, DateTime, documentedAs, ErrorEnvelope, IdParams, NonBlankText, Uuid } from './common';
import { op } from './operation';
import { NextPageToken, PageQuery } from './paging';

export const Platform = z.enum(['ios', 'android', 'web']);
export type Platform = z.infer<typeof Platform>;

const base64urlBytes = (text: string) => (/^[A-Za-z0-9_-]+={0,2}$/.test(text) ? Buffer.from(text, 'base64url').length : -1);

/** A browser's PushSubscription as `JSON.stringify(subscription)` gives it. */
export const WebPushSubscription = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2_000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: z.string().refine((k) => base64urlBytes(k) === 65, 'must be the base64url P-256 public key (65 bytes)'),
    auth: z.string().refine((k) => base64urlBytes(k) === 16, 'must be the base64url auth secret (16 bytes)'),
  }),
});
export type WebPushSubscription = z.infer<typeof WebPushSubscription>;

/** The subscription of a web device's pushToken, or null when the text is not one. */
export function parseWebPushToken(token: string): WebPushSubscription | null {
  try {
    const parsed = WebPushSubscription.safeParse(JSON.parse(token));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Longest push token taken, whatever the platform (a PushSubscription's JSON fits: its endpoint is at most 2,000). */
export const MAX_PUSH_TOKEN_LENGTH = 4096;

/** Printable: no control characters (C0, DEL, C1), and not blank. */
const PRINTABLE = /^(?=.*\S)[^\x00-\x1f\x7f-\x9f]+$/;
const PushTokenText = z.string().min(1).max(MAX_PUSH_TOKEN_LENGTH).regex(PRINTABLE, 'must be printable characters, not blank');

/** A web token that opens a JSON object is meant as a PushSubscription, and must be one; any other is opaque. */
export const looksLikeSubscription = (token: string) => token.trimStart().startsWith('{');

const PUSH_TOKEN = `Any printable token of 1 to ${MAX_PUSH_TOKEN_LENGTH} characters, as the platform hands it over: ios the APNs `
  + 'device token, android the FCM registration token (both delivered through the push gateway); web either '
  + '`JSON.stringify(pushSubscription)` (endpoint plus keys.p256dh and keys.auth, delivered by Web Push) or an opaque token '
  + '(an FCM web token, delivered through the gateway). Registering the same token again updates the caller\'s device; '
  + 'a token another user holds is 409 `push_token_taken`.';
const WEB_PUSH_TOKEN_EXAMPLE = JSON.stringify({
  endpoint: 'https://push.example.net/send/d8f1c2b3a4',
  keys: { p256dh: 'BMCC6i3FG0upUsk5IyNwdiIToL8somA7j_7OAtqy479eWRmMONz615TxQxc-6qwVhz6irmxZnhn6TSajE0c_4UY', auth: 'f4Bb0WOs3qymHhm4kzQ4ww' },
});
const OPAQUE_WEB_TOKEN_EXAMPLE = 'eXaMpLe-FcM:APA91bF1x2y3z4w5v6u7t8s9r0qPONMLKJIHGFEDCBA';
const deviceFields = {
  platform: Platform,
  name: NonBlankText(200).nullable().optional(),
  pushToken: PushTokenText.nullable().optional().describe(PUSH_TOKEN),
};

export const RegisterDeviceBody = documentedAs(
  z
    .object(deviceFields)
    .superRefine((b, ctx) => {
      if (b.platform !== 'web' || b.pushToken == null || !looksLikeSubscription(b.pushToken)) return;
      if (parseWebPushToken(b.pushToken) === null) {
        ctx.addIssue({
          code: 'custom', path: ['pushToken'],
          message: 'a web token in JSON must be a PushSubscription: {"endpoint": "https://…", "keys": {"p256dh": "…", "auth": "…"}}',
        });
      }
    })
    .meta({
      id: 'RegisterDeviceBody',
      examples: [{ platform: 'ios', name: 'Ana\'s iPhone', pushToken: '740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad' }],
    }),
  // Published by platform: a native token is any printable text; a web token in JSON must be a PushSubscription.
  z.union([
    z.object({ ...deviceFields, platform: z.enum(['ios', 'android']) }),
    z.object({
      ...deviceFields,
      platform: z.literal('web'),
      pushToken: PushTokenText.nullable().optional()
        .meta(checkedByServer(`${PUSH_TOKEN} A token starting with \`{\` must parse as {"endpoint": "https://…", "keys": {"p256dh": "…", "auth": "…"}}.`,
          [WEB_PUSH_TOKEN_EXAMPLE, OPAQUE_WEB_TOKEN_EXAMPLE])),
    }),
  ]),
);
export type RegisterDeviceBody = z.infer<typeof RegisterDeviceBody>;

/** A device as its events carry it. */
export const DeviceRecord = z.object({
  id: Uuid,
  userId: Uuid,
  platform: Platform,
  name: z.string().nullable(),
  pushToken: z.string().nullable(),
  /** Hash of the token's identity: names the claim stream that keeps the token on one device of one user. */
  tokenKey: z.string().nullable(),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type DeviceRecord = z.infer<typeof DeviceRecord>;

export const PushTokenClaim = z.object({ userId: Uuid, deviceId: Uuid, tokenKey: z.string() });

export const PushRecord = z
  .object({
    id: Uuid,
    kind: z.enum(['test', 'notification']),
    notificationId: Uuid.nullable(),
    provider: z.enum(['recording', 'web-push', 'gateway']).describe('`recording`: kept here, nothing left the service'),
    outcome: z.enum(['pending', 'sent', 'recorded', 'failed']).describe('`pending` while being sent (or when the sender stopped mid-send)'),
    status: z.number().int().nullable().describe('HTTP status of the push service\'s answer, when one came'),
    error: z.string().nullable(),
    at: DateTime,
  })
  .meta({
    id: 'PushRecord',
    examples: [{
      id: 'a3c1f1de-7b43-5c55-8d2e-61f0b2a9c4e7', kind: 'notification', notificationId: '0d6f4f0e-5b1c-5e7a-9a43-6f1d2c3b4a51',
      provider: 'gateway', outcome: 'sent', status: 202, error: null, at: '2031-05-02T09:14:04.002Z',
    }],
  });
export type PushRecord = z.infer<typeof PushRecord>;

export const Device = z
  .object({
    id: Uuid,
    platform: Platform,
    name: z.string().nullable(),
    pushToken: z.string().nullable(),
    lastPush: PushRecord.nullable(),
    pushes: z.array(PushRecord).describe('The latest pushes to this device (at most 5), newest first'),
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({
    id: 'Device',
    examples: [{
      id: '2f1c7a9e-3b5d-4e6f-8a1b-2c3d4e5f6a7b', platform: 'android', name: 'Pixel 8',
      pushToken: 'dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx', lastPush: null, pushes: [],
      createdAt: '2031-05-01T08:00:00.000Z', updatedAt: '2031-05-01T08:00:00.000Z',
    }],
  });
export type Device = z.infer<typeof Device>;

export const DeviceResponse = z.object({ device: Device }).meta({
  id: 'DeviceResponse',
  examples: [{
    device: {
      id: '2f1c7a9e-3b5d-4e6f-8a1b-2c3d4e5f6a7b', platform: 'ios', name: 'Ana\'s iPhone',
      pushToken: '740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad', lastPush: null, pushes: [],
      createdAt: '2031-05-01T08:00:00.000Z', updatedAt: '2031-05-01T08:00:00.000Z',
    },
  }],
});

export const DeviceList = z
  .object({
    devices: z.array(Device).describe('Oldest first'),
    nextPageToken: NextPageToken,
    webPush: z
      .object({ vapidPublicKey: z.string().describe('The `applicationServerKey` a browser subscribes with') })
      .describe('What a web app needs to create a PushSubscription for this service'),
  })
  .meta({
    id: 'DeviceList',
    examples: [{
      devices: [{
        id: '2f1c7a9e-3b5d-4e6f-8a1b-2c3d4e5f6a7b', platform: 'ios', name: 'Ana\'s iPhone',
        pushToken: '740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad',
        lastPush: {
          id: 'a3c1f1de-7b43-5c55-8d2e-61f0b2a9c4e7', kind: 'test', notificationId: null, provider: 'recording',
          outcome: 'recorded', status: null, error: null, at: '2031-05-01T08:01:00.000Z',
        },
        pushes: [{
          id: 'a3c1f1de-7b43-5c55-8d2e-61f0b2a9c4e7', kind: 'test', notificationId: null, provider: 'recording',
          outcome: 'recorded', status: null, error: null, at: '2031-05-01T08:01:00.000Z',
        }],
        createdAt: '2031-05-01T08:00:00.000Z', updatedAt: '2031-05-01T08:00:00.000Z',
      }],
      nextPageToken: null,
      webPush: { vapidPublicKey: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM' },
    }],
  });

export const TestPushResult = z
  .object({
    sent: z.boolean().describe('The push service accepted it (or the recording provider kept it)'),
    push: PushRecord,
  })
  .meta({
    id: 'TestPushResult',
    examples: [{
      sent: true,
      push: {
        id: 'a3c1f1de-7b43-5c55-8d2e-61f0b2a9c4e7', kind: 'test', notificationId: null, provider: 'web-push',
        outcome: 'sent', status: 201, error: null, at: '2031-05-01T08:01:00.000Z',
      },
    }],
  });

const notFound = { description: 'No such device (also for other people\'s devices)', schema: ErrorEnvelope };

export const deviceOperations = [
  op({
    method: 'get', path: '/devices', tag: 'Devices', summary: 'The caller\'s devices, each with its latest pushes',
    query: PageQuery,
    responses: { 200: { description: 'One page of devices', schema: DeviceList } },
  }),
  op({
    method: 'post', path: '/devices', tag: 'Devices', summary: 'Register a device for push',
    description: 'A push token the caller already registered updates that device (200) instead of creating another. '
      + 'A token is held by one user at a time: while another user\'s device holds it, 409 `push_token_taken` (that '
      + 'user removes the device to let it go).',
    body: RegisterDeviceBody,
    responses: {
      201: { description: 'Registered', schema: DeviceResponse },
      200: { description: 'The device with this push token, updated', schema: DeviceResponse },
      409: {
        description: 'Another user\'s device holds this push token (`push_token_taken`); or it is being registered and '
          + 'removed at once (`device_busy`: try again)',
        schema: ErrorEnvelope,
      },
    },
  }),
  op({
    method: 'delete', path: '/devices/{id}', tag: 'Devices', summary: 'Forget a device', params: IdParams,
    responses: { 204: { description: 'Removed' }, 404: notFound },
  }),
  op({
    method: 'post', path: '/devices/{id}/test', tag: 'Devices', summary: 'Send a test push to a device', params: IdParams,
    responses: {
      200: { description: 'Pushed; the outcome is recorded on the device', schema: TestPushResult },
      404: notFound,
      409: { description: 'The device has no push token (`no_push_token`)', schema: ErrorEnvelope },
    },
  }),
];
