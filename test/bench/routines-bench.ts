/** Data for the GET /routines/instances load: one user (Europe/Berlin) with routines over a month, some days marked. */
import { json } from './util';

export const ROUTINES = 5;
const PERIODS = 3;
export const MONTH = { from: '2030-01-01', to: '2030-01-31' };

/** Creates the routines, marks every other date's first period done, and returns how many instances the month has. */
export async function createRoutines(base: string, token: string): Promise<number> {
  const auth = { authorization: `Bearer ${token}` };
  const call = async (method: string, path: string, body: unknown, want: number) => {
    const res = await json(`${base}${path}`, method, body, auth);
    if (res.status !== want) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await call('PATCH', '/me', { timeZone: 'Europe/Berlin' }, 200);
  for (let r = 0; r < ROUTINES; r++) {
    const periods = Array.from({ length: PERIODS }, (_, p) => ({
      name: `Period ${p + 1}`, startMinute: 360 + r * 150 + p * 45, endMinute: 390 + r * 150 + p * 45,
      windowStartMinute: 300, windowEndMinute: 1320, items: [{ title: 'First' }, { title: 'Second' }, { title: 'Third' }],
    }));
    const { routine } = await call('POST', '/routines', { name: `Routine ${r + 1}`, days: [1, 2, 3, 4, 5, 6, 7], periods }, 201);
    for (let day = 1; day <= 31; day += 2) {
      const date = `2030-01-${String(day).padStart(2, '0')}`;
      await call('PUT', `/routines/periods/${routine.periods[0].id}/days/${date}`, { status: 'done' }, 200);
      await call('PUT', `/routines/items/${routine.periods[1].items[0].id}/days/${date}`, { done: true }, 200);
    }
  }
  return ROUTINES * PERIODS * 31;
}
