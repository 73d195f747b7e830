/** Every named schema of the routines contract carries a realistic example that the schema itself accepts. */
import { z } from 'zod';
import * as contract from '../../contracts/routines';

const named = (Object.entries(contract) as Array<[string, unknown]>).filter(
  (entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType && z.globalRegistry.get(entry[1])?.id !== undefined,
);

describe('routines contract examples', () => {
  it('names the request and response bodies', () => {
    expect(named.map(([name]) => name)).toEqual(expect.arrayContaining([
      'Routine', 'RoutineView', 'RoutinePeriodDay', 'RoutineInstance', 'CreateRoutineBody', 'UpdateRoutineBody', 'PeriodDayBody',
      'ItemDayBody', 'RoutineResponse', 'RoutineListResponse', 'InstancesResponse', 'InstanceResponse', 'ConflictsResponse',
    ]));
  });

  it.each(named)('%s has examples it accepts', (_name, schema) => {
    const examples = z.globalRegistry.get(schema)?.examples as unknown[] | undefined;
    expect(examples?.length).toBeGreaterThan(0);
    for (const example of examples!) expect(schema.safeParse(example).error).toBeUndefined();
  });
});
