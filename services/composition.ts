/**
 * The composition root: picks an adapter per port from the configuration (embedded under DATA_DIR unless
 * EVENTSTORE_URL / MONGO_URL / KAFKA_BROKERS are set), wires the application and starts the requested roles.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { accountsProjection } from '../projections/accounts.projection';
import { bookingsProjection } from '../projections/bookings.projection';
import { assistantProjection } from '../projections/assistant.projection';
import { automationsProjection } from '../projections/automations.projection';
import { devicesProjection } from '../projections/devices.projection';
import { inboxProjection } from '../projections/inbox.projection';
import { notificationsProjection } from '../projections/notifications.projection';
import { remindersProjection } from '../projections/reminders.projection';
import { bugReportsProjection } from '../projections/bug-reports.projection';
import { eventTypesProjection } from '../projections/event-types.projection';
import { focusProjection } from '../projections/focus.projection';
import { goalsProjection } from '../projections/goals.projection';
import { busyTimeProjection } from '../projections/busy-time.projection';
import { icalFeedsProjection } from '../projections/ical-feeds.projection';
import { answerThreads } from '../read-api/availability/answer-threads';
import { insightsProjection } from '../projections/insights.projection';
import type { Projection } from '../projections/projection';
import { ReadModels } from '../projections/read-models';
import { bookingPages } from '../read-api/bookings/page/booking-page';
import { ProjectionRunner } from '../projections/runner';
import { routinesProjection } from '../projections/routines.projection';
import { scheduleProjection } from '../projections/schedule.projection';
import { tasksProjection } from '../projections/tasks.projection';
import { Watermarks } from '../projections/watermarks';
import { Sessions } from '../write-api/accounts/sessions';
import { ApiKeys } from '../write-api/api-keys/api-keys';
import { OAuth } from '../write-api/oauth/oauth';
import type { AppContext } from './app-context';
import { startAutomationRunner, type AutomationRunner } from './automations/automation-runner';
import type { Bus } from './bus/bus.port';
import { CommandHandler } from './commands/command-handler';
import type { Config } from './config';
import { startDispatcher, type Dispatcher } from './dispatcher/dispatcher';
import { SubscriptionStore } from './subscriptions/subscription-store';
import { startSubscriptionWorker } from './subscriptions/subscription-worker';
import { historyStore } from './eventstore/decoding-event-store';
import { erasable } from './history/erasable-projection';
import { ensureErasureIndexes } from './history/erasure';
import type { EventStore } from './eventstore/event-store.port';
import { loadKeyring } from './keyring';
import { createHttpApp } from './http/app';
import { startMailConsumer } from './mail/mail-consumer';
import { startBookingPartsConsumer } from '../write-api/bookings/parts-consumer';
import { outboxSender, smtpSender } from './mail/mail.port';
import { startPushConsumer } from './push/push-consumer';
import { PushService } from './push/push-service';
import type { ReminderWorker } from './reminders/reminder-worker';
import { startReminderWorker } from './reminders/start';
import { addAutomationMetrics, addDeliveryMetrics, addProjectionMetrics, addRelayMetrics, Metrics } from './http/metrics';
import { readiness, type Role } from './http/readiness';
import { startRoleListener } from './http/role-listener';
import { meteredBus } from './bus/metered-bus';
import { meteredEventStore } from './eventstore/metered-event-store';
import { observed } from '../projections/observed-projection';
import type { ReadStore } from './readstore/read-store.port';
import { Relay } from './relay/relay';
import { apiOperations, apiRoutes } from './routes';

export const PROJECTIONS: readonly Projection[] = [
  accountsProjection, scheduleProjection, inboxProjection, notificationsProjection, devicesProjection,
  focusProjection, goalsProjection, eventTypesProjection, bugReportsProjection, insightsProjection,
  routinesProjection, tasksProjection, bookingsProjection, assistantProjection, automationsProjection, busyTimeProjection,
  remindersProjection,
  icalFeedsProjection,
];

export interface Ports {
  events: EventStore;
  store: ReadStore;
  bus: Bus;
}

/** The embedded bus; in front of the embedded log it keeps references to the relayed events, not copies. */
async function openEmbeddedBusOn(file: string, events: EventStore, logIsEmbedded: boolean): Promise<Bus> {
  const bus = await (await import('./bus/embedded-bus')).openEmbeddedBus(file);
  return logIsEmbedded ? (await import('./bus/log-backed-bus')).logBackedBus(bus, events) : bus;
}

/** The embedded event log's file, unless the configuration names EventStoreDB. */
export const embeddedLogFile = (config: Config) => (config.EVENTSTORE_URL ? undefined : path.resolve(config.DATA_DIR, 'events.sqlite'));

