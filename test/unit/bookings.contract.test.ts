/** The examples shown in the OpenAPI document for bookings and the inbox are valid values of their own schemas. */
import { z } from 'zod';
import * as bookings from '../../contracts/bookings';
import * as inbox from '../../contracts/inbox';

const named = Object.entries({ ...bookings, ...inbox }).filter(([, value]) => value instanceof z.ZodType && z.globalRegistry.get(value)?.examples);

it('gives every request and response body of the slice an example', () => {
  const bodies = [...bookings.meetingTypeOperations, ...bookings.publicBookingOperations, ...bookings.bookingOperations, ...inbox.inboxOperations]
    .flatMap((op) => [op.body, ...Object.values(op.responses).map((r) => r.schema)])
    .filter((schema): schema is z.ZodType => !!schema && z.globalRegistry.get(schema)?.id !== 'Error');
  for (const schema of bodies) expect((z.globalRegistry.get(schema)?.examples as unknown[] | undefined)?.length).toBeGreaterThan(0);
});

it.each(named)('%s: every example parses', (_name, schema) => {
  for (const example of z.globalRegistry.get(schema as z.ZodType)!.examples as unknown[]) {
    const result = (schema as z.ZodType).safeParse(example);
    expect(result.error?.issues ?? []).toEqual([]);
  }
});
