/**
 * Whether an automation can run, as a list of problems ({path, message}); empty means ready. The trigger type must
 * be a webhook event type (time-based types such as event.starting are not available), each filter path must exist
 * in that type's payload, there must be actions, each of a known kind with its required config, and a receiver URL
 * must be one webhooks may call.
 */
import type { z } from 'zod';
import {
  ACTION_KINDS, isActionKind, REQUIRED_CONFIG, type AutomationRecord, type Problem,
} from '../../contracts/automations';
import { WEBHOOK_CATALOGUE, type WebhookTypeDef } from '../../contracts/webhook-catalogue';
import { whyRefused } from '../../services/dispatcher/private-addresses';

export type Definition = Pick<AutomationRecord, 'trigger' | 'actions'>;

/** Names of triggers that would fire on a clock rather than on a change. */
const TIME_BASED = /(^|\.)(starting|ending|reminder|due|overdue|upcoming|hourly|daily|weekly|scheduled|cron|time)(\.|$)/;
const ENVELOPE_FIELDS = new Set(['id', 'type', 'createdAt', 'data', 'previous']);

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType; options?: z.ZodType[]; shape?: Record<string, z.ZodType> };
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** True when a payload of `schema` can hold something at `segments` (records, unknowns and unions are open). */
export function schemaHasPath(schema: z.ZodType, segments: string[]): boolean {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional': case 'nullable': case 'default': case 'readonly': case 'catch': case 'nonoptional':
      return schemaHasPath(def.innerType!, segments);
    case 'pipe':
      return schemaHasPath(def.in!, segments);
    case 'union':
      return def.options!.some((option) => schemaHasPath(option, segments));
    case 'record': case 'unknown': case 'any': case 'lazy': case 'custom':
      return true;
    default:
      break;
  }
  if (segments.length === 0) return true;
  const [first, ...rest] = segments;
  if (def.type === 'object') return Object.hasOwn(def.shape!, first) && schemaHasPath(def.shape![first], rest);
  if (def.type === 'array') return /^\d+$/.test(first) && schemaHasPath(def.element!, rest);
  return false;
}

function triggerProblems(trigger: Definition['trigger']): { def: WebhookTypeDef | null; problems: Problem[] } {
  const def = WEBHOOK_CATALOGUE.find((d) => d.type === trigger.type) ?? null;
  if (!def) {
    const message = TIME_BASED.test(trigger.type)
      ? 'time-based triggers are not available: automations run on changes, the webhook event types'
      : 'unknown trigger type: use a webhook event type (GET /webhooks/event-types)';
    return { def, problems: [{ path: 'trigger.type', message }] };
  }
  const problems: Problem[] = [];
  for (const path of Object.keys(trigger.filters)) {
    const [root, ...rest] = path.split('.');
    const schema = root === 'data' ? def.data : root === 'previous' ? def.previous : undefined;
    const exists = ENVELOPE_FIELDS.has(root) && (schema ? schemaHasPath(schema, rest) : rest.length === 0 && root !== 'previous');
    if (!exists) problems.push({ path: `trigger.filters.${path}`, message: `${def.type} payloads have no ${path}` });
  }
  return { def, problems };
}

/** Problems that need no I/O. */
export function definitionProblems(definition: Definition): Problem[] {
  const problems = [...triggerProblems(definition.trigger).problems];
  if (definition.actions.length === 0) problems.push({ path: 'actions', message: 'add at least one action' });
  definition.actions.forEach((action, i) => {
    if (!isActionKind(action.kind)) {
      problems.push({ path: `actions.${i}.kind`, message: `unknown action kind: use one of ${ACTION_KINDS.join(', ')}` });
      return;
    }
    for (const field of REQUIRED_CONFIG[action.kind]) {
      if (action.config[field] === undefined || action.config[field] === null) {
        problems.push({ path: `actions.${i}.config.${field}`, message: `${action.kind} needs ${field}` });
      }
    }
  });
  return problems;
}

/** Every problem, receiver URLs checked against private addresses unless the operator allows them. */
export async function readinessProblems(definition: Definition, allowPrivateUrls: boolean): Promise<Problem[]> {
  const problems = definitionProblems(definition);
  if (allowPrivateUrls) return problems;
  for (const [i, action] of definition.actions.entries()) {
    const url = action.config.url;
    if (action.kind !== 'call_webhook' || typeof url !== 'string') continue;
    const why = await whyRefused(url);
    if (why) problems.push({ path: `actions.${i}.config.url`, message: `may not be called: ${why}` });
  }
  return problems;
}
