import type { z } from 'zod';
import { availabilityOperations, type AvailabilityQuery, type AvailableSlotsQuery, type FreeBusyQuery } from '../../contracts/availability';
import { findOperation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { availabilityDays, availableSlots, freeBusy } from './availability.queries';
import { routineBlocks } from '../routines/routines.queries';
import { readModelSources } from './sources';

export function availabilityRoutes(app: AppContext) {
  const sources = readModelSources(app.readModels, routineBlocks);
  const userOf = (principal: { userId: string } | null) => principal!.userId;
  return [
    route<unknown, z.infer<typeof AvailabilityQuery>>(findOperation(availabilityOperations, 'get', '/availability'), async ({ query, principal }) => ({
      status: 200,
      body: await availabilityDays(sources, userOf(principal), query, Date.now()),
    })),
    route<unknown, z.infer<typeof AvailableSlotsQuery>>(findOperation(availabilityOperations, 'get', '/available-slots'), async ({ query, principal }) => ({
      status: 200,
      body: await availableSlots(sources, userOf(principal), query, Date.now()),
    })),
    route<unknown, z.infer<typeof FreeBusyQuery>>(findOperation(availabilityOperations, 'get', '/free-busy'), async ({ query, principal }) => ({
      status: 200,
      body: await freeBusy(sources, userOf(principal), query, Date.now()),
    })),
  ];
}
