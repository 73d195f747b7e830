import { deviceOperations, type DeviceRecord, type RegisterDeviceBody } from '../../contracts/devices';
import { findOperation } from '../../contracts/operation';
import { deviceView, ownDevice } from '../../read-api/devices/devices.queries';
import type { AppContext } from '../../services/app-context';
import { conflict, notFound } from '../../services/errors';
import { route, type Input } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import type { PushService } from '../../services/push/push-service';
import { lookupCaughtUp } from '../schedule/locate';
import { deviceDecider, deviceStream, type DeviceCommand } from './device.decider';
import { canonicalToken, pushTokenKey } from './push-token';
import { pushTokenClaimDecider, pushTokenClaimStream } from './push-token-claim.decider';

type IdParams = { id: string };
type AnyInput = Input<unknown, unknown, unknown>;

/** A claim whose device was removed is released and claimed again; this bounds how often that may repeat. */
const CLAIM_ATTEMPTS = 3;

export function devicesWriteRoutes(app: AppContext, push: PushService) {
  // Each step of one request is its own command (own event ids), derived from the request's command id so a retried
  // request repeats exactly the same steps.
  const ctx = (input: AnyInput, step: string) => ({
    userId: input.principal!.userId, commandId: deterministicUuid(input.commandId, step), correlationId: input.requestId,
  });

  /** Claims the token for the device unless someone holds it; answers the holder (device and user). */
  const claimToken = async (input: AnyInput, tokenKey: string, deviceId: string, attempt: number) => {
    const userId = input.principal!.userId;
    await app.commands.handle(pushTokenClaimStream(tokenKey), pushTokenClaimDecider, { type: 'ClaimPushToken', userId, deviceId, tokenKey }, ctx(input, `claim-${attempt}`));
    const { state } = await app.commands.load(pushTokenClaimStream(tokenKey), pushTokenClaimDecider);
    return { deviceId: state.deviceId!, userId: state.userId! };
  };

  const releaseToken = (input: AnyInput, tokenKey: string, deviceId: string, step: string) =>
    app.commands.handle(pushTokenClaimStream(tokenKey), pushTokenClaimDecider, { type: 'ReleasePushToken', deviceId, tokenKey }, ctx(input, step));

  /** Registers or updates the device; 201 when this request created it. */
  const register = async (input: AnyInput, command: Extract<DeviceCommand, { type: 'RegisterDevice' }>) => {
    const result = await app.commands.handle(deviceStream(command.deviceId), deviceDecider, command, ctx(input, 'register'));
    const created = result.events.some((e) => e.type === 'device.registered');
    const device = result.events.length
      ? result.events[result.events.length - 1].data.device
      : (await app.commands.load(deviceStream(command.deviceId), deviceDecider)).state.device!;
    return { status: created ? 201 : 200, body: { device: await deviceView(device, push.log) }, position: result.position };
  };

  const located = async (input: Input<unknown, unknown, IdParams>): Promise<DeviceRecord> => {
    const device = await lookupCaughtUp(app, () => ownDevice(app.readModels, input.principal!.userId, input.params.id));
    if (!device) throw notFound('Device');
    return device;
  };

  return [
    route<RegisterDeviceBody>(findOperation(deviceOperations, 'post', '/devices'), async (input) => {
      const { platform, name } = input.body;
      const userId = input.principal!.userId;
      const fields = { type: 'RegisterDevice' as const, userId, platform, name, now: new Date().toISOString() };
      const candidate = deterministicUuid(input.commandId, 'device');
      if (!input.body.pushToken) return register(input, { ...fields, deviceId: candidate, pushToken: null, tokenKey: null });

      const { pushToken, identity } = canonicalToken(platform, input.body.pushToken);
      const tokenKey = pushTokenKey(identity);
      for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
        const holder = await claimToken(input, tokenKey, candidate, attempt);
        if (!(await app.commands.load(deviceStream(holder.deviceId), deviceDecider)).state.removed) {
          if (holder.userId !== userId) throw conflict('push_token_taken', 'Another account\'s device holds this push token');
          return register(input, { ...fields, deviceId: holder.deviceId, pushToken, tokenKey });
        }
        // The holder was removed but its claim not yet released (a crash in between): release it and claim again.
        await releaseToken(input, tokenKey, holder.deviceId, `release-${attempt}`);
      }
      throw conflict('device_busy', 'This push token is being registered and removed concurrently; try again');
    }),

    route<unknown, unknown, IdParams>(findOperation(deviceOperations, 'delete', '/devices/{id}'), async (input) => {
      const device = await located(input);
      const result = await app.commands.handle(deviceStream(device.id), deviceDecider,
        { type: 'RemoveDevice', userId: input.principal!.userId, now: new Date().toISOString() }, ctx(input, 'remove'));
      const released = device.tokenKey ? await releaseToken(input, device.tokenKey, device.id, 'release') : null;
      return { status: 204, position: released?.position ?? result.position };
    }),

    route<unknown, unknown, IdParams>(findOperation(deviceOperations, 'post', '/devices/{id}/test'), async (input) => {
      const device = await located(input);
      if (!device.pushToken) throw conflict('no_push_token', 'This device has no push token to send to');
      const id = deterministicUuid(input.commandId, 'test-push');
      const message = { title: 'Test notification', body: 'Push notifications reach this device.', data: { kind: 'test' } };
      const record = (await push.push({ ...device, pushToken: device.pushToken }, message, { id, kind: 'test', notificationId: null }))
        ?? (await push.log.get(id))!;
      return { status: 200, body: { sent: record.outcome === 'sent' || record.outcome === 'recorded', push: record } };
    }),
  ];
}
