import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { keyList } from './keyring';

/** A comma list of keys (rotation: the first signs and encrypts, all verify and decrypt), each at least `min` long. */
const keys = (min: number) =>
  z.string().transform(keyList).pipe(z.array(z.string().min(min, `each key needs at least ${min} characters`)).min(1)).optional();

const Config = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Where the process also serves /metrics, /healthz and /readyz (every role; the only HTTP of the non-api roles). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  DATA_DIR: z.string().default('./data'),
  ROLE: z.enum(['all', 'api', 'projector', 'relay', 'dispatcher', 'automations']).default('all'),
  EVENTSTORE_URL: z.string().regex(/^(esdb|kurrentdb)(\+discover)?:\/\//, 'must be an esdb:// URL').optional(),
  MONGO_URL: z.string().regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// URL').optional(),
  MONGO_DB: z.string().default('calendar'),
  /** Bound of one MongoDB read or write: past it the store counts as unreachable (requests answer 503). */
  MONGO_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  KAFKA_BROKERS: z.string().min(1).optional(),
  KAFKA_TOPIC: z.string().default('calendar.domain-events'),
  /** Used when the topic does not exist yet and the service creates it. */
  KAFKA_TOPIC_PARTITIONS: z.coerce.number().int().min(1).default(3),
  KAFKA_REPLICATION_FACTOR: z.coerce.number().int().min(1).default(1),
  /** A consumer that sends no heartbeat for this long leaves its group (within the broker's 6 s to 5 min by default). */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
  /** Express `trust proxy`: which proxies' X-Forwarded-For to believe for the client address (rate limits). */
  TRUST_PROXY: z.string().default('loopback'),
  /** Embedded read store only: a query that would scan a collection (no index serves it) fails instead (tests). */
  READ_STORE_REQUIRE_INDEXES: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** How far the JavaScript heap may grow past its live size before a full collection, in percent; 0: V8's own rule. */
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(1000).default(100),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Signs sync cursors, encrypts webhook secrets and stored idempotent replies (comma list for rotation); generated
   * once and kept in the read store if unset, which production must not rely on.
   */
  SERVER_SECRET: keys(16),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  SYNC_CURSOR_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** How long a read with X-Calendar-Min-Position (and a write waiting for its projection) may wait. */
  MIN_POSITION_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** Writes answer once the read model has their events, so a plain GET after a 201 sees the change. */
  WRITE_WAITS_FOR_PROJECTION: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /** /readyz fails while a projection's oldest unapplied event is older than this (stuck or lagging). */
  READY_MAX_LAG_SECONDS: z.coerce.number().min(1).max(86_400).default(30),
  WEB_ORIGIN: z.string().optional(),
  /** Requests per minute per credential, and per client IP for calls without one. */
  RATE_LIMIT_PER_CREDENTIAL: z.coerce.number().int().min(1).default(3000),
  RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(1200),
  /** Expensive reads (availability, free/busy, slots, planning): running at once per caller and in all, waiting per caller, longest wait. */
  HEAVY_READS_PER_CALLER: z.coerce.number().int().min(1).default(2),
  HEAVY_READS_TOTAL: z.coerce.number().int().min(1).default(4),
  HEAVY_READS_QUEUE: z.coerce.number().int().min(0).default(8),
  HEAVY_READS_MAX_WAIT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Threads for large availability answers (0: none), and the events and occurrences that make an answer large. */
  HEAVY_READ_THREADS: z.coerce.number().int().min(0).max(16).default(Math.max(1, Math.min(2, availableParallelism() - 1))),
  HEAVY_READ_OFFLOAD_ITEMS: z.coerce.number().int().min(0).default(5000),
  /**
   * Failed sign-ins of one email from one address (15 min window) before each attempt is delayed, and before 429;
   * an address alone may fail a hundred times as often (services/http/login-throttle.ts).
   */
  LOGIN_FREE_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(20),
  /** Bearer token for the operator endpoints under /admin; they answer 404 while it is unset. */
  ADMIN_TOKEN: z.string().min(16).optional(),
  PASSWORD_HASH_COST: z.coerce.number().int().min(1024).max(1 << 20).default(1 << 15),
  /** Waits before each retry of a failed webhook delivery (comma list, ms): one retry per entry, at most five. */
  WEBHOOK_RETRY_DELAYS_MS: z
    .string()
    .default('10000,60000,600000,3600000,21600000')
    .transform((v) => v.split(',').map((d) => Number(d.trim())))
    .pipe(z.array(z.number().int().min(0).max(7 * 86_400_000)).min(1).max(5)),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Lets webhooks reach loopback, link-local and private addresses (tests, closed networks). */
  WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** Subscribed calendars (docs/subscriptions.md): fetched again this long after a fetch that succeeded. */
  SUBSCRIPTION_REFRESH_MS: z.coerce.number().int().min(100).max(7 * 86_400_000).default(900_000),
  /** The wait after a first failed fetch (four times as long after each further one, at most 6 hours). */
  SUBSCRIPTION_RETRY_FIRST_MS: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
  /** How often the fetcher (dispatcher role) looks for subscriptions due; a new one is fetched within this. */
  SUBSCRIPTION_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** One fetch's deadline, redirects and the whole body included. */
  SUBSCRIPTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
  /** How often the reminder worker (automations role) looks for reminders whose time has come. */
  REMINDER_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  /** Shared secret of the integration layer's inbound calls; POST /integrations/inbound answers 404 while unset. */
  INTEGRATIONS_SECRET: z.string().min(16).optional(),
  /** HS256 keys for OAuth access tokens (comma list, each at least 32 characters); generated and stored if unset. */
  OAUTH_JWT_SECRET: keys(32),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  OAUTH_REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** `record`: pushes are only recorded on the device; `deliver`: web through Web Push, ios/android through the gateway. */
  PUSH_MODE: z.enum(['record', 'deliver']).default('record'),
  /** The HTTP gateway that hands ios/android pushes to APNs and FCM (`deliver` mode). */
  PUSH_GATEWAY_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Sent to the gateway as `Authorization: Bearer …` when set. */
  PUSH_GATEWAY_TOKEN: z.string().min(1).optional(),
  /** Web Push (VAPID) keys, base64url; generated once and kept in the read store if unset. */
  VAPID_PUBLIC_KEY: z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'must be a base64url P-256 public key (65 bytes)').optional(),
  VAPID_PRIVATE_KEY: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url P-256 private key (32 bytes)').optional(),
  VAPID_SUBJECT: z.string().regex(/^(mailto:|https:\/\/)/, 'must be a mailto: or https: URL').default('mailto:push@localhost'),
  /** Lets Web Push endpoints be plain http or loopback, link-local and private addresses (tests, closed networks). */
  PUSH_ALLOW_PRIVATE_ENDPOINTS: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** Guests' mail goes out over this SMTP server (`smtp://user:pass@host:587`, `smtps://…`); unset: kept in the outbox. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().min(3).max(300).default('Calendar <no-reply@localhost>'),
  /** Where people reach the service (links in guests' mail); default http://localhost:$PORT. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, '')).optional(),
  /** Base URL of an OpenAI-compatible chat-completions API; unset: only the built-in assistant answers. */
  ASSISTANT_MODEL_URL: z.url({ protocol: /^https?$/ }).optional(),
  ASSISTANT_MODEL: z.string().min(1).max(200).optional(),
  ASSISTANT_MODEL_KEY: z.string().min(1).optional(),
  /** One model call's time-out; on time-out the built-in assistant answers. */
  ASSISTANT_MODEL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
});

export type Config = z.infer<typeof Config>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Config.refine((c) => c.ROLE === 'all' || c.MONGO_URL, {
    path: ['ROLE'],
    message: 'separate roles share their read models through MongoDB: set MONGO_URL (the embedded read store lives in one process)',
  }).refine((c) => !c.ASSISTANT_MODEL_URL || c.ASSISTANT_MODEL, {
    path: ['ASSISTANT_MODEL'],
    message: 'name the model to ask when ASSISTANT_MODEL_URL is set',
  }).refine((c) => !c.VAPID_PUBLIC_KEY === !c.VAPID_PRIVATE_KEY, {
    path: ['VAPID_PRIVATE_KEY'],
    message: 'set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither',
  }).safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return parsed.data;
}
