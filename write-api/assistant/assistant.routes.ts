import type { AppContext } from '../../services/app-context';
import { actionsRoutes } from './actions.routes';
import { messagesRoutes } from './messages.routes';
import { preferencesRoutes } from './preferences.routes';

export const assistantWriteRoutes = (app: AppContext) => [...messagesRoutes(app), ...actionsRoutes(app), ...preferencesRoutes(app)];
