import webpush from 'web-push';
import { loadConfig } from '../../services/config';

describe('push configuration', () => {
  const keys = webpush.generateVAPIDKeys();

  it('records by default and takes a VAPID key pair', () => {
    expect(loadConfig({}).PUSH_MODE).toBe('record');
    const config = loadConfig({ PUSH_MODE: 'deliver', VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey });
    expect(config).toMatchObject({ PUSH_MODE: 'deliver', VAPID_PUBLIC_KEY: keys.publicKey, VAPID_SUBJECT: 'mailto:push@localhost' });
  });

  it.each([
    ['half a key pair', { VAPID_PUBLIC_KEY: keys.publicKey }, 'VAPID_PRIVATE_KEY'],
    ['a public key that is not one', { VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: keys.privateKey }, 'VAPID_PUBLIC_KEY'],
    ['an unknown push mode', { PUSH_MODE: 'send' }, 'PUSH_MODE'],
    ['a gateway URL that is not http(s)', { PUSH_GATEWAY_URL: 'ftp://gateway.example.com' }, 'PUSH_GATEWAY_URL'],
    ['a VAPID subject that is no contact', { VAPID_SUBJECT: 'push team' }, 'VAPID_SUBJECT'],
  ])('refuses %s', (_label, env, variable) => {
    expect(() => loadConfig(env)).toThrow(variable);
  });
});
