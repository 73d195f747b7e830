import type { DeviceRecord } from '../../contracts/devices';
import { deviceDecider, type DeviceCommand } from '../../write-api/devices/device.decider';
import { pushTokenClaimDecider } from '../../write-api/devices/push-token-claim.decider';
import { notificationsDecider } from '../../write-api/notifications/notifications.decider';
import { given } from '../support/given';

const USER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const DEVICE = '33333333-3333-4333-8333-333333333333';
const DEVICE2 = '44444444-4444-4444-8444-444444444444';
const NOW = '2031-05-01T08:00:00.000Z';
const LATER = '2031-05-02T08:00:00.000Z';

const record: DeviceRecord = {
  id: DEVICE, userId: USER, platform: 'ios', name: 'Phone', pushToken: 'token-1234', tokenKey: 'key', createdAt: NOW, updatedAt: NOW,
};
const registered = { type: 'device.registered' as const, data: { device: record } };
const removed = { type: 'device.removed' as const, data: { device: record } };

const register = (overrides: Partial<Extract<DeviceCommand, { type: 'RegisterDevice' }>> = {}): DeviceCommand => ({
  type: 'RegisterDevice', deviceId: DEVICE, userId: USER, platform: 'ios', name: 'Phone', pushToken: 'token-1234', tokenKey: 'key', now: LATER, ...overrides,
});
const remove = (userId = USER): DeviceCommand => ({ type: 'RemoveDevice', userId, now: LATER });

describe('device decider', () => {
  it('registers a new device', () => {
    given(deviceDecider, []).when(register({ now: NOW })).then([{ type: 'device.registered', data: { device: record } }]);
  });

  it('a registration of a registered device updates what changed and keeps its creation time', () => {
    given(deviceDecider, [registered]).when(register({ name: 'New name', platform: 'android' })).then([
      { type: 'device.updated', data: { device: { ...record, name: 'New name', platform: 'android', updatedAt: LATER } } },
    ]);
  });

  it('an omitted name keeps the name; null clears it', () => {
    given(deviceDecider, [registered]).when(register({ name: undefined, pushToken: 'token-5678' })).then([
      { type: 'device.updated', data: { device: { ...record, pushToken: 'token-5678', updatedAt: LATER } } },
    ]);
    given(deviceDecider, [registered]).when(register({ name: null })).then([{ type: 'device.updated', data: { device: { ...record, name: null, updatedAt: LATER } } }]);
  });

  it('the same registration again changes nothing', () => {
    given(deviceDecider, [registered]).when(register()).then([]);
  });

  it('removes a device once; a removed device cannot be registered again', () => {
    given(deviceDecider, [registered]).when(remove()).then([{ type: 'device.removed', data: { device: { ...record, updatedAt: LATER } } }]);
    given(deviceDecider, [registered, removed]).when(remove()).thenThrows('not_found');
    given(deviceDecider, [registered, removed]).when(register()).thenThrows('not_found');
    given(deviceDecider, []).when(remove()).thenThrows('not_found');
  });

  it('someone else\'s device is not found', () => {
    given(deviceDecider, [registered]).when(remove(OTHER)).thenThrows('not_found');
    given(deviceDecider, [registered]).when(register({ userId: OTHER })).thenThrows('not_found');
  });
});

describe('push token claim decider', () => {
  const claim = (deviceId: string) => ({ type: 'ClaimPushToken' as const, userId: USER, deviceId, tokenKey: 'key' });
  const release = (deviceId: string) => ({ type: 'ReleasePushToken' as const, deviceId, tokenKey: 'key' });
  const claimed = (deviceId: string) => ({ type: 'push_token.claimed' as const, data: { userId: USER, deviceId, tokenKey: 'key' } });
  const released = (deviceId: string) => ({ type: 'push_token.released' as const, data: { userId: USER, deviceId, tokenKey: 'key' } });

  it('the first claim wins; later claims change nothing, another user\'s included', () => {
    given(pushTokenClaimDecider, []).when(claim(DEVICE)).then([claimed(DEVICE)]);
    given(pushTokenClaimDecider, [claimed(DEVICE)]).when(claim(DEVICE2)).then([]);
    given(pushTokenClaimDecider, [claimed(DEVICE)]).when({ ...claim(DEVICE2), userId: OTHER }).then([]);
  });

  it('only the holder releases; a released token can be claimed again', () => {
    given(pushTokenClaimDecider, [claimed(DEVICE)]).when(release(DEVICE2)).then([]);
    given(pushTokenClaimDecider, [claimed(DEVICE)]).when(release(DEVICE)).then([released(DEVICE)]);
    given(pushTokenClaimDecider, [claimed(DEVICE), released(DEVICE)]).when(claim(DEVICE2)).then([claimed(DEVICE2)]);
  });
});

describe('notifications decider', () => {
  it('appends a requested notification and a mark as they come', () => {
    const request = { userId: USER, title: 'Hello', body: null, source: { type: 'automation', id: null } };
    given(notificationsDecider, []).when({ type: 'RequestNotification', request }).then([{ type: 'notification.requested', data: request }]);
    given(notificationsDecider, []).when({ type: 'MarkAllRead', userId: USER }).then([{ type: 'notifications.marked_read', data: { userId: USER } }]);
  });
});
