import { bugReportOperations, type BugReport, type CreateBugReportBody } from '../../contracts/bug-reports';
import { findOperation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { decided } from '../../services/commands/command-handler';
import { route } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { bugReportDecider, bugReportStream } from './bug-report.decider';

export function bugReportsWriteRoutes(app: AppContext) {
  return [
    route<CreateBugReportBody>(findOperation(bugReportOperations, 'post', '/bug-reports'), async (input) => {
      const userId = input.principal!.userId;
      const b = input.body;
      const report: BugReport = {
        id: deterministicUuid(input.commandId, 'bug-report'), userId, message: b.message, expected: b.expected || null,
        pagePath: b.pagePath || null, diagnostics: b.diagnostics ?? {}, createdAt: new Date().toISOString(),
      };
      const result = await app.commands.handle(bugReportStream(report.id), bugReportDecider, { type: 'SubmitBugReport', report }, {
        userId, commandId: input.commandId, correlationId: input.requestId,
      });
      return { status: 201, body: { bugReport: decided(result.events, 'bug_report.submitted') }, position: result.position };
    }),
  ];
}
