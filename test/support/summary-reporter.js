/**
 * Prints one line per skipped test (with the reason in its name) and a plain closing line
 * "jest: N passed, N failed, N skipped" that CI log readers understand.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = [];
    for (const file of results.testResults) {
      for (const test of file.testResults) {
        if (test.status === 'pending' || test.status === 'skipped') skipped.push(test.fullName);
      }
    }
    for (const name of skipped) process.stdout.write(`SKIPPED: ${name}\n`);
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`jest: ${results.numPassedTests} passed, ${failed} failed, ${results.numPendingTests} skipped\n`);
  }
}
module.exports = SummaryReporter;
