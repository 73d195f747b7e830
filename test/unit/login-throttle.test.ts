/**
 * The sign-in throttle counts per address and per email at an address: a guesser's failures delay and lock only
 * their own address, never the same email from another one; memory stays bounded without resetting anyone.
 * Time is the test's clock and delays are recorded, not slept.
 */
import { ApiError } from '../../services/errors';
import { LoginThrottle, type LoginThrottleOptions } from '../../services/http/login-throttle';

const WINDOW = 15 * 60_000;

function throttle(options: Partial<LoginThrottleOptions> = {}) {
  const clock = { now: 1_000_000 };
  const delays: number[] = [];
  const t = new LoginThrottle({
    freeFailures: 2, maxFailures: 4, windowMs: WINDOW, baseDelayMs: 100, maxDelayMs: 1000,
    now: () => clock.now,
    sleep: async (ms) => void delays.push(ms),
    ...options,
  });
  return { t, clock, delays };
}

async function refusal(attempt: Promise<void>): Promise<ApiError | null> {
  try {
    await attempt;
    return null;
  } catch (err) {
    return err as ApiError;
  }
}

const fail = (t: LoginThrottle, email: string, ip: string, times: number) => {
  for (let i = 0; i < times; i++) t.failed(email, ip);
};

describe('LoginThrottle', () => {
  it('slows an email at one address after the free failures, doubling, and locks it past the limit', async () => {
    const { t, delays } = throttle();
    fail(t, 'ada@example.com', '10.0.0.1', 2);
    await t.beforeAttempt('ada@example.com', '10.0.0.1');
    fail(t, 'ada@example.com', '10.0.0.1', 1);
    await t.beforeAttempt('ada@example.com', '10.0.0.1');
    expect(delays).toEqual([100, 200]);
    fail(t, 'ada@example.com', '10.0.0.1', 1);
    const refused = await refusal(t.beforeAttempt('ADA@example.com', '10.0.0.1'));
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited', details: { retryAfter: WINDOW / 1000 } });
  });

  it('never delays or refuses the same email from another address', async () => {
    const { t, delays } = throttle();
    fail(t, 'ada@example.com', '10.0.0.1', 19);
    expect(await refusal(t.beforeAttempt('ada@example.com', '10.0.0.1'))).toMatchObject({ status: 429 });
    expect(await refusal(t.beforeAttempt('ada@example.com', '10.0.0.2'))).toBeNull();
    expect(await refusal(t.beforeAttempt('ada@example.com', '2001:db8:1::5'))).toBeNull();
    expect(delays).toEqual([]);
  });

  it('counts an IPv6 address by its /64', async () => {
    const { t } = throttle();
    fail(t, 'ada@example.com', '2001:db8:1:2::1', 2);
    fail(t, 'ada@example.com', '2001:db8:1:2:ffff::9', 2);
    expect(await refusal(t.beforeAttempt('ada@example.com', '2001:0db8:0001:0002::7'))).toMatchObject({ status: 429 });
    expect(await refusal(t.beforeAttempt('ada@example.com', '2001:db8:1:3::1'))).toBeNull();
  });

  it('slows and then stops an address spraying many emails, on a hundred times the scale', async () => {
    const { t, delays } = throttle();
    for (let i = 0; i < 250; i++) t.failed(`person${i}@example.com`, '10.0.0.9');
    await t.beforeAttempt('new@example.com', '10.0.0.9');
    expect(delays).toEqual([100]);
    for (let i = 250; i < 400; i++) t.failed(`person${i}@example.com`, '10.0.0.9');
    expect(await refusal(t.beforeAttempt('new@example.com', '10.0.0.9'))).toMatchObject({ status: 429 });
    expect(await refusal(t.beforeAttempt('new@example.com', '10.0.0.10'))).toBeNull();
  });

  it('a success clears its email at its address only; a window that ended counts nothing', async () => {
    const { t, clock } = throttle();
    fail(t, 'ada@example.com', '10.0.0.1', 4);
    fail(t, 'ada@example.com', '10.0.0.2', 4);
    t.succeeded('ada@example.com', '10.0.0.1');
    expect(await refusal(t.beforeAttempt('ada@example.com', '10.0.0.1'))).toBeNull();
    expect(await refusal(t.beforeAttempt('ada@example.com', '10.0.0.2'))).toMatchObject({ status: 429 });
    clock.now += WINDOW + 1;
    expect(await refusal(t.beforeAttempt('ada@example.com', '10.0.0.2'))).toBeNull();
  });

  it('keeps at most maxKeys counts; a flood of newcomers never resets those already counted', async () => {
    const { t, clock } = throttle({ maxKeys: 10 });
    fail(t, 'victim-guesser@example.com', '10.0.0.1', 4);
    for (let i = 0; i < 1000; i++) t.failed(`flood${i}@example.com`, `10.1.${i >> 8}.${i & 255}`);
    expect(await refusal(t.beforeAttempt('victim-guesser@example.com', '10.0.0.1'))).toMatchObject({ status: 429 });
    // Once the windows end they drop out, and newcomers are counted again.
    clock.now += WINDOW + 1;
    fail(t, 'later@example.com', '10.2.0.1', 4);
    expect(await refusal(t.beforeAttempt('later@example.com', '10.2.0.1'))).toMatchObject({ status: 429 });
  });
});