/** The event log the configuration names (also what the CLI reads). */
export async function openEventStore(config: Config): Promise<EventStore> {
  const file = embeddedLogFile(config);
  return file
    ? (await import('./eventstore/sqlite-event-store')).openSqliteEventStore(file)
    : (await import('./eventstore/esdb-event-store')).openEsdbEventStore(config.EVENTSTORE_URL!);
}

/** The read-model store the configuration names. */
export async function openReadStore(config: Config): Promise<ReadStore> {
  return config.MONGO_URL
    ? (await import('./readstore/mongo-read-store')).openMongoReadStore(config.MONGO_URL, config.MONGO_DB, config.MONGO_TIMEOUT_MS)
    : (await import('./readstore/embedded-read-store')).openEmbeddedReadStore(path.resolve(config.DATA_DIR, 'read-models.sqlite'), {
        requireIndexes: config.READ_STORE_REQUIRE_INDEXES,
      });
}

export async function openPorts(config: Config): Promise<Ports> {
  const dir = path.resolve(config.DATA_DIR);
  mkdirSync(dir, { recursive: true });
  const events = await openEventStore(config);
  const store = await openReadStore(config);
  const bus = config.KAFKA_BROKERS
    ? await (await import('./bus/kafka-bus')).openKafkaBus(config.KAFKA_BROKERS.split(',').map((b) => b.trim()), {
        partitions: config.KAFKA_TOPIC_PARTITIONS,
        replicationFactor: config.KAFKA_REPLICATION_FACTOR,
        sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
      })
    : await openEmbeddedBusOn(path.join(dir, 'bus.sqlite'), events, !config.EVENTSTORE_URL);
  return { events, store, bus };
}

/** SERVER_SECRET's and OAUTH_JWT_SECRET's keys; a key generated for want of one is kept beside the data: warned. */
async function loadKeys(config: Config, store: ReadStore, log: Logger) {
  const server = await loadKeyring(config.SERVER_SECRET, store, 'server-secret');
  const oauth = await loadKeyring(config.OAUTH_JWT_SECRET, store, 'oauth-jwt-secret');
  for (const [variable, { generated }] of [['SERVER_SECRET', server], ['OAUTH_JWT_SECRET', oauth]] as const) {
    if (generated) {
      log.warn({ variable }, `${variable} is not set: its key was generated and is kept in the read store, beside the data it protects. Set ${variable} in production (docs/production.md).`);
    }
  }
  return { server: server.ring, oauth: oauth.ring };
}

/** A write may wait up to MIN_POSITION_WAIT_MS for its projection; past this, connections still open are cut. */
const HTTP_GRACE_MS = 10_000;

/** Stops accepting, lets the requests in flight answer, closes each connection once it is idle. */
async function closeHttp(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  const cut = setTimeout(() => server.closeAllConnections(), HTTP_GRACE_MS);
  server.closeIdleConnections();
  await closed;
  clearInterval(idle);
  clearTimeout(cut);
}

/** A secret generated once and kept in the read store for every process. */
async function storedSecret(store: ReadStore, id: string): Promise<string> {
  const settings = store.collection('_settings');
  await settings.insertNew({ _id: id, value: randomBytes(32).toString('base64url') });
  return (await settings.get(id))!.value as string;
}

export interface Service {
  context: AppContext;
  /** The adapters as opened, below the decoding store (tests and tools that look at the log as stored). */
  ports: Ports;
  runner: ProjectionRunner | null;
  relay: Relay | null;
  dispatcher: Dispatcher | null;
  automations: AutomationRunner | null;
  reminders: ReminderWorker | null;
  server: Server | null;
  /** Where the HTTP server listens (when the api role runs). */
  url: string | null;
  /** Where /metrics, /healthz and /readyz are served on METRICS_PORT, when it is set. */
  metricsUrl: string | null;
  stop(): Promise<void>;
}

