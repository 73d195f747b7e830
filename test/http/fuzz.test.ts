/**
 * Hostile input: over 2,000 malformed requests across the endpoints. Every answer must be a 4xx in the error
 * envelope (never a 5xx), and the event log must not grow: nothing malformed is ever stored.
 */
import { prng } from '../support/prng';
import { request, signUp, startTestService, type Client, type TestService } from '../support/service';

let svc: TestService;
let base: string;
let user: Client;
let eventId: string;

const random = prng(20261122);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
/** Lone surrogates cannot be URI-encoded: send the raw invalid UTF-8 bytes instead (hostile too). */
const enc = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
};

const HOSTILE_VALUES: unknown[] = [
  null, true, false, 0, -1, 1e308, -1e308, 3.14, '', ' ', 'x'.repeat(20_000), '\u0000', '\ud800', '😀'.repeat(5000),
  [], [1, 2], [null], {}, { $gt: '' }, { $ne: null }, { $where: 'sleep(1000)' }, { __proto__: { admin: true } },
  "' OR 1=1 --", '"; DROP TABLE events; --', '../../etc/passwd', '<script>alert(1)</script>', 'NaN', 'Infinity',
  '2026-13-45T25:61:00Z', 'yesterday', '2026-02-30T10:00:00Z', '1700000000', 'not-a-uuid', '00000000-0000',
];
// Query values are cut to 1,000 characters: Node itself answers 431, with no body, to URLs over 16 KB.
const BAD_IDS = ['not-a-uuid', '1', "' OR 1=1", '%24gt', '..%2F..%2Fetc', 'x'.repeat(300), '00000000-0000-0000-0000-00000000000g'];
const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', '$where', '$gt', 'isAdmin', 'userId', 'spaceId_', 'title '];

const validEvent = () => ({ title: 'fuzz', startsAt: '2026-12-01T09:00:00Z', endsAt: '2026-12-01T10:00:00Z' });
const validProfile = () => ({ name: 'Fuzz' });
const validCalendar = () => ({ name: 'Fuzz calendar' });
const validSignup = () => ({ email: `f${Math.floor(random() * 1e9)}@example.com`, password: 'long enough', name: 'F' });

/** One field of an otherwise valid body replaced by a hostile value that the schema refuses. */
function breakField(body: Record<string, unknown>, allowed: Record<string, (v: unknown) => boolean>): Record<string, unknown> {
  const field = pick(Object.keys(allowed));
  for (let i = 0; i < 50; i++) {
    const value = pick(HOSTILE_VALUES);
    if (!allowed[field](value)) return { ...body, [field]: value };
  }
  return { ...body, [field]: { $gt: '' } };
}

const isShortString = (max: number) => (v: unknown) => typeof v === 'string' && v.trim().length > 0 && v.length <= max;
const eventFields = { title: isShortString(500), startsAt: () => false, endsAt: () => false, busy: (v: unknown) => typeof v === 'boolean' };

