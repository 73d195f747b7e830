/**
 * Changes to a webhook are compare-and-set on its revision (services/dispatcher/webhook-store.ts): two PATCHes never
 * lose one another's fields, and a PATCH that read the webhook before a DELETE never writes it back.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WEBHOOKS, WebhookStore, type WebhookDoc } from '../../services/dispatcher/webhook-store';
import { Keyring } from '../../services/keyring';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';
import { withWriterBetweenReadAndWrite } from '../support/meddling-store';

const keys = new Keyring(['a test key of enough length']);
let store: ReadStore;
let webhooks: WebhookStore;
beforeEach(async () => {
  store = await openEmbeddedReadStore(path.join(mkdtempSync(path.join(tmpdir(), 'webhook-store-')), 'read.sqlite'));
  webhooks = new WebhookStore(store, keys);
});
afterEach(() => store.close());

const hook: WebhookDoc = {
  _id: 'wh1', _pos: 1, deletedAt: null, userId: 'ada', name: 'first', url: 'https://example.com/a', events: ['event.created'],
  enabled: true, sealedSecret: 'sealed', fromPosition: 0, createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z',
};

/** A WebhookStore on the same store whose first read of a webhook lets `meddle` write before it returns. */
const meddling = (meddle: () => Promise<unknown>) => new WebhookStore(withWriterBetweenReadAndWrite(store, meddle, WEBHOOKS), keys);

const stored = () => store.collection<WebhookDoc>(WEBHOOKS).get('wh1');

it('keeps both changes when another one lands between a change\'s read and its write', async () => {
  await store.collection(WEBHOOKS).put(hook);
  const other = () => webhooks.updateWebhook('ada', 'wh1', () => ({ url: 'https://example.com/b' }));
  const changed = await meddling(other).updateWebhook('ada', 'wh1', () => ({ name: 'renamed' }));
  expect(changed).toMatchObject({ name: 'renamed', url: 'https://example.com/b', _pos: 3 });
  expect(await stored()).toMatchObject({ name: 'renamed', url: 'https://example.com/b', _pos: 3 });
});

it('finds nothing to change when the webhook was deleted between the read and the write, and it stays deleted', async () => {
  await store.collection(WEBHOOKS).put(hook);
  const remove = () => webhooks.updateWebhook('ada', 'wh1', () => ({ deletedAt: '2026-11-02T00:00:00.000Z', enabled: false }));
  expect(await meddling(remove).updateWebhook('ada', 'wh1', () => ({ name: 'renamed' }))).toBeNull();
  expect(await stored()).toMatchObject({ name: 'first', deletedAt: '2026-11-02T00:00:00.000Z', _pos: 2 });
  expect(await webhooks.ownedWebhook('ada', 'wh1')).toBeNull();
  expect(await webhooks.webhooksOf('ada')).toEqual([]);
});

it('changes nothing of another user\'s webhook', async () => {
  await store.collection(WEBHOOKS).put(hook);
  expect(await webhooks.updateWebhook('bob', 'wh1', () => ({ name: 'mine now' }))).toBeNull();
  expect(await stored()).toEqual(hook);
});

it('gives a webhook made before revisions its first one, and compares on it from then on', async () => {
  const { _pos, deletedAt, ...older } = hook;
  await store.collection(WEBHOOKS).put(older);
  expect(await webhooks.updateWebhook('ada', 'wh1', () => ({ name: 'renamed' }))).toMatchObject({ _pos: 1 });
  const other = () => webhooks.updateWebhook('ada', 'wh1', () => ({ enabled: false }));
  await meddling(other).updateWebhook('ada', 'wh1', () => ({ events: ['task.created'] }));
  expect(await stored()).toMatchObject({ name: 'renamed', enabled: false, events: ['task.created'], _pos: 3 });
});
