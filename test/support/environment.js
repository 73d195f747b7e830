/**
 * The test environment of every suite: Node's, plus a watch on unhandled promise rejections and uncaught exceptions
 * for the whole life of the suite (its hooks, and a short grace after them for work its service stopped). Each one
 * fails the suite with its cause, instead of crashing the worker or passing unseen.
 *
 * A suite may run in another process time zone than the others: `@jest-environment-options {"timeZone": "Asia/Kolkata"}`
 * in its first docblock (set on the worker's own process.env, the only one Node watches; restored afterwards).
 */
const { TestEnvironment } = require('jest-environment-node');

/** Rejections of work cut short by a suite's last afterAll (closing clients) surface within a few ticks. */
const GRACE_MS = 200;

class WatchedEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.problems = [];
    this.timeZone = config.projectConfig.testEnvironmentOptions?.timeZone;
    this.onRejection = (reason) => this.problems.push({ kind: 'unhandled rejection', reason });
    this.onException = (error) => this.problems.push({ kind: 'uncaught exception', reason: error });
  }

  async setup() {
    await super.setup();
    if (this.timeZone) [this.savedZone, process.env.TZ] = [process.env.TZ, this.timeZone];
    process.on('unhandledRejection', this.onRejection);
    process.on('uncaughtException', this.onException);
  }

  async teardown() {
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS));
    process.off('unhandledRejection', this.onRejection);
    process.off('uncaughtException', this.onException);
    if (this.timeZone) process.env.TZ = this.savedZone;
    await super.teardown();
    if (this.problems.length > 0) {
      const causes = this.problems.map(({ kind, reason }) => `${kind}: ${(reason && reason.stack) || String(reason)}`);
      throw new Error(`${this.problems.length} unhandled error(s) in this suite:\n${causes.join('\n')}`);
    }
  }
}

module.exports = WatchedEnvironment;
