/** Tests run under a non-UTC zone (package.json sets TZ) so process-time-zone bugs cannot hide. */
module.exports = {
  testEnvironment: '<rootDir>/test/support/environment.js',
  roots: ['<rootDir>/test', '<rootDir>/write-api', '<rootDir>/read-api', '<rootDir>/projections', '<rootDir>/services', '<rootDir>/contracts'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }] },
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
