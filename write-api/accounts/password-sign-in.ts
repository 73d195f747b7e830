/**
 * Signing in with email and password, shared by POST /auth/login and the OAuth sign-in page, so both go through one
 * login throttle (services/http/login-throttle.ts) and cost the same time whether or not the email has an account.
 */
import type { UserRecord } from '../../contracts/domain-events';
import { credentialsByEmail } from '../../read-api/profile/users.queries';
import type { AppContext } from '../../services/app-context';
import { ApiError } from '../../services/errors';
import { SESSION_COOKIE } from '../../services/http/auth';
import { LoginThrottle } from '../../services/http/login-throttle';
import type { Input } from '../../services/http/route';
import { hashPassword, verifyPassword } from './password';

export interface SignedIn {
  user: UserRecord;
  session: { token: string; expiresAt: string };
}

/** The web session's cookie: HttpOnly, SameSite=Lax, Secure outside localhost. */
export function sessionCookie(input: Pick<Input<unknown, unknown, unknown>, 'header'>, session: SignedIn['session']): string {
  const host = (input.header('Host') ?? '').split(':')[0];
  const local = host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
  const maxAge = Math.max(0, Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${session.token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${local ? '' : '; Secure'}`;
}

/** Seconds a throttled sign-in must wait (the 429's `details.retryAfter`). */
export const retryAfterOf = (err: ApiError) => String((err.details as { retryAfter: number }).retryAfter);

export class PasswordSignIn {
  private readonly throttle: LoginThrottle;
  private dummyHash: Promise<string> | null = null;

  constructor(private readonly app: AppContext) {
    this.throttle = new LoginThrottle({
      freeFailures: app.config.LOGIN_FREE_FAILURES,
      maxFailures: app.config.LOGIN_MAX_FAILURES,
      windowMs: 15 * 60_000,
      baseDelayMs: 250,
      maxDelayMs: 8000,
    });
  }

  /** A new session for the account; throws 429 `rate_limited` (throttled) or 401 `invalid_credentials`. */
  async signIn(email: string, password: string, ip: string): Promise<SignedIn> {
    await this.throttle.beforeAttempt(email, ip);
    const found = await credentialsByEmail(this.app.readModels, email);
    // Unknown emails cost the same time as wrong passwords, so the answer tells nothing about who has an account.
    this.dummyHash ??= hashPassword('not a password', this.app.config.PASSWORD_HASH_COST);
    const ok = await verifyPassword(password, found?.passwordHash ?? (await this.dummyHash));
    if (!found || !ok) {
      this.throttle.failed(email, ip);
      throw new ApiError(401, 'invalid_credentials', 'Email or password is wrong');
    }
    this.throttle.succeeded(email, ip);
    return { user: found.user, session: await this.app.sessions.create(found.user.id) };
  }
}
