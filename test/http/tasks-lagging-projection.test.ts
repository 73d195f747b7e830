/**
 * A task command finds the caller's own task on their board in the log, not in the read model: a task just created
 * can be changed and deleted at once while the projections lag well past MIN_POSITION_WAIT_MS. Someone else's task
 * is still found only through the read model, so another user gets 404 as before.
 */
import { signUp, startTestService, type TestService } from '../support/service';

const WAIT_MS = 200;
let svc: TestService;
jest.setTimeout(60_000);

beforeAll(async () => {
  svc = await startTestService({ MIN_POSITION_WAIT_MS: String(WAIT_MS) });
});
afterAll(async () => {
  await svc.stop();
});

it('changes and deletes a task created while the projections are stopped; another user still gets 404', async () => {
  const [a, b] = await Promise.all([signUp(svc.base), signUp(svc.base)]);
  await svc.service.runner!.stop(); // the read models lag from here on

  const created = await a.call('POST', '/tasks', { title: 'while lagging' });
  expect(created.status).toBe(201);
  const { id } = created.body.task;

  expect((await b.call('PATCH', `/tasks/${id}`, { status: 'done' })).status).toBe(404);
  const done = await a.call('PATCH', `/tasks/${id}`, { status: 'done' });
  expect(done.status).toBe(200);
  expect(done.body.task).toMatchObject({ id, status: 'done', version: 2 });
  expect((await b.call('DELETE', `/tasks/${id}`)).status).toBe(404);
  expect((await a.call('DELETE', `/tasks/${id}`)).status).toBe(204);
  expect((await a.call('PATCH', `/tasks/${id}`, { title: 'gone' })).status).toBe(404);

  await svc.service.runner!.start();
});
