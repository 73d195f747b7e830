/** One bug report per stream (`bug-report-<id>`): submitted once; a retried submission changes nothing. */
import type { BugReport } from '../../contracts/bug-reports';
import type { DomainEvent } from '../../contracts/domain-events';
import type { Decider } from '../../services/commands/decider';

export type BugReportState = { report: BugReport | null };
export type BugReportCommand = { type: 'SubmitBugReport'; report: BugReport };
type BugReportEvent = Extract<DomainEvent, { type: 'bug_report.submitted' }>;

export const bugReportDecider: Decider<BugReportCommand, BugReportEvent, BugReportState> = {
  initialState: () => ({ report: null }),
  decide: (command, state) => (state.report ? [] : [{ type: 'bug_report.submitted', data: command.report }]),
  evolve: (_state, event) => ({ report: event.data }),
};

export const bugReportStream = (id: string) => `bug-report-${id}`;
