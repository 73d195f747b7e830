/** Tests run under a non-UTC zone (package.json sets TZ) so process-time-zone bugs cannot hide. */
module.exports = {
  testEnvironment: '<rootDir>/test/support/environment.js',
  roots: ['<rootDir>/test', '<rootDir>/write-api', '<rootDir>/read-api', '<rootDir>/projections', '<rootDir>/services', '<rootDir>/contracts'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }],
    // ESM-only packages the tests use as integrators would (openid-client and its dependencies) become CommonJS here.
    '^.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(openid-client|oauth4webapi|jose)/)'],
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
