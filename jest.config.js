'use strict';
// Two projects: fast `unit` tests, and `integration` tests against one real
// MinIO per run (started by globalSetup, connection passed via process.env).

// Set here, in the jest parent process, so every worker of both projects
// inherits them: no IMDS probing (169.254.169.254) when credentials are
// missing, and no Node-version nag from the AWS SDK polluting output.
process.env.AWS_EC2_METADATA_DISABLED = 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// Journals of library calls made by tests go to a throwaway state folder, not ~/.local/state.
if (!process.env.S3BLITZ_TEST_STATE) {
  process.env.S3BLITZ_TEST_STATE = require('fs').mkdtempSync(require('path').join(require('os').tmpdir(), 's3blitz-state-'));
}
process.env.XDG_STATE_HOME = process.env.S3BLITZ_TEST_STATE;
// Split hints too (a listing leaves them for the next one): a throwaway cache per run.
process.env.XDG_CACHE_HOME = require('path').join(process.env.S3BLITZ_TEST_STATE, 'cache');

module.exports = {
  // Per-project testTimeout is ignored by jest; it must be global.
  testTimeout: 120000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      setupFiles: ['<rootDir>/test/helpers/unit-setup.js'],
      testMatch: ['<rootDir>/test/unit/**/*.test.js'],
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/integration/**/*.test.js'],
      // Runs only when at least one integration test is selected.
      globalSetup: '<rootDir>/test/helpers/minio-global-setup.js',
      globalTeardown: '<rootDir>/test/helpers/minio-global-teardown.js',
      testTimeout: 120000,
    },
  ],
};
