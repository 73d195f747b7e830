/** given/when/then for deciders: fold the given events, decide the command, compare events or the thrown code. */
import type { Decider } from '../../services/commands/decider';
import { ApiError } from '../../services/errors';

export function given<C, E extends { type: string; data: unknown }, S>(decider: Decider<C, E, S>, history: E[]) {
  const state = () => history.reduce((s, e) => decider.evolve(s, e), decider.initialState());
  return {
    when(command: C) {
      return {
        then(expected: Array<Partial<E> & { type: string }>) {
          const events = decider.decide(command, state());
          expect(events.map((e) => e.type)).toEqual(expected.map((e) => e.type));
          expected.forEach((e, i) => {
            if (e.data !== undefined) expect(events[i].data).toMatchObject(e.data as object);
          });
          return events;
        },
        thenThrows(code: string) {
          let thrown: unknown;
          try {
            decider.decide(command, state());
          } catch (err) {
            thrown = err;
          }
          expect(thrown).toBeInstanceOf(ApiError);
          expect((thrown as ApiError).code).toBe(code);
          return thrown as ApiError;
        },
      };
    },
  };
}
