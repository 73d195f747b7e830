/**
 * Erasing a user (crypto-shredding): their data key is destroyed, so every event sealed under it reads as redacted
 * wherever the log is read (deciders, projections, exports, the bus), then `user.erased` is appended so each
 * projection deletes the documents made from their data (erasable-projection.ts) and `/sync` tells the other users
 * which items went. What the service keeps as state beside the log for that user (credentials, webhooks and their
 * deliveries, subscriptions with their sealed credentials, pushes, assistant usage) is deleted outright. Retrying finishes an interrupted erasure.
 */
import type { AppContext } from '../app-context';
import { DELIVERIES, WEBHOOKS } from '../dispatcher/webhook-store';
import { SUBSCRIPTIONS } from '../subscriptions/subscription-store';
import { notFound } from '../errors';
import type { ReadStore } from '../readstore/read-store.port';
import { USER_KEYS } from '../eventstore/user-keys';
import { deterministicUuid, newId } from '../ids';
import { SESSIONS } from '../../write-api/accounts/sessions';
import { API_KEYS } from '../../write-api/api-keys/api-keys';
import { OAUTH_FAMILIES } from '../../write-api/oauth/grants';
import { ERASURES } from './erasable-projection';

/** State collections whose documents name their user in `userId`. */
const USER_STATE = [SESSIONS, API_KEYS, OAUTH_FAMILIES, WEBHOOKS, DELIVERIES, SUBSCRIPTIONS, '_pushes', '_ai_answers'];

/**
 * What erasure and `/sync` query beside the projections: each state collection by user, and the tombstones of a
 * collection in a range of positions (read-api/sync/sync.queries.ts).
 */
export async function ensureErasureIndexes(store: ReadStore): Promise<void> {
  for (const name of USER_STATE) await store.collection(name).ensureIndex(['userId']);
  await store.collection(ERASURES).ensureIndex(['projection', 'collection', '_pos']);
}

export const erasureStream = (userId: string) => `erasure-${userId}`;

export interface Erased {
  userId: string;
  erasedAt: string;
  /** Log position of the `user.erased` event: read with X-Calendar-Min-Position to see the read models after it. */
  position: number;
}

/** What erasing needs: the API's context, or the CLI's (services/cli/operator-context.ts). */
export type Eraser = Pick<AppContext, 'events' | 'store' | 'userKeys' | 'commands'>;

export async function eraseUser(app: Eraser, userId: string): Promise<Erased> {
  const keyDoc = await app.store.collection(USER_KEYS).get(userId);
  if (!keyDoc) throw notFound('User');
  const erasedAt = (keyDoc.erasedAt as string | undefined) ?? new Date().toISOString();
  await app.userKeys.destroy(userId, erasedAt);
  for (const name of USER_STATE) await app.store.collection(name).deleteMany({ userId });
  app.commands.forgetStates();
  const id = deterministicUuid('user.erased', userId);
  const { position } = await app.events.append(erasureStream(userId), [{
    id,
    type: 'user.erased',
    data: { userId, erasedAt },
    metadata: { userId: null, correlationId: newId(), causationId: id, occurredAt: erasedAt, schemaVersion: 1 },
  }], 'any');
  return { userId, erasedAt, position };
}