export async function startService(config: Config, log: Logger = pino({ level: config.LOG_LEVEL })): Promise<Service> {
  const ports = await openPorts(config);
  const roles = new Set<Role>(config.ROLE === 'all' ? ['api', 'projector', 'relay', 'dispatcher', 'automations'] : [config.ROLE]);
  const watermarks = new Watermarks(ports.store, roles.has('projector'));
  const keys = await loadKeys(config, ports.store, log);
  const metrics = new Metrics();
  const history = historyStore(meteredEventStore(ports.events, metrics, log), ports.store, embeddedLogFile(config));
  await ensureErasureIndexes(ports.store);
  const bus = meteredBus(ports.bus, metrics);
  const context: AppContext = {
    config,
    log,
    events: history.events,
    codec: history.codec,
    userKeys: history.keys,
    store: ports.store,
    commands: new CommandHandler(history.events),
    watermarks,
    readModels: new ReadModels(ports.store, watermarks),
    sessions: new Sessions(ports.store, config.SESSION_TTL_DAYS),
    apiKeys: new ApiKeys(ports.store),
    oauth: new OAuth(ports.store, keys.oauth, config),
    serverKeys: keys.server,
    // Not SERVER_SECRET: changing that must only expire sync cursors, never free every claimed email.
    claimSecret: await storedSecret(ports.store, 'claim-secret'),
    projectionNames: PROJECTIONS.map((p) => p.name),
    metrics,
    answerThreads: roles.has('api') ? answerThreads(config.HEAVY_READ_THREADS) : null,
  };

  // Every projection skips redacted events and forgets an erased user's documents (services/history/).
  const erasables = PROJECTIONS.map((p) => observed(erasable(p, ports.store), metrics, log));
  const runner = roles.has('projector') ? new ProjectionRunner(history.events, ports.store, erasables, watermarks, log) : null;
  await runner?.start();
  // The bus carries events as stored (sealed): its consumers decode them with context.codec.
  const relay = roles.has('relay') ? new Relay(ports.events, bus, ports.store, config.KAFKA_TOPIC, log) : null;
  await relay?.start();
  const dispatcher = roles.has('dispatcher') ? await startDispatcher(context, bus) : null;
  const pushConsumer = roles.has('dispatcher') ? startPushConsumer(context, bus, new PushService(config, ports.store)) : null;
  const mailSender = config.SMTP_URL ? smtpSender(config.SMTP_URL) : outboxSender();
  const mailConsumer = roles.has('dispatcher') ? startMailConsumer(context, bus, mailSender) : null;
  const bookingParts = roles.has('dispatcher') ? startBookingPartsConsumer(context, bus) : null;
  const subscriptions = roles.has('dispatcher') ? await startSubscriptionWorker(context, new SubscriptionStore(ports.store, keys.server)) : null;
  const automations = roles.has('automations') ? await startAutomationRunner(context, bus) : null;
  const reminders = roles.has('automations') ? await startReminderWorker(context) : null;

  // Each role exports the figures of the work it owns; the api also the projections its reads wait for.
  if (roles.has('api') || roles.has('projector')) addProjectionMetrics(metrics, context);
  if (roles.has('relay')) addRelayMetrics(metrics, ports.events, ports.store);
  if (roles.has('dispatcher')) addDeliveryMetrics(metrics, ports.store);
  if (roles.has('automations')) addAutomationMetrics(metrics, ports.store);
  const ready = () => readiness({ ...context, bus: ports.bus }, roles);
  const roleListener = config.METRICS_PORT === undefined ? null : await startRoleListener(config.METRICS_PORT, config.HOST, metrics, ready, log);
  const metricsUrl = roleListener ? `http://127.0.0.1:${(roleListener.address() as { port: number }).port}` : null;

  let server: Server | null = null;
  let url: string | null = null;
  if (roles.has('api')) {
    const http = createHttpApp(context, {
      metrics,
      routes: apiRoutes(context),
      operations: apiOperations,
      pages: bookingPages(context),
      resolvers: [context.sessions.resolve, context.apiKeys.resolve, context.oauth.accessTokens.resolve],
      ready,
    });
    server = await new Promise<Server>((resolve, reject) => {
      // Headers up to 256 KB reach the app, so an overlong URL gets our 414 envelope rather than Node's bare 431.
      const s = createServer({ maxHeaderSize: 256 * 1024 }, http).listen(config.PORT, config.HOST, () => resolve(s)).on('error', reject);
      // Idle keep-alive sockets outlive the clients' own idle timeouts (undici: 4 s, load balancers: 60 s), so a
      // client never reuses a socket the server is closing that instant (ECONNRESET). Shutdown closes idle ones.
      s.keepAliveTimeout = 65_000;
      s.headersTimeout = 66_000;
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    url = `http://127.0.0.1:${port}`;
    log.info({ url, roles: [...roles] }, 'listening');
  }

  return {
    context,
    ports,
    runner,
    relay,
    dispatcher,
    automations,
    reminders,
    server,
    url,
    metricsUrl,
    /** In order: no new requests (those in flight finish), the roles finish their work, then the clients close. */
    async stop() {
      if (server) await closeHttp(server);
      if (roleListener) await closeHttp(roleListener);
      await context.answerThreads?.close();
      // The bus consumers are independent: each leaving its group takes a while, so they leave together.
      await Promise.all([automations?.stop(), reminders?.stop(), pushConsumer?.stop(), mailConsumer?.stop(), bookingParts?.stop(), subscriptions?.stop(), dispatcher?.stop()]);
      await relay?.stop();
      await runner?.stop();
      mailSender.close();
      await ports.bus.close();
      await history.events.close(); // and ports.events
      await ports.store.close();
    },
  };
}
