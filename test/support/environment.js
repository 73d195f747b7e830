/**
 * The test environment of every suite: Node's, plus a watch on unhandled promise rejections and uncaught exceptions
 * for the whole life of the suite (its hooks, and a short grace after them for work its service stopped). Each one
 * fails the suite with its cause, instead of crashing the worker or passing unseen.
 */
const { TestEnvironment } = require('jest-environment-node');

/** Rejections of work cut short by a suite's last afterAll (closing clients) surface within a few ticks. */
const GRACE_MS = 200;

class WatchedEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.problems = [];
    this.onRejection = (reason) => this.problems.push({ kind: 'unhandled rejection', reason });
    this.onException = (error) => this.problems.push({ kind: 'uncaught exception', reason: error });
  }

  async setup() {
    await super.setup();
    process.on('unhandledRejection', this.onRejection);
    process.on('uncaughtException', this.onException);
  }

  async teardown() {
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS));
    process.off('unhandledRejection', this.onRejection);
    process.off('uncaughtException', this.onException);
    await super.teardown();
    if (this.problems.length > 0) {
      const causes = this.problems.map(({ kind, reason }) => `${kind}: ${(reason && reason.stack) || String(reason)}`);
      throw new Error(`${this.problems.length} unhandled error(s) in this suite:\n${causes.join('\n')}`);
    }
  }
}

module.exports = WatchedEnvironment;
