import type { Logger } from 'pino';
import type { ReadModels } from '../projections/read-models';
import type { AnswerThreads } from '../read-api/availability/answer-threads';
import type { Watermarks } from '../projections/watermarks';
import type { Sessions } from '../write-api/accounts/sessions';
import type { ApiKeys } from '../write-api/api-keys/api-keys';
import type { OAuth } from '../write-api/oauth/oauth';
import type { CommandHandler } from './commands/command-handler';
import type { Config } from './config';
import type { EventCodec } from './eventstore/decoding-event-store';
import type { EventStore } from './eventstore/event-store.port';
import type { Metrics } from './http/metrics';
import type { Keyring } from './keyring';
import type { UserKeys } from './eventstore/user-keys';
import type { ReadStore } from './readstore/read-store.port';

/** What route handlers may use: the ports and the shared services built by the composition root. */
export interface AppContext {
  config: Config;
  log: Logger;
  /** The log as readers use it: opened and upcast (services/eventstore/decoding-event-store.ts). */
  events: EventStore;
  /** Decodes events as stored (bus consumers); the per-user keys behind it (erasure). */
  codec: EventCodec;
  userKeys: UserKeys;
  store: ReadStore;
  commands: CommandHandler;
  watermarks: Watermarks;
  readModels: ReadModels;
  sessions: Sessions;
  apiKeys: ApiKeys;
  oauth: OAuth;
  /** SERVER_SECRET's keys: sign sync cursors, encrypt webhook secrets and stored idempotent replies. */
  serverKeys: Keyring;
  /** Keys the claim streams of emails and usernames (write-api/accounts/claim.decider.ts); kept in the read store. */
  claimSecret: string;
  /** Names of the projections reads depend on (waited for by X-Calendar-Min-Position). */
  projectionNames: readonly string[];
  /** This process's Prometheus instruments (services/http/metrics.ts). */
  metrics: Metrics;
  /** Threads that work out large availability answers (null: on the request's thread). */
  answerThreads: AnswerThreads | null;
}
