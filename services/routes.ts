/** Every operation of the API and its handler, slice by slice. */
import { authOperations } from '../contracts/auth';
import { eventOperations } from '../contracts/events';
import type { Operation } from '../contracts/operation';
import { profileOperations } from '../contracts/profile';
import { spaceOperations } from '../contracts/spaces';
import { syncOperations } from '../contracts/sync';
import { eventsReadRoutes } from '../read-api/events/events.routes';
import { profileReadRoutes } from '../read-api/profile/profile.routes';
import { spacesReadRoutes } from '../read-api/spaces/spaces.routes';
import { syncRoutes } from '../read-api/sync/sync.routes';
import { accountsRoutes } from '../write-api/accounts/accounts.routes';
import { eventsWriteRoutes } from '../write-api/events/events.routes';
import { profileWriteRoutes } from '../write-api/profile/profile.routes';
import { spacesWriteRoutes } from '../write-api/spaces/spaces.routes';
import type { AppContext } from './app-context';
import type { Route } from './http/route';

export const apiOperations: Operation[] = [
  ...authOperations, ...profileOperations, ...spaceOperations, ...eventOperations, ...syncOperations,
];

export function apiRoutes(app: AppContext): Route[] {
  return [
    ...accountsRoutes(app),
    ...profileReadRoutes(app),
    ...profileWriteRoutes(app),
    ...spacesReadRoutes(app),
    ...spacesWriteRoutes(app),
    ...eventsReadRoutes(app),
    ...eventsWriteRoutes(app),
    ...syncRoutes(app),
  ];
}
