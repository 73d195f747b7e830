/**
 * The embedded read store's checking mode (READ_STORE_REQUIRE_INDEXES, on in every test service) refuses a query
 * that no index serves. Here every GET of the access table is walked by a user with a little data: with the
 * projections as they are, no query is refused; with one projection's index declarations taken away, some query
 * of that projection is. So a slice whose queries lack an index fails its own tests.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { PROJECTIONS } from '../../services/composition';
import { access } from '../../services/http/access';
import type { Projection } from '../../projections/projection';
import { signUp, startTestService } from '../support/service';

const ID = '00000000-0000-4000-8000-000000000001';
const WEEK = 'from=2026-12-07T00:00:00.000Z&to=2026-12-14T00:00:00.000Z';
/** Query strings the walk sends, so that each GET gets past validation to its queries. */
const QUERIES: Record<string, string> = {
  '/events': WEEK,
  '/sync': 'since=2020-01-01T00:00:00.000Z',
  '/routines/instances': 'from=2026-12-07&to=2026-12-14',
  '/routines/conflicts': 'from=2026-12-07&to=2026-12-14',
  '/availability': WEEK,
  '/free-busy': WEEK,
  '/insights': 'from=2026-12-07',
  '/projects': 'archived=false',
};

const gets = Object.keys(access)
  .filter((row) => row.startsWith('GET '))
  .map((row) => row.slice(4))
  .filter((path) => !path.startsWith('/public/') && path !== '/oauth/authorize');

/** Starts a service, gives a user some data, walks every GET; returns the index-check failures it logged. */
async function refusedQueries(created: number[] = []): Promise<string[]> {
  const refused: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = chunk.toString();
      if (line.includes('read store index check')) refused.push((JSON.parse(line) as { err?: { message?: string } }).err?.message ?? line);
      done();
    },
  });
  const svc = await startTestService({ RATE_LIMIT_PER_CREDENTIAL: '100000', RATE_LIMIT_PER_IP: '100000' }, pino({ level: 'error' }, sink));
  try {
    const owner = await signUp(svc.base);
    const guest = await signUp(svc.base);
    const event = await owner.call('POST', '/events', {
      title: 'Walk', startsAt: '2026-12-08T09:00:00.000Z', endsAt: '2026-12-08T10:00:00.000Z', attendees: [{ email: guest.email }],
      reminders: [{ minutesBefore: 10, method: 'notification' }], // the reminders projection looks up the event's reminders
    });
    const task = await owner.call('POST', '/tasks', { title: 'Walk task' });
    const goal = await owner.call('POST', '/goals', { name: 'Walk goal', weeklyMinutes: 60 });
    created.push(event.status, task.status, goal.status);
    for (const user of [owner, guest]) {
      for (const path of gets) {
        const concrete = path.replace(/\{id\}/g, path.startsWith('/tasks/') ? (task.body.task?.id ?? ID) : ID);
        await user.call('GET', QUERIES[path] ? `${concrete}?${QUERIES[path]}` : concrete);
      }
    }
  } finally {
    await svc.stop();
  }
  return refused;
}

describe('queries and their indexes', () => {
  jest.setTimeout(120_000);
  // The checking mode is the embedded read store's: this suite runs on it even where MONGO_URL names a MongoDB.
  const mongoUrl = process.env.MONGO_URL;
  beforeAll(() => void delete process.env.MONGO_URL);
  afterAll(() => {
    if (mongoUrl !== undefined) process.env.MONGO_URL = mongoUrl;
  });

  it('every GET runs with every query served by an index', async () => {
    const created: number[] = [];
    expect(await refusedQueries(created)).toEqual([]);
    expect(created).toEqual([201, 201, 201]);
  });

  const indexed = PROJECTIONS.filter((p) => Object.values(p.collections).some((c) => c.indexes.length > 0));

  it.each(indexed.map((p) => [p.name, p] as [string, Projection]))('without its index declarations, %s has a query refused', async (name, projection) => {
    const declared = Object.entries(projection.collections).map(([logical, c]) => [logical, c.indexes] as const);
    for (const [logical] of declared) projection.collections[logical].indexes = [];
    try {
      const refused = await refusedQueries();
      expect(refused.some((message) => message.includes(`on p_${name}_v`))).toBe(true);
    } finally {
      for (const [logical, indexes] of declared) projection.collections[logical].indexes = indexes;
    }
  });
});
