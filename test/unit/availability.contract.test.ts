/** The examples shown in the OpenAPI document for availability are valid values of their own schemas. */
import { z } from 'zod';
import * as contract from '../../contracts/availability';

const named = Object.entries(contract).filter(([, value]) => value instanceof z.ZodType && z.globalRegistry.get(value)?.examples);

it('names the answer schemas with examples', () => {
  expect(named.map(([name]) => name)).toEqual(expect.arrayContaining(['AvailabilityResponse', 'AvailableSlotsResponse', 'FreeBusyResponse', 'WorkingHours', 'BlockReason']));
});

it.each(named)('%s: every example parses', (_name, schema) => {
  for (const example of z.globalRegistry.get(schema as z.ZodType)!.examples as unknown[]) {
    const result = (schema as z.ZodType).safeParse(example);
    expect(result.error?.issues ?? []).toEqual([]);
  }
});
