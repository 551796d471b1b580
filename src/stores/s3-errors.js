'use strict';
// Turns SDK and network errors into one line a user can act on.
const { FatalError, UsageError, S3BlitzError } = require('../errors');

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'TimeoutError', 'EPIPE']);

function errorCode(err) {
  return err && (err.Code || err.code || err.name || (err.cause && err.cause.code));
}

function httpStatus(err) {
  return err && err.$metadata && err.$metadata.httpStatusCode;
}

// A request the store throttled (503 SlowDown, 429), handed to the caller to send again
// later rather than retried at once: see S3Store's throttleToCaller.
class Throttled extends Error {
  constructor(status, key) {
    super(`SlowDown (HTTP ${status})`);
    this.name = 'SlowDown';
    this.code = 'SlowDown';
    this.status = status;
    this.key = key;
  }
}

const THROTTLE_CODES = new Set(['SlowDown', 'Throttling', 'ThrottlingException', 'RequestLimitExceeded', 'TooManyRequests', 'TooManyRequestsException', 'RequestThrottled']);
function isThrottle(err) {
  if (err instanceof Throttled) return true;
  const status = httpStatus(err);
  return status === 503 || status === 429 || THROTTLE_CODES.has(err && (err.Code || err.name));
}

const isAccessDenied = (err) => errorCode(err) === 'AccessDenied' || httpStatus(err) === 403;

// What an AccessDenied may mean where a bucket policy requires conditional requests (AWS's
// s3:if-none-match and s3:if-match condition keys deny the request that lacks the header).
const HINTS = {
  write: 'if the bucket policy requires conditional writes (s3:if-none-match), --no-overwrite sends If-None-Match: *',
  delete: 'if the bucket policy requires conditional deletes (s3:if-match), they need ETags: these went without, as the server was not found to honour them (--require-conditional refuses instead)',
};

// Marks an AccessDenied of a request sent without the condition such a policy asks for.
function withConditionHint(err, kind) {
  if (err && typeof err === 'object' && isAccessDenied(err)) err.conditionHint = HINTS[kind];
  return err;
}

function isNetworkError(err) {
  const c = errorCode(err);
  return NETWORK_CODES.has(c) || NETWORK_CODES.has(err && err.cause && err.cause.code) || /socket hang up|connect E|getaddrinfo/i.test(err && err.message || '');
}

/** @param ctx {bucket, key, endpoint, op} */
function describeS3Error(err, ctx = {}) {
  if (err instanceof S3BlitzError) return err;
  const code = errorCode(err);
  const status = httpStatus(err);
  const where = ctx.bucket ? `bucket ${JSON.stringify(ctx.bucket)}` : 'the store';
  let msg;
  if (code === 'NoSuchBucket' || (status === 404 && !ctx.key && (code === 'NotFound' || code === 'UnknownError'))) msg = `${where} does not exist`;
  else if (code === 'InvalidAccessKeyId') msg = `the access key is not recognised by ${ctx.endpoint || 'the endpoint'} (InvalidAccessKeyId)`;
  else if (code === 'SignatureDoesNotMatch') msg = 'the secret key does not match the access key (SignatureDoesNotMatch)';
  else if (code === 'ExpiredToken' || code === 'TokenRefreshRequired') msg = 'the session credentials have expired (ExpiredToken)';
  else if (code === 'AccessDenied' || code === 'AllAccessDisabled' || status === 403) {
    const hint = err && err.conditionHint;
    msg = `access denied to ${where}${ctx.op ? ` (${ctx.op})` : ''}${hint ? `: ${hint}` : ''}`;
  }
  else if (code === 'CredentialsProviderError' || /Could not load credentials|credential/i.test(err && err.message || '') && !status) msg = 'no AWS credentials found: set AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, AWS_PROFILE or --profile';
  else if (isNetworkError(err)) msg = `cannot reach ${ctx.endpoint || 'the S3 endpoint'}: ${err.cause && err.cause.code || code || err.message}`;
  else if (code === 'PermanentRedirect' || status === 301) msg = `${where} is in another region; pass --region`;
  else if (code === 'InvalidBucketName') msg = `invalid bucket name ${JSON.stringify(ctx.bucket)}`;
  else msg = `${ctx.op ? ctx.op + ' ' : ''}failed${ctx.key !== undefined ? ` for ${JSON.stringify(ctx.key)}` : ''}: ${code || 'error'}${status ? ` (HTTP ${status})` : ''}${err && err.message && err.message !== code ? `: ${firstLine(err.message)}` : ''}`;
  // A name no store accepts is the user's typo, not a run-time failure.
  const e = code === 'InvalidBucketName' ? new UsageError(msg, { cause: err }) : new FatalError(msg, { cause: err });
  e.code = code;
  return e;
}

function firstLine(s) { return String(s).split('\n')[0].slice(0, 300); }

module.exports = { describeS3Error, errorCode, httpStatus, isNetworkError, isThrottle, isAccessDenied, withConditionHint, CONDITION_HINTS: HINTS, Throttled };
