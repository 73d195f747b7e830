/**
 * Automations: what GET /automations reads, and what the runner matches events against (by trigger type and owner).
 * `_activeFromPos` is the log position of the change that last switched an automation on (null while off): it acts
 * only on events after it.
 */
import { AutomationRecord } from '../contracts/automations';
import type { Doc } from '../services/readstore/read-store.port';
import { creationOrderKey } from './creation-order';
import { projection } from './projection';

export const AUTOMATIONS = 'automations';

export type AutomationDoc = Doc & AutomationRecord & {
  _pos: number;
  _sortKey: string;
  _triggerType: string;
  _activeFromPos: number | null;
};

export const automationsProjection = projection({
  name: AUTOMATIONS,
  version: 1,
  collections: {
    automations: { indexes: [['ownerId', '_sortKey'], ['_triggerType', 'ownerId']] },
  },
  handles: ['automation.created', 'automation.updated', 'automation.deleted'],
  async apply(e, docs) {
    const parsed = AutomationRecord.safeParse(e.data);
    if (!parsed.success) return;
    const automation = parsed.data;
    const automations = docs<AutomationDoc>('automations');
    const before = await automations.get(automation.id);
    const on = automation.isActive && automation.deletedAt === null;
    const activeFrom = !on ? null : before?.isActive && before._activeFromPos !== null ? before._activeFromPos : e.position;
    await automations.putIfNewer({
      ...automation, _id: automation.id, _pos: e.position, _changedAt: e.metadata.occurredAt,
      _sortKey: await creationOrderKey(automations, automation.id, e.position),
      _triggerType: automation.trigger.type, _activeFromPos: activeFrom,
    });
  },
});