/** Each makes a PATCH body that must be refused. */
const PATCH_BREAKERS: Array<() => Record<string, unknown>> = [
  () => ({ title: pick([null, 5, {}, { $gt: '' }, 'x'.repeat(20_000), [], '']) }),
  () => ({ busy: pick(['true', 1, null, { $ne: false }]) }),
  () => ({ startsAt: pick(['2026-13-45T25:61:00Z', 'yesterday', 5, null, { $gt: '' }]) }),
  () => ({ attendees: pick([[{}], [{ email: 'not-an-email' }], 'a@b.c', [{ email: 'a@b.c', role: 'admin' }]]) }),
  () => ({ resources: pick([[''], 'room', [5], [{ $gt: '' }]]) }),
  () => ({ kind: pick(['not-a-kind', 5, null]) }),
  () => ({ recurrenceRule: pick(['FREQ=SOMETIMES', 'FREQ=SECONDLY', 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', 5]) }),
  () => ({ startsAt: '2026-12-01T11:00:00Z', endsAt: '2026-12-01T10:00:00Z' }),
  () => ({ [pick(POLLUTION_KEYS)]: pick(HOSTILE_VALUES) }),
];

type Case = { method: string; path: string; body?: unknown; headers?: Record<string, string>; auth: boolean };

function cases(): Case[] {
  const out: Case[] = [];
  const add = (c: Case) => out.push(c);
  for (let i = 0; i < 2200; i++) {
    switch (i % 11) {
      case 0: add({ method: 'POST', path: '/events', body: breakField(validEvent(), eventFields), auth: true }); break;
      case 1: add({ method: 'POST', path: '/events', body: { ...validEvent(), [pick(POLLUTION_KEYS)]: pick(HOSTILE_VALUES) }, auth: true }); break;
      case 2: add({ method: 'PATCH', path: `/events/${eventId}`, body: pick(PATCH_BREAKERS)(), auth: true }); break;
      case 3: { const method = pick(['GET', 'PATCH', 'DELETE']); add({ method, path: `/events/${enc(pick(BAD_IDS))}`, body: method === 'PATCH' ? {} : undefined, auth: true }); break; }
      case 4: add({ method: 'POST', path: `/events/${eventId}/rsvp`, body: { answer: pick(HOSTILE_VALUES.filter((v) => !['yes', 'no', 'maybe'].includes(v as string))) }, auth: true }); break;
      case 5: add({ method: 'GET', path: `/events?from=${enc(String(pick(HOSTILE_VALUES)).slice(0, 1000))}&to=${pick(['', 'x', '2026-01-01'])}`, auth: true }); break;
      case 6: add({ method: 'GET', path: `/events?from[$gt]=&to[$ne]=`, auth: true }); break;
      case 7: add({ method: 'POST', path: '/calendars', body: pick([breakField(validCalendar(), { name: isShortString(200) }), { ...validCalendar(), spaceId: pick(BAD_IDS) }, { ...validCalendar(), color: pick(['red', '#12', 5, { $gt: '' }]) }]), auth: true }); break;
      case 8: add({ method: 'PATCH', path: '/me', body: pick([breakField(validProfile(), { name: isShortString(200) }), { timeZone: pick(['Mars/Olympus', 5, '', 'UTC; DROP']) }, { weekStartsOn: pick([7, -1, '1', 1.5]) }, { username: pick(['A', 'x', 'with space', '../admin']) }, { [pick(POLLUTION_KEYS)]: 1 }]), auth: true }); break;
      case 9: add({ method: 'POST', path: pick(['/auth/signup', '/auth/login']), body: pick([breakField(validSignup(), { email: () => false, password: (v) => typeof v === 'string' && v.length >= 8 && v.length <= 512 }), { ...validSignup(), [pick(POLLUTION_KEYS)]: true }, '{"email": ', 'null', '[]', '"text"']), auth: false }); break;
      default: add({ method: 'GET', path: `/sync?since=${enc(String(pick(HOSTILE_VALUES)).slice(0, 400))}`, auth: true });
    }
  }
  return out;
}

beforeAll(async () => {
  svc = await startTestService({ RATE_LIMIT_PER_CREDENTIAL: '100000', RATE_LIMIT_PER_IP: '100000' });
  base = svc.base;
  user = await signUp(base);
  const created = await user.call('POST', '/events', { title: 'target', startsAt: '2026-11-30T09:00:00Z', endsAt: '2026-11-30T10:00:00Z' });
  eventId = created.body.event.id;
}, 60_000);
afterAll(() => svc.stop());

it('answers 2,000+ hostile requests with 4xx envelopes and stores nothing', async () => {
  const head = await svc.service.context.events.headPosition();
  const all = cases();
  expect(all.length).toBeGreaterThanOrEqual(2000);
  const bad: string[] = [];
  for (let i = 0; i < all.length; i += 20) {
    const batch = all.slice(i, i + 20);
    const answers = await Promise.all(
      batch.map((c) => request(base, c.method, c.path, c.body, c.auth ? { authorization: `Bearer ${user.token}` } : {})),
    );
    answers.forEach((res, j) => {
      const ok = res.status >= 400 && res.status < 500 && typeof res.body?.error?.code === 'string' && typeof res.body?.error?.message === 'string';
      if (!ok) bad.push(`${batch[j].method} ${batch[j].path.slice(0, 120)} ${JSON.stringify(batch[j].body)?.slice(0, 120)} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 160)}`);
    });
  }
  expect(bad).toEqual([]);
  expect(await svc.service.context.events.headPosition()).toBe(head);
  const target = await user.call('GET', `/events/${eventId}`);
  expect(target.body.event).toMatchObject({ title: 'target', version: 1, attendees: [] });
}, 120_000);

/** Rules a hostile client would send: each must be refused without expanding anything. */
function hostileRules(): string[] {
  const list = (n: number, max: number) => Array.from({ length: n }, (_, i) => i % (max + 1)).join(',');
  const rules = [
    'FREQ=HOURLY;COUNT=1000000000', 'FREQ=DAILY;UNTIL=99991231T000000Z', 'FREQ=YEARLY;COUNT=100001',
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=2', 'FREQ=DAILY;FREQ=MINUTELY;COUNT=50000', 'freq=minutely', 'FREQ=SECONDLY;COUNT=5',
    `FREQ=HOURLY;BYMINUTE=${list(60, 59)};BYSECOND=${list(60, 59)}`, `FREQ=DAILY;BYHOUR=${list(24, 23)};BYMINUTE=0,30`,
    `FREQ=YEARLY;BYYEARDAY=${list(40, 366).replace(/^0,/, '')}`, 'FREQ=YEARLY;BYWEEKNO=53;BYMONTH=6', 'FREQ=MONTHLY;BYDAY=5MO;BYMONTH=2;COUNT=999',
    'FREQ=DAILY;UNTIL=19700101T000000Z', 'FREQ=DAILY;COUNT=0', 'FREQ=DAILY;INTERVAL=99999999999',
    'FREQ=DAILY;COUNT=5;UNTIL=20270101T000000Z', 'FREQ=WEEKLY;BYDAY=1MO', 'FREQ=DAILY;BYSETPOS=1', 'FREQ=DAILY;X-EVIL=1',
  ];
  const parts = ['FREQ=DAILY', 'INTERVAL=2', 'COUNT=3', 'BYDAY=MO', 'BYMONTH=1', 'BYHOUR=9', 'WKST=MO'];
  for (let i = 0; i < 30; i++) {
    const part = pick(parts);
    rules.push(pick([
      `FREQ=WEEKLY;${part};${part}`, // a part given twice
      `FREQ=YEARLY;BYMONTH=${Math.floor(random() * 12) + 1};BYMONTHDAY=${pick([30, 31, -30, -31])};BYDAY=${pick(['5MO', '-5FR'])};COUNT=${Math.floor(random() * 1000) + 1}`,
      `FREQ=HOURLY;BYMINUTE=${list(Math.floor(random() * 30) + 2, 59)};BYSECOND=${list(Math.floor(random() * 30) + 2, 59)}`,
      `FREQ=DAILY;UNTIL=${2040 + Math.floor(random() * 7000)}0101T000000Z`,
      `FREQ=${pick(['HOURLY', 'DAILY'])};COUNT=${1001 + Math.floor(random() * 1e9)}`,
      `FREQ=MONTHLY;${pick(['BYMONTHDAY=32', 'BYDAY=6TU', 'BYSETPOS=0', 'BYMONTH=13', 'BYHOUR=24', 'BYMINUTE=60'])}`,
    ]));
  }
  return rules;
}

it('refuses hostile recurrence rules and answers huge windows in bounded pages, never stalling anyone', async () => {
  const other = await signUp(base);
  const series = await user.call('POST', '/events', {
    title: 'hourly', busy: false, startsAt: '2026-12-02T00:00:00Z', endsAt: '2026-12-02T00:10:00Z', recurrenceRule: 'FREQ=HOURLY',
  });
  expect(series.status).toBe(201);
  const before = await svc.service.context.events.headPosition();
  const bad: string[] = [];
  let written = 0;
  /** Sends one hostile request with a /healthz beside it; then another user writes and reads back at once. */
  const probe = async (label: string, send: () => Promise<{ status: number; body: any }>, ok: (r: { status: number; body: any }) => boolean) => {
    const [res, health] = await Promise.all([send(), request(svc.service.url!, 'GET', '/healthz')]);
    if (!ok(res) || health.status !== 200) bad.push(`${label} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 160)} (healthz ${health.status})`);
    const mine = await other.call('POST', '/events', { title: 'mine', busy: false, startsAt: '2027-06-01T09:00:00Z', endsAt: '2027-06-01T09:30:00Z' });
    written++;
    if (mine.status !== 201 || (await other.call('GET', `/events/${mine.body.event.id}`)).status !== 200) bad.push(`${label}: another user's write not readable`);
  };
  const refused = (r: { status: number; body: any }) => r.status === 400 && r.body?.error?.code === 'invalid_request';

  for (const rule of hostileRules()) {
    const body = { title: 'hostile', startsAt: '2026-12-01T09:00:00Z', endsAt: '2026-12-01T10:00:00Z', recurrenceRule: rule };
    await probe(`POST ${rule.slice(0, 80)}`, () => user.call('POST', '/events', body), refused);
    await probe(`PATCH ${rule.slice(0, 80)}`, () => user.call('PATCH', `/events/${series.body.event.id}`, { recurrenceRule: rule }), refused);
  }
  for (let i = 0; i < 12; i++) {
    const year = 2027 + Math.floor(random() * 7900);
    const from = `${year}-0${1 + Math.floor(random() * 9)}-01T00:00:00Z`;
    const inRange = new Date(Date.parse(from) + 366 * 86_400_000).toISOString();
    const query = (to: string, extra = '') => `/events?from=${enc(from)}&to=${enc(to)}${extra}`;
    const limit = pick([500, 1, 37]);
    await probe(`GET a year from ${from}`, () => user.call('GET', query(inRange, `&limit=${limit}`)), (r) =>
      r.status === 200 && r.body.events.length === limit && typeof r.body.nextPageToken === 'string'); // the hourly series fills every page
    await probe(`GET ${from} to 9999`, () => user.call('GET', query('9999-12-31T23:59:59Z')), refused);
    await probe(`GET from 0001`, () => user.call('GET', `/events?from=${enc('0001-01-01T00:00:00Z')}&to=${enc(from)}`), refused);
  }
  expect(bad).toEqual([]);
  expect(await svc.service.context.events.headPosition()).toBe(before + written); // only the other user's writes
}, 180_000);
