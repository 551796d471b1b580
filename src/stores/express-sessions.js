'use strict';
// Sessions of directory buckets (S3 Express One Zone). The SDK signs their requests with a
// token from CreateSession, cached per bucket and renewed before its stated expiry. A store
// may end a session sooner (revoked, or a clock that disagrees), and the SDK would then send
// the dead token, failing every request, until the stated time. This is the SDK's provider
// contract (getS3ExpressIdentity) with one more verb, forget(): a request answered
// ExpiredToken drops the session it was signed with and is sent once more
// (expiredSessionRetry), when its body can be sent again.
const { CreateSessionCommand } = require('@aws-sdk/client-s3');

const RENEW_BEFORE_MS = 60000; // a session is renewed this long before its stated expiry (the SDK's window)
const SESSION_RETRIES = 2; // sends of one request after ExpiredToken answers: a store that keeps saying it is broken

class ExpressSessions {
  constructor() {
    this.client = null; // set once the client that owns this provider exists
    this.cache = new Map(); // bucket -> {identity: Promise, token, expiration}
    this.accessKeyId = undefined;
  }

  async getS3ExpressIdentity(awsIdentity, { Bucket }) {
    if (awsIdentity.accessKeyId !== this.accessKeyId) { this.accessKeyId = awsIdentity.accessKeyId; this.cache.clear(); }
    const e = this.cache.get(Bucket);
    if (e && (e.expiration === undefined || e.expiration - RENEW_BEFORE_MS > Date.now())) return e.identity;
    return this._open(Bucket).identity;
  }

  _open(bucket) {
    const e = { token: undefined, expiration: undefined };
    e.identity = this.client.send(new CreateSessionCommand({ Bucket: bucket })).then((out) => {
      const c = out.Credentials || {};
      if (!c.AccessKeyId || !c.SecretAccessKey) throw new Error(`CreateSession of ${bucket} answered no credentials`);
      const expiration = c.Expiration ? new Date(c.Expiration) : undefined;
      e.expiration = expiration && expiration.getTime();
      e.token = c.SessionToken;
      return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken, expiration };
    }, (err) => {
      if (this.cache.get(bucket) === e) this.cache.delete(bucket);
      throw err;
    });
    this.cache.set(bucket, e);
    return e;
  }

  // A request signed with session token `token` was told it expired: that session goes (a
  // newer one, opened meanwhile by another request, stays). Unknown token: the cached one goes.
  forget(bucket, token) {
    const e = this.cache.get(bucket);
    if (e && (token === undefined || e.token === token)) this.cache.delete(bucket);
  }
}

const isExpiredSession = (err) => Boolean(err) && (err.name === 'ExpiredToken' || err.Code === 'ExpiredToken');

// A body the SDK can send again as it is (a stream is read once).
const replayable = (body) => body === undefined || typeof body === 'string' || body instanceof Uint8Array;

// Middleware pair: `signed` (after the SDK signs a request) notes the session token it was
// signed with; `retry` (the initialize step, around everything) drops that session when the
// store answers ExpiredToken and sends the request again with a new one. onExpired() hears
// of every such answer.
function expiredSessionRetry(sessions, bucket, onExpired = () => {}) {
  const retry = (next, context) => async (args) => {
    for (let sent = 1; ; sent++) {
      try {
        return await next(args);
      } catch (err) {
        if (!isExpiredSession(err)) throw err;
        onExpired();
        sessions.forget(bucket, context.s3blitzSessionToken);
        if (sent > SESSION_RETRIES || !replayable(args.input && args.input.Body)) throw err;
      }
    }
  };
  const signed = (next, context) => (args) => {
    const h = (args.request && args.request.headers) || {};
    const token = h['x-amz-s3session-token'] ?? h['X-Amz-S3session-Token'];
    if (token !== undefined) context.s3blitzSessionToken = token;
    return next(args);
  };
  return { retry, signed };
}

// Adds expiredSessionRetry's pair to a client's middleware stack.
function renewExpiredSessions(client, sessions, bucket, onExpired) {
  const { retry, signed } = expiredSessionRetry(sessions, bucket, onExpired);
  client.middlewareStack.add(retry, { step: 'initialize', name: 's3blitzExpiredSession' });
  client.middlewareStack.addRelativeTo(signed, { relation: 'after', toMiddleware: 'httpSigningMiddleware', name: 's3blitzSessionToken' });
}

module.exports = { ExpressSessions, expiredSessionRetry, renewExpiredSessions, isExpiredSession, RENEW_BEFORE_MS, SESSION_RETRIES };
