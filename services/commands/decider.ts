/**
 * A decider holds an aggregate's rules without I/O. `evolve` may update the state it is given in place and return
 * it: the command handler only ever evolves committed events into its cached state, never speculative ones.
 */
export interface Decider<Command, Event extends { type: string; data: unknown }, State> {
  initialState(): State;
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
}
