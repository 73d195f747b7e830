/**
 * A Space-audience delivery does not depend on how far the schedule projection got (issue 8.7): with the projection
 * stopped well past MIN_POSITION_WAIT_MS, an event in a brand-new Space (whose membership only the lagging
 * projection knows) is still delivered once the projection catches up, never dropped.
 */
import { newId } from '../../services/ids';
import { scheduleDecider, scheduleStream } from '../../write-api/schedule/schedule.decider';
import { sleep, startReceiver, until, type Receiver } from '../support/receiver';
import { signUp, startTestService, type TestService } from '../support/service';

const WAIT_MS = 300;
let svc: TestService;
let receiver: Receiver;
jest.setTimeout(90_000);

beforeAll(async () => {
  [svc, receiver] = await Promise.all([
    startTestService({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', MIN_POSITION_WAIT_MS: String(WAIT_MS) }),
    startReceiver(),
  ]);
});
afterAll(async () => {
  await svc.stop();
  await receiver.close();
});

it('delivers an event of a new Space created while the schedule projection lags', async () => {
  const user = await signUp(svc.base);
  const hook = await user.call('POST', '/webhooks', { name: 'lag', url: receiver.url('/lag'), events: ['event.created'] });
  expect(hook.status).toBe(201);

  await svc.service.runner!.stop(); // the projection lags from here on
  const space = await user.call('POST', '/spaces', { name: 'Created while lagging' });
  expect(space.status).toBe(201);
  const { id: spaceId } = space.body.space;
  const now = new Date().toISOString();
  const eventId = newId();
  await svc.service.context.commands.handle(scheduleStream(spaceId), scheduleDecider, {
    type: 'CreateEvent', actorId: user.userId, eventId, now,
    fields: {
      calendarId: space.body.calendar.id, title: 'while lagging', description: null, location: null, meetingUrl: null,
      kind: 'meeting', startsAt: '2031-09-01T09:00:00.000Z', endsAt: '2031-09-01T10:00:00.000Z', timeZone: 'UTC',
      allDay: false, busy: true, recurrenceRule: null, resources: [], attendees: [], reminders: [], allowOverlap: false, taskId: null,
      goalId: null,
    },
  }, { userId: user.userId, commandId: newId(), correlationId: 'lag-test', spaceId });

  await sleep(WAIT_MS * 8); // the dispatcher meets the event several times over while the projection is stopped
  expect(receiver.received('/lag')).toHaveLength(0);
  await svc.service.runner!.start();

  await until(() => receiver.received('/lag').length > 0, 45_000, 'the delivery once the projection caught up');
  const [got] = receiver.received('/lag');
  expect(got.json).toMatchObject({ type: 'event.created', data: { id: eventId, spaceId, title: 'while lagging' } });
});
