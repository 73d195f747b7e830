/** The examples shown in the OpenAPI document for the planner are valid values of their own schemas. */
import { z } from 'zod';
import * as contract from '../../contracts/planner';

const named = Object.entries(contract).filter(([, value]) => value instanceof z.ZodType && z.globalRegistry.get(value)?.id);

it('names every request and response schema, each with examples', () => {
  expect(named.map(([name]) => name).sort()).toEqual(
    ['ApplyBlock', 'ApplyBody', 'ApplyResponse', 'PlanBody', 'PlanReason', 'PlanResponse', 'PlannedBlock', 'UnplacedItem'],
  );
});

it.each(named)('%s: every example parses', (_name, schema) => {
  const examples = z.globalRegistry.get(schema as z.ZodType)!.examples as unknown[];
  expect(examples.length).toBeGreaterThan(0);
  for (const example of examples) expect((schema as z.ZodType).safeParse(example).error?.issues ?? []).toEqual([]);
});

it('takes a planned block back as an apply block', () => {
  const planned = (z.globalRegistry.get(contract.PlannedBlock)!.examples as unknown[])[0];
  expect(contract.ApplyBlock.safeParse(planned).success).toBe(true);
});
