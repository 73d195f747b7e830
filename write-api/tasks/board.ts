/** Running commands on an owner's board (`tasks-<ownerId>`) on behalf of the caller, and reading its state. */
import type { AppContext } from '../../services/app-context';
import type { Input } from '../../services/http/route';
import { etagOf, expectedVersions } from '../../services/http/etag';
import { tasksDecider, tasksStream, type TasksCommand, type TasksEvent } from './tasks.decider';

type Intent = TasksCommand extends infer C ? (C extends unknown ? Omit<C, 'actorId' | 'ownerId' | 'now'> : never) : never;
type AnyInput = Input<unknown, unknown, unknown>;

export function board(app: AppContext) {
  return {
    run(input: AnyInput, ownerId: string, intent: Intent) {
      const actorId = input.principal!.userId;
      const command = { ...intent, actorId, ownerId, now: new Date().toISOString() } as TasksCommand;
      return app.commands.handle(tasksStream(ownerId), tasksDecider, command, {
        userId: actorId, commandId: input.commandId, correlationId: input.requestId,
      });
    },
    /** The owner's board as it is now (for commands that decided nothing). */
    async state(ownerId: string) {
      return (await app.commands.load(tasksStream(ownerId), tasksDecider)).state;
    },
  };
}

/** The resource a command's last event carries (`data`, or `data.data` for task.due_changed). */
export function lastOf<T>(events: TasksEvent[], prefix: 'task.' | 'project.'): T | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type.startsWith(prefix)) return (e.type === 'task.due_changed' ? e.data.data : e.data) as T;
  }
  return null;
}

export const ifMatch = (input: AnyInput) => expectedVersions(input.header('If-Match'));

export const withEtag = (status: number, body: Record<string, unknown>, version: number, position: number | null) => ({
  status, body, headers: { ETag: etagOf(version) }, position,
});
