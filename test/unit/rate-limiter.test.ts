import { addressKey, RateLimiter } from '../../services/http/rate-limit';

describe('rate limiter memory', () => {
  const limits = { perCredential: 100, perIp: 3, windowMs: 60_000, maxBuckets: 10 };

  it('never holds more than its cap, and a flood of new keys cannot reset a live bucket', () => {
    const limiter = new RateLimiter(limits);
    const t = 1_000_000;
    for (let i = 0; i < 3; i++) expect(limiter.hit('address:victim', 3, t).allowed).toBe(true);
    expect(limiter.hit('address:victim', 3, t).allowed).toBe(false);
    for (let i = 0; i < 5000; i++) limiter.hit(`address:flood-${i}`, 3, t + 1);
    expect(limiter.size).toBeLessThanOrEqual(10);
    expect(limiter.hit('address:victim', 3, t + 2).allowed).toBe(false); // still counted, not evicted
    // Newcomers past the cap share one overflow bucket at the per-address limit.
    expect(limiter.hit('address:late', 3, t + 3).allowed).toBe(false);
  });

  it('drops expired windows first, so new clients get their own bucket again', () => {
    const limiter = new RateLimiter(limits);
    for (let i = 0; i < 20; i++) limiter.hit(`address:old-${i}`, 3, 0);
    const fresh = limiter.hit('address:new', 3, 60_000);
    expect(fresh).toMatchObject({ allowed: true, remaining: 2 });
    expect(limiter.size).toBe(1);
  });
});

describe('addressKey', () => {
  it('keeps IPv4 (also IPv4-mapped) and groups IPv6 by /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::5')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
