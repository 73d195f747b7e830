/**
 * Webhook signatures, for our dispatcher and for receivers (this file depends on node:crypto only, so a receiver
 * can copy it as is).
 *
 * Every delivery carries `X-Calendar-Timestamp` (Unix seconds of the attempt) and `X-Calendar-Signature`: the
 * lowercase hex HMAC-SHA256 of `${timestamp}.${body}` keyed with the webhook's secret (`whsec_…`, as shown once at
 * creation). A receiver verifies the raw request body, before parsing it:
 *
 * ```ts
 * const ok = verifyWebhookSignature({
 *   secret: process.env.CALENDAR_WEBHOOK_SECRET!,
 *   timestamp: req.headers['x-calendar-timestamp'],
 *   signature: req.headers['x-calendar-signature'],
 *   body: rawBody, // the bytes as received (string or Buffer), not JSON.stringify(parsed)
 * });
 * if (!ok) return res.status(400).end();
 * ```
 *
 * The tolerance window (default 5 minutes either side of the receiver's clock) refuses a captured request replayed
 * later; within the window, dedupe on the body's `id` (the domain event id) or the `X-Calendar-Delivery` header.
 *
 * Each delivery is also signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`),
 * so the `standardwebhooks` packages verify it with the same `whsec_…` secret: see docs/webhooks.md.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The signature of one attempt: lowercase hex HMAC-SHA256 of `${timestamp}.${body}`. */
export function signWebhook(secret: string, timestamp: number | string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/**
 * The Standard Webhooks signature of one attempt: `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`, keyed
 * with the bytes the secret's part after `whsec_` encodes in base64 (secrets made before it was plain base64 used
 * the URL-safe alphabet; Node decodes both).
 */
export function signStandardWebhook(secret: string, id: string, timestamp: number | string, body: string | Buffer): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
}

export interface VerifyWebhookInput {
  secret: string;
  /** The `X-Calendar-Timestamp` header. */
  timestamp: string | number | string[] | undefined | null;
  /** The `X-Calendar-Signature` header. */
  signature: string | string[] | undefined | null;
  /** The raw request body. */
  body: string | Buffer;
  toleranceSeconds?: number;
  /** The receiver's clock (ms since the epoch); defaults to Date.now(). */
  now?: number;
}

/** True when the signature matches and the timestamp lies within the tolerance window. Never throws. */
export function verifyWebhookSignature({
  secret, timestamp, signature, body, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = Date.now(),
}: VerifyWebhookInput): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const ts = typeof timestamp === 'number' ? String(timestamp) : timestamp;
  if (typeof ts !== 'string' || !/^\d{1,12}$/.test(ts)) return false;
  if (Math.abs(now / 1000 - Number(ts)) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, ts, body), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
