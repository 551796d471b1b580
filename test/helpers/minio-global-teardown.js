'use strict';
// Runs after the integration project whether tests passed or failed. If the
// jest process dies instead, minio.js's exit handler / watchdog kills MinIO.
module.exports = async function minioGlobalTeardown() {
  const minio = globalThis.__S3BLITZ_MINIO__;
  delete globalThis.__S3BLITZ_MINIO__;
  if (minio) await minio.stop(); // also removes its scratch dir (data, client HOME)
};
