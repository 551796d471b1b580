'use strict';
// Starts ONE MinIO for the whole integration run. Workers are forked after
// globalSetup, so they inherit the S3BLITZ_TEST_* variables set here. Errors
// propagate: jest then fails the run instead of skipping tests.
const fs = require('fs');
const path = require('path');
const { startMinio } = require('./minio');

module.exports = async function minioGlobalSetup() {
  const minio = await startMinio();
  // Same process as globalTeardown: it finds the handle here.
  globalThis.__S3BLITZ_MINIO__ = minio;
  // Empty HOME with empty ~/.aws files for CLI child processes
  // (s3env.testEnv). Inside MinIO's scratch dir so it is removed with it,
  // even by the watchdog if jest gets killed.
  const home = path.join(minio.tmpDir, 'client-home');
  fs.mkdirSync(path.join(home, '.aws'), { recursive: true });
  fs.writeFileSync(path.join(home, '.aws', 'config'), '');
  fs.writeFileSync(path.join(home, '.aws', 'credentials'), '');
  Object.assign(process.env, {
    S3BLITZ_TEST_ENDPOINT: minio.endpoint,
    S3BLITZ_TEST_ACCESS_KEY: minio.accessKeyId,
    S3BLITZ_TEST_SECRET_KEY: minio.secretAccessKey,
    S3BLITZ_TEST_REGION: minio.region,
    S3BLITZ_TEST_HOME: home,
  });
};
