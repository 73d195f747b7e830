import {
  automationOperations, type ActionInput, type AutomationRecord, type CreateAutomationBody, type UpdateAutomationBody,
} from '../../contracts/automations';
import { findOperation } from '../../contracts/operation';
import { answeredAutomation, automationView } from '../../read-api/automations/automations.queries';
import type { AppContext } from '../../services/app-context';
import { AutomationSecrets } from '../../services/automations/automation-secrets';
import { RunStore } from '../../services/automations/run-store';
import { decided } from '../../services/commands/command-handler';
import { ApiError, notFound } from '../../services/errors';
import { etagOf } from '../../services/http/etag';
import { route } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { ifMatch, ownStream } from '../shared/own-stream';
import { automationsDecider, automationsStream, notReady, type AutomationChanges } from './automations.decider';
import { readinessProblems, type Definition } from './readiness';

type IdParams = { id: string };
/** Attempts of a PATCH without If-Match that keeps meeting concurrent changes (its readiness is checked each time). */
const MAX_ATTEMPTS = 5;

const definitionOf = (trigger: CreateAutomationBody['trigger'], actions: ActionInput[]): Definition => ({
  trigger: { type: trigger.type, filters: trigger.filters ?? {} },
  actions: actions.map((a) => ({ kind: a.kind, config: a.config })),
});

const answer = (status: number, body: Record<string, unknown> & { automation: { version: number } }, position: number | null) => ({
  status, body, headers: { ETag: etagOf(body.automation.version) }, position,
});

export function automationsWriteRoutes(app: AppContext) {
  const run = ownStream(app, automationsDecider, automationsStream);
  const runs = new RunStore(app.store);
  const secrets = new AutomationSecrets(app.store, app.serverKeys);
  const problemsOf = (definition: Definition) => readinessProblems(definition, app.config.WEBHOOK_ALLOW_PRIVATE_URLS);

  const current = async (userId: string, id: string): Promise<AutomationRecord> => {
    const found = (await app.commands.load(automationsStream(userId), automationsDecider)).state.items.get(id);
    if (!found) throw notFound('Automation');
    return found;
  };

  return [
    route<CreateAutomationBody>(findOperation(automationOperations, 'post', '/automations'), async (input) => {
      const b = input.body;
      const userId = input.principal!.userId;
      const definition = definitionOf(b.trigger, b.actions);
      const problems = await problemsOf(definition);
      if (b.enabled && problems.length > 0) throw notReady(problems);
      // The id derives from the command (Idempotency-Key): a retried create finds its secret again.
      const id = deterministicUuid(input.commandId, 'automation');
      const secret = await secrets.create(id, userId);
      const result = await run(input, {
        type: 'Create', id, now: new Date().toISOString(),
        fields: { ownerId: userId, name: b.name, isActive: b.enabled, ...definition, problems },
      });
      const automation = automationView(decided(result.events, 'automation.created'));
      return answer(201, { automation, secret }, result.position);
    }),

    route<UpdateAutomationBody, unknown, IdParams>(findOperation(automationOperations, 'patch', '/automations/{id}'), async (input) => {
      const b = input.body;
      const userId = input.principal!.userId;
      for (let attempt = 1; ; attempt++) {
        const before = await current(userId, input.params.id);
        const definition = definitionOf(b.trigger ?? before.trigger, b.actions ?? before.actions);
        const problems = await problemsOf(definition);
        const isActive = b.isActive ?? before.isActive;
        if (isActive && problems.length > 0) throw notReady(problems);
        const changes: AutomationChanges = { ...definition, problems, isActive, ...(b.name === undefined ? {} : { name: b.name }) };
        // Without If-Match the check above is for the version just read: a concurrent change makes it check again.
        const expected = ifMatch(input) ?? [before.version];
        try {
          const result = await run(input, {
            type: 'Update', id: before.id, changes, expectedVersions: expected, now: new Date().toISOString(),
          });
          const automation = await answeredAutomation(runs, decided(result.events, 'automation.updated'));
          return answer(200, { automation }, result.position);
        } catch (err) {
          const raced = err instanceof ApiError && err.code === 'version_mismatch' && !ifMatch(input);
          if (!raced || attempt >= MAX_ATTEMPTS) throw err;
        }
      }
    }),

    route<unknown, unknown, IdParams>(findOperation(automationOperations, 'delete', '/automations/{id}'), async (input) => {
      const result = await run(input, {
        type: 'Delete', id: input.params.id, expectedVersions: ifMatch(input), now: new Date().toISOString(),
      });
      await runs.runs.deleteMany({ automationId: input.params.id });
      await secrets.delete(input.params.id);
      return { status: 204, position: result.position };
    }),
  ];
}
