'use strict';
// What happened to one object. Copy functions return {status: 'copied', bytes} or throw;
// classifyError turns what they threw into the outcome the report counts.
const { errorCode, httpStatus, describeS3Error, isNetworkError } = require('../stores/s3-errors');
const { ObjectError } = require('../errors');


function classifyError(err, { bucket, key } = {}) {
  if (err instanceof ObjectError) return { status: err.status, reason: err.message };
  const code = errorCode(err);
  const status = httpStatus(err);
  if (code === 'NoSuchKey' || (status === 404 && code !== 'NoSuchBucket' && code !== 'NoSuchUpload')) return { status: 'vanished', reason: 'deleted since it was listed' };
  if (code === 'InvalidObjectState') return { status: 'skipped', reason: 'archived (restore it first)' };
  if (code === 'PreconditionFailed' || status === 412) return { status: 'changed', reason: 'changed since it was listed' };
  if (err && err.name === 'AbortError') return { status: 'failed', reason: 'aborted' };
  if (err && err.code && /^E[A-Z]+$/.test(err.code) && !isNetworkError(err)) return { status: 'failed', reason: `${err.code}: ${err.message}` };
  return { status: 'failed', reason: describeS3Error(err, { bucket, key }).message };
}

// Errors that mean the whole run cannot go on (credentials, missing bucket), not one object.
function isFatalForRun(err) {
  const code = errorCode(err);
  return ['NoSuchBucket', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'ExpiredToken', 'CredentialsProviderError'].includes(code);
}

module.exports = { ObjectError, classifyError, isFatalForRun };
