/** A fresh embedded event log and read store for each test of a file (beforeEach), closed after it (afterEach). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EventStore } from '../../services/eventstore/event-store.port';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';

export function useEmbeddedStores(prefix: string, onOpen: (events: EventStore, store: ReadStore) => void): void {
  const dir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  let opened: [EventStore, ReadStore] | undefined;
  beforeEach(async () => {
    const sub = mkdtempSync(path.join(dir, 'r-'));
    opened = [await openSqliteEventStore(path.join(sub, 'events.sqlite')), await openEmbeddedReadStore(path.join(sub, 'read.sqlite'))];
    onOpen(...opened);
  });
  afterEach(async () => {
    await opened?.[0].close();
    await opened?.[1].close();
  });
}
