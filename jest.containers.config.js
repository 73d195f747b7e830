/**
 * `npm run test:containers`: the port contract suites and the HTTP suites on EventStoreDB, MongoDB 7 and Kafka started
 * with testcontainers. Needs a Docker engine; without one it says so and fails.
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  testMatch: ['**/test/contracts/**/*.test.ts', '**/test/http/**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/containers.setup.ts',
  globalTeardown: '<rootDir>/test/support/containers.teardown.ts',
  testTimeout: 60000,
};
