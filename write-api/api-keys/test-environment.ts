/**
 * Test-environment data lives in a separate account per user: a user id derived from the real one, with its own
 * personal Space and default calendar. Test keys act as that account, so every ownership rule that keeps two users
 * apart keeps test and live data apart too. The account has no password, so nobody can sign in to it.
 */
import type { UserRecord } from '../../contracts/domain-events';
import type { AppContext } from '../../services/app-context';
import { ApiError, notFound } from '../../services/errors';
import type { CommandContext } from '../../services/commands/command-handler';
import { deterministicUuid } from '../../services/ids';
import { claimDecider, claimStream } from '../accounts/claim.decider';
import { claimUsername, DEFAULT_MODULES, ensurePersonalSpace } from '../accounts/signup';
import { userDecider, userStream } from '../accounts/user.decider';
import { scheduleDecider, scheduleStream } from '../schedule/schedule.decider';

/** Not a scrypt hash: password checks against it always fail. */
const NO_PASSWORD = 'none';

const TEST_EMAIL_DOMAIN = '@test-environment.invalid';

export const testUserIdOf = (userId: string): string => deterministicUuid(userId, 'test-environment');
export const isTestAccountEmail = (email: string): boolean => email.toLowerCase().endsWith(TEST_EMAIL_DOMAIN);

const loadUser = async (app: AppContext, userId: string) => (await app.commands.load(userStream(userId), userDecider)).state.user;

/** Whether a Space belongs to a test-environment account (they own nothing but their personal Space). */
export async function isTestSpace(app: AppContext, spaceId: string): Promise<boolean> {
  const ownerId = (await app.commands.load(scheduleStream(spaceId), scheduleDecider)).state.space?.ownerId;
  const owner = ownerId ? await loadUser(app, ownerId) : null;
  return owner ? isTestAccountEmail(owner.email) : false;
}

/**
 * Creates the user's test-environment account if it does not exist yet (ids derive from the user's, so concurrent
 * or repeated calls converge on one account). Returns its id and the log position to wait for.
 */
export async function ensureTestAccount(app: AppContext, userId: string, correlationId: string) {
  const testUserId = testUserIdOf(userId);
  const ctx: CommandContext = { userId: testUserId, commandId: deterministicUuid(testUserId, 'create'), correlationId };
  let user = await loadUser(app, testUserId);
  let position: number | null = null;
  if (!user) {
    const owner = await loadUser(app, userId);
    if (!owner) throw notFound('User');
    // Reserved like a real signup's, so no one can sign up with this address or take the username later.
    const email = `${testUserId}${TEST_EMAIL_DOMAIN}`;
    await app.commands.handle(claimStream(app.claimSecret, 'email', email), claimDecider, { type: 'Claim', kind: 'email', value: email, userId: testUserId }, ctx);
    const username = await claimUsername(app, `test-${testUserId.slice(0, 8)}`, testUserId, ctx, false);
    const now = new Date().toISOString();
    const record: UserRecord = {
      id: testUserId, email, name: `${owner.name} (test)`, username, timeZone: owner.timeZone, weekStartsOn: owner.weekStartsOn,
      enabledModules: DEFAULT_MODULES, preferences: {},
      personalSpaceId: deterministicUuid(testUserId, 'personal-space'),
      defaultCalendarId: deterministicUuid(testUserId, 'default-calendar'),
      createdAt: now, updatedAt: now,
    };
    try {
      position = (await app.commands.handle(userStream(testUserId), userDecider, { type: 'Register', user: record, passwordHash: NO_PASSWORD }, ctx)).position;
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'email_taken') throw err; // a concurrent call registered it
    }
    user = (await loadUser(app, testUserId))!;
  }
  const space = await ensurePersonalSpace(app, user, ctx);
  return { testUserId, position: space ?? position };
}
