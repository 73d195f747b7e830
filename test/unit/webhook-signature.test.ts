/** The receivers' verification helper and the address guard of the dispatcher. */
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signStandardWebhook, signWebhook, verifyWebhookSignature } from '../../contracts/webhook-signature';
import { isPrivateAddress } from '../../services/dispatcher/private-addresses';

const secret = 'whsec_test-secret';
const body = '{"id":"x","type":"event.created"}';
const now = Date.UTC(2031, 2, 1, 12);
const ts = Math.floor(now / 1000);

describe('webhook signatures', () => {
  it('is the lowercase hex HMAC-SHA256 of "{timestamp}.{body}"', () => {
    const expected = createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');
    expect(signWebhook(secret, ts, body)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('verifies a genuine signature, from a string or the raw bytes', () => {
    const signature = signWebhook(secret, ts, body);
    expect(verifyWebhookSignature({ secret, timestamp: String(ts), signature, body, now })).toBe(true);
    expect(verifyWebhookSignature({ secret, timestamp: ts, signature, body: Buffer.from(body), now })).toBe(true);
  });

  it('refuses a changed body, another secret, a changed timestamp or a malformed header', () => {
    const signature = signWebhook(secret, ts, body);
    expect(verifyWebhookSignature({ secret, timestamp: ts, signature, body: `${body} `, now })).toBe(false);
    expect(verifyWebhookSignature({ secret: 'whsec_other', timestamp: ts, signature, body, now })).toBe(false);
    expect(verifyWebhookSignature({ secret, timestamp: ts + 1, signature, body, now })).toBe(false);
    expect(verifyWebhookSignature({ secret, timestamp: ts, signature: signature.toUpperCase(), body, now })).toBe(false);
    expect(verifyWebhookSignature({ secret, timestamp: ts, signature: undefined, body, now })).toBe(false);
    expect(verifyWebhookSignature({ secret, timestamp: 'soon', signature, body, now })).toBe(false);
    expect(verifyWebhookSignature({ secret, timestamp: ts, signature: [signature], body, now })).toBe(false);
  });

  it('refuses timestamps outside the tolerance window (replays), either side', () => {
    const old = ts - 301;
    const future = ts + 301;
    expect(verifyWebhookSignature({ secret, timestamp: old, signature: signWebhook(secret, old, body), body, now })).toBe(false);
    expect(verifyWebhookSignature({ secret, timestamp: future, signature: signWebhook(secret, future, body), body, now })).toBe(false);
    const edge = ts - 300;
    expect(verifyWebhookSignature({ secret, timestamp: edge, signature: signWebhook(secret, edge, body), body, now })).toBe(true);
    expect(verifyWebhookSignature({ secret, timestamp: old, signature: signWebhook(secret, old, body), body, now, toleranceSeconds: 600 })).toBe(true);
  });
});

describe('Standard Webhooks signature', () => {
  it('verifies with the standardwebhooks package, given the secret as shown', () => {
    const shown = 'whsec_Q2FsZW5kYXJTZXJ2aWNlVGVzdEtleTAx';
    const signature = signStandardWebhook(shown, 'msg_1', ts, body);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': '' };
    headers['webhook-signature'] = signStandardWebhook(shown, 'msg_1', headers['webhook-timestamp'], body);
    expect(new Webhook(shown).verify(body, headers)).toEqual(JSON.parse(body));
    expect(signature).toBe(new Webhook(shown).sign('msg_1', new Date(ts * 1000), body));
  });

  it('signs with the same bytes for a secret made in the URL-safe alphabet; its standard-alphabet spelling verifies', () => {
    const urlSafe = 'whsec_ab-cd_ef0123456789ABCDEFGHIJKLMN';
    expect(() => new Webhook(urlSafe)).toThrow(); // the package decodes the standard alphabet only
    const converted = `whsec_${urlSafe.slice('whsec_'.length).replace(/-/g, '+').replace(/_/g, '/')}`;
    expect(signStandardWebhook(urlSafe, 'msg_2', ts, body)).toBe(new Webhook(converted).sign('msg_2', new Date(ts * 1000), body));
  });
});

describe('private addresses', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1',
    'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '2002:7f00:1::', 'not-an-ip',
  ])('refuses %s', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700::1111', '::ffff:93.184.216.34'])(
    'allows %s',
    (ip) => expect(isPrivateAddress(ip)).toBe(false),
  );
});
