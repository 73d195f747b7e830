/** One device of one user: registered, updated by a new registration of its push token, removed. */
import type { DeviceRecord, Platform } from '../../contracts/devices';
import type { DomainEvent } from '../../contracts/domain-events';
import type { Decider } from '../../services/commands/decider';
import { notFound } from '../../services/errors';

export type DeviceState = { device: DeviceRecord | null; removed: boolean };
export type DeviceCommand =
  | {
      type: 'RegisterDevice';
      deviceId: string;
      userId: string;
      platform: Platform;
      /** Omitted: keeps the name a registered device has. */
      name: string | null | undefined;
      pushToken: string | null;
      tokenKey: string | null;
      now: string;
    }
  | { type: 'RemoveDevice'; userId: string; now: string };
type DeviceEvent = Extract<DomainEvent, { type: 'device.registered' | 'device.updated' | 'device.removed' }>;

export const deviceDecider: Decider<DeviceCommand, DeviceEvent, DeviceState> = {
  initialState: () => ({ device: null, removed: false }),
  decide(command, { device, removed }) {
    if (device && (removed || device.userId !== command.userId)) throw notFound('Device');
    if (command.type === 'RemoveDevice') {
      if (!device) throw notFound('Device');
      return [{ type: 'device.removed', data: { device: { ...device, updatedAt: command.now } } }];
    }
    const { deviceId: id, userId, platform, pushToken, tokenKey, now } = command;
    if (!device) {
      const name = command.name ?? null;
      return [{ type: 'device.registered', data: { device: { id, userId, platform, name, pushToken, tokenKey, createdAt: now, updatedAt: now } } }];
    }
    const name = command.name === undefined ? device.name : command.name;
    if (device.platform === platform && device.name === name && device.pushToken === pushToken) return [];
    return [{ type: 'device.updated', data: { device: { ...device, platform, name, pushToken, tokenKey, updatedAt: now } } }];
  },
  evolve(_state, event) {
    return { device: event.data.device, removed: event.type === 'device.removed' };
  },
};

export const deviceStream = (deviceId: string) => `device-${deviceId}`;
