/**
 * Large iCalendar texts are read on a worker thread (services/ical/read-thread.ts, the built code): what comes back
 * equals reading it here, and a refusal comes back as the same 400. Without a build the text is read here, which
 * these checks hold for too.
 */
import { readCalendar, readCalendarOffThread } from '../../services/ical';
import { benchCalendar } from '../bench/ical-bench';

it('reads a large text to the same result as on this thread, and refuses the same way', async () => {
  const text = benchCalendar(1500);
  expect(text.length).toBeGreaterThan(256 * 1024);
  const options = { defaultZone: 'Europe/Berlin' };
  expect(await readCalendarOffThread(text, options)).toEqual(readCalendar(text, options));
  const broken = `BEGIN:VCALENDAR\r\n${'no colon here\r\n'.repeat(30_000)}END:VCALENDAR\r\n`;
  await expect(readCalendarOffThread(broken, options)).rejects.toMatchObject({ status: 400, code: 'invalid_request', message: expect.stringMatching(/^Not valid iCalendar/) });
});
