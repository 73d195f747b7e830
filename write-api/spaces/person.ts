/** The user an email names, for a command that gives them a role; null for nobody (or a test-environment account). */
import { userById, userIdsByEmail } from '../../read-api/profile/users.queries';
import type { AppContext } from '../../services/app-context';
import { isTestAccountEmail } from '../api-keys/test-environment';
import { lookupCaughtUp } from '../schedule/locate';
import type { Person } from '../schedule/members.rules';

export async function personByEmail(app: AppContext, email: string): Promise<Person | null> {
  // Someone who just signed up may not be in the read model yet: a miss waits for it once.
  const user = await lookupCaughtUp(app, async () => {
    const id = (await userIdsByEmail(app.readModels, [email])).get(email.toLowerCase());
    return id ? userById(app.readModels, id) : null;
  });
  // Test-environment accounts (test API keys act as them) never take part in live sharing.
  if (!user || isTestAccountEmail(user.email)) return null;
  return { userId: user.id, email: user.email, name: user.name };
}
