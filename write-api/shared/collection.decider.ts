/**
 * A person's small collection of editable items (goals, event types): one stream per user, holding the limit on
 * how many items one keeps; someone else's id is simply absent (404). Create, update (If-Match) and delete.
 */
import type { Decider } from '../../services/commands/decider';
import { conflict, notFound, versionMismatch } from '../../services/errors';

export interface CollectionItem {
  id: string;
  updatedAt: string;
  deletedAt: string | null;
  version: number;
}

export interface CollectionState<T> {
  /** Live items by id. */
  items: Map<string, T>;
}

export type CollectionCommand<Fields, Changes> =
  | { type: 'Create'; id: string; fields: Fields; now: string }
  | { type: 'Update'; id: string; changes: Changes; expectedVersions?: number[]; now: string }
  | { type: 'Delete'; id: string; expectedVersions?: number[]; now: string };

export type CollectionEvent<Name extends string, T> = { type: `${Name}.created` | `${Name}.updated` | `${Name}.deleted`; data: T };

export interface CollectionSpec<Name extends string, T, Fields> {
  /** Prefix of the domain event types (`<name>.created`, ...). */
  name: Name;
  /** For messages: "Goal", "Event type". */
  what: string;
  limit: number;
  limitCode: string;
  create(id: string, fields: Fields, now: string): T;
  /** Throws for ids that exist but may never change (built-ins). */
  refuse?(id: string): void;
  /** Throws when an updated item breaks a rule its fields must keep together. */
  check?(item: T): void;
}

export function collectionDecider<Name extends string, T extends CollectionItem, Fields, Changes extends Partial<T>>(
  spec: CollectionSpec<Name, T, Fields>,
): Decider<CollectionCommand<Fields, Changes>, CollectionEvent<Name, T>, CollectionState<T>> {
  const event = (suffix: 'created' | 'updated' | 'deleted', data: T): CollectionEvent<Name, T> => ({
    type: `${spec.name}.${suffix}` as const, data,
  });

  const requireItem = (state: CollectionState<T>, id: string, allowed: number[] | undefined): T => {
    spec.refuse?.(id);
    const item = state.items.get(id);
    if (!item) throw notFound(spec.what);
    if (allowed !== undefined && !allowed.includes(item.version)) throw versionMismatch();
    return item;
  };

  return {
    initialState: () => ({ items: new Map() }),

    decide(command, state) {
      switch (command.type) {
        case 'Create':
          if (state.items.has(command.id)) return [];
          if (state.items.size >= spec.limit) throw conflict(spec.limitCode, `At most ${spec.limit} per person`);
          return [event('created', spec.create(command.id, command.fields, command.now))];
        case 'Update': {
          const current = requireItem(state, command.id, command.expectedVersions);
          const next: T = { ...current, ...command.changes, updatedAt: command.now, version: current.version + 1 };
          spec.check?.(next);
          return [event('updated', next)];
        }
        case 'Delete': {
          const current = requireItem(state, command.id, command.expectedVersions);
          return [event('deleted', { ...current, updatedAt: command.now, deletedAt: command.now, version: current.version + 1 })];
        }
      }
    },

    evolve(state, e) {
      if (e.type.endsWith('.deleted')) state.items.delete(e.data.id);
      else state.items.set(e.data.id, e.data);
      return state;
    },
  };
}
