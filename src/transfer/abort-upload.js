'use strict';
// Aborting a multipart upload, the one way every path does it: a few attempts, each with
// its own timeout and never under the run's signal (a cancelled run must still clean up);
// an upload already gone counts as aborted. Resolves to null, or the last error.
const { AbortMultipartUploadCommand } = require('@aws-sdk/client-s3');

const ATTEMPTS = 3;
const TIMEOUT_MS = 30000;

const isNoSuchUpload = (err) => Boolean(err && (err.name === 'NoSuchUpload' || err.Code === 'NoSuchUpload'));

async function abortUpload(client, { bucket, key, uploadId, requestPayer }, stats) {
  let last = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      stats.count('DELETE');
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, RequestPayer: requestPayer }),
        { abortSignal: AbortSignal.timeout(TIMEOUT_MS) });
      return null;
    } catch (err) {
      if (isNoSuchUpload(err)) return null;
      last = err;
    }
  }
  return last;
}

module.exports = { abortUpload };
