/**
 * Ordering inside lists under concurrent moves: several sessions of one owner move many tasks at once, across two
 * lists, next to anchor tasks that never move. After each round every task is in exactly one list, each list's
 * order is total (strictly increasing ranks) and stable, and every acknowledged move still holds: the mover sits on
 * the side of its anchor it asked for, and no further than the neighbouring anchor.
 */
import { prng } from '../support/prng';
import { request, signUp, useTestService, type Client } from '../support/service';

// Three rounds of concurrent moves take about 10 s alone; two suites at once on loaded engines took 41.
jest.setTimeout(120_000);

let base: string;
useTestService((started) => (base = started.base));

const ANCHORS_PER_LIST = 5;
const MOVERS = 24;
const SESSIONS = 6;
const ROUNDS = 3;

async function sessionsOf(owner: Client, n: number): Promise<Array<Client['call']>> {
  const calls: Array<Client['call']> = [owner.call];
  for (let i = 1; i < n; i++) {
    const res = await request(base, 'POST', '/auth/login', { email: owner.email, password: 'correct horse' });
    expect(res.status).toBe(200);
    const token = res.body.session.token as string;
    calls.push((method, path, body, headers = {}) => request(base, method, path, body, { authorization: `Bearer ${token}`, ...headers }));
  }
  return calls;
}

it('keeps every task exactly once, in a total and stable order that respects every acknowledged move', async () => {
  const owner = await signUp(base);
  const sessions = await sessionsOf(owner, SESSIONS);
  const project = (await owner.call('POST', '/projects', { name: 'Board' })).body;
  const lists: string[] = [project.lists[0].id, (await owner.call('POST', `/projects/${project.project.id}/lists`, { name: 'Two' })).body.list.id];
  const make = async (listId: string, title: string) => {
    const res = await owner.call('POST', '/tasks', { title, listId });
    expect(res.status).toBe(201);
    return res.body.task.id as string;
  };
  const anchors: string[][] = [];
  for (const listId of lists) {
    const row: string[] = [];
    for (let i = 0; i < ANCHORS_PER_LIST; i++) row.push(await make(listId, `anchor ${i}`));
    anchors.push(row);
  }
  const movers: string[] = [];
  for (let i = 0; i < MOVERS; i++) movers.push(await make(lists[i % 2], `mover ${i}`));

  const orderOf = async (listId: string) => {
    const res = await owner.call('GET', `/tasks?listId=${listId}&limit=500`);
    expect(res.status).toBe(200);
    return res.body.tasks as Array<{ id: string; rank: string; listId: string }>;
  };

  const random = prng(7);
  for (let round = 0; round < ROUNDS; round++) {
    const moves = movers.map((id, i) => {
      const list = Math.floor(random() * 2);
      const anchor = Math.floor(random() * ANCHORS_PER_LIST);
      return { id, list, anchor, side: random() < 0.5 ? 'beforeId' : 'afterId', session: sessions[i % SESSIONS] };
    });
    const answers = await Promise.all(moves.map((m) => m.session('PATCH', `/tasks/${m.id}`, { listId: lists[m.list], [m.side]: anchors[m.list][m.anchor] })));
    expect(answers.map((a) => a.status)).toEqual(moves.map(() => 200));

    const orders = await Promise.all(lists.map(orderOf));
    const all = orders.flat().map((t) => t.id);
    expect([...all].sort()).toEqual([...anchors.flat(), ...movers].sort());
    for (const [i, order] of orders.entries()) {
      expect(order.every((t) => t.listId === lists[i])).toBe(true);
      const ranks = order.map((t) => t.rank);
      for (let k = 1; k < ranks.length; k++) expect(ranks[k - 1] < ranks[k]).toBe(true);
      // Anchors never move: they keep their relative order.
      expect(order.map((t) => t.id).filter((id) => anchors[i].includes(id))).toEqual(anchors[i]);
    }
    expect(await Promise.all(lists.map(orderOf))).toEqual(orders);

    for (const m of moves) {
      const order = orders[m.list].map((t) => t.id);
      const at = order.indexOf(m.id);
      const anchorAt = order.indexOf(anchors[m.list][m.anchor]);
      const bound = anchors[m.list][m.anchor + (m.side === 'afterId' ? 1 : -1)];
      const what = `round ${round}: ${m.id} ${m.side} anchor ${m.anchor} of list ${m.list}`;
      if (m.side === 'afterId') {
        expect({ what, after: at > anchorAt }).toEqual({ what, after: true });
        if (bound) expect({ what, beforeNext: at < order.indexOf(bound) }).toEqual({ what, beforeNext: true });
      } else {
        expect({ what, before: at < anchorAt }).toEqual({ what, before: true });
        if (bound) expect({ what, afterPrevious: at > order.indexOf(bound) }).toEqual({ what, afterPrevious: true });
      }
    }
  }
});
