/**
 * Domain events appended straight to a test service's event store, for slices whose producers live elsewhere
 * (bookings, tasks): the payload shapes are those of contracts/webhook-payloads.ts.
 */
import { randomUUID } from 'node:crypto';
import type { TestService } from './service';

export async function appendDomainEvent(svc: TestService, type: string, data: unknown, userId: string | null, id = randomUUID()) {
  const now = new Date().toISOString();
  const result = await svc.service.context.events.append(`test-${type}-${id}`, [{
    id, type, data, metadata: { userId, correlationId: id, causationId: id, occurredAt: now, schemaVersion: 1 },
  }], 'any');
  return { id, position: result.position };
}

export function bookingPayload(hostId: string, overrides: Record<string, unknown> = {}) {
  const now = new Date().toISOString();
  return {
    id: randomUUID(), meetingTypeId: randomUUID(), hostId, eventId: randomUUID(),
    startsAt: '2031-05-12T13:00:00.000Z', endsAt: '2031-05-12T13:30:00.000Z', timeZone: 'Europe/Lisbon',
    guest: { name: 'Ana Costa', email: 'ana@example.com' }, note: null, status: 'confirmed', cancelledBy: null,
    createdAt: now, updatedAt: now, ...overrides,
  };
}

export function taskPayload(createdBy: string, assigneeId: string | null, overrides: Record<string, unknown> = {}) {
  const now = new Date().toISOString();
  return {
    id: randomUUID(), title: 'Send the Q3 report', notes: null, projectId: null, listId: null,
    dueAt: '2031-05-14T17:00:00.000Z', estimateMinutes: 30, priority: 'normal', assigneeId, status: 'open',
    createdBy, createdAt: now, updatedAt: now, completedAt: null, deletedAt: null, ...overrides,
  };
}
