/**
 * Automations: what GET /automations reads, and what the runner matches events against (by trigger type and owner).
 * `_activeFromPos` is the log position of the change that last switched an automation on or changed its trigger
 * (null while off): it acts only on events after it.
 */
import { AutomationRecord } from '../contracts/automations';
import type { Doc } from '../services/readstore/read-store.port';
import { creationOrderKey } from './creation-order';
import { projection } from './projection';
import { publicView } from './read-models';

export const AUTOMATIONS = 'automations';

/** Filters are kept as a list: their dotted paths may not be field names of a MongoDB document. */
export type AutomationDoc = Doc & Omit<AutomationRecord, 'trigger'> & {
  trigger: { type: string };
  _filters: Array<{ path: string; value: string | number | boolean | null }>;
  _pos: number;
  _sortKey: string;
  _triggerType: string;
  _activeFromPos: number | null;
};

/** The automation as its events carry it. */
export function recordOf(doc: AutomationDoc): AutomationRecord {
  const rest = publicView<Omit<AutomationRecord, 'trigger'>>(doc);
  return { ...rest, trigger: { type: doc.trigger.type, filters: Object.fromEntries(doc._filters.map((f) => [f.path, f.value])) } };
}

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
    const { trigger, ...rest } = automation;
    const filters = Object.entries(trigger.filters).map(([path, value]) => ({ path, value }));
    const sameTrigger = before?.trigger.type === trigger.type && JSON.stringify(before._filters) === JSON.stringify(filters);
    const on = automation.isActive && automation.deletedAt === null;
    const activeFrom = !on ? null : before?.isActive && before._activeFromPos !== null && sameTrigger ? before._activeFromPos : e.position;
    await automations.putIfNewer({
      ...rest, trigger: { type: trigger.type }, _filters: filters,
      _id: automation.id, _pos: e.position, _changedAt: e.metadata.occurredAt,
      _sortKey: await creationOrderKey(automations, automation.id, e.position),
      _triggerType: trigger.type, _activeFromPos: activeFrom,
    });
  },
});
