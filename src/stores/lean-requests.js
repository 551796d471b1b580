'use strict';
// The lean request path for the hot requests (ListObjectsV2, CopyObject, and the object
// requests of lean-objects.js): one signed HTTP request on a keep-alive pool and an indexOf
// parser, instead of the SDK's middleware stack and XML deserializer, which cost several
// times more CPU than the request is worth. Credentials and region still come
// from the SDK client; for a directory bucket (express: its sessions), requests are signed
// as S3 Express wants them: with the session's keys, for service s3express, the session
// token in x-amz-s3session-token, at the zonal endpoint. Anything but a 200 (errors, throttling, redirects) and any network
// failure is handed back to the caller, which then asks the SDK path, so error handling,
// retries and messages stay the SDK's.
const { Signer } = require('./sigv4');
const { DEFAULTS } = require('../options');
const { parseListObjectsV2 } = require('./list-parser');
const { HttpPool, FallBack, headerMap } = require('./http-pool');
const { RequestThread } = require('./request-thread');
const { fetchWithFile } = require('./file-io');
const { zonalHost } = require('./directory-bucket');

// CopyObject parameters (without REPLACE) as request headers.
function copyHeaders(p) {
  const h = { 'x-amz-copy-source': p.CopySource };
  if (p.CopySourceIfMatch) h['x-amz-copy-source-if-match'] = p.CopySourceIfMatch;
  if (p.IfNoneMatch) h['if-none-match'] = p.IfNoneMatch;
  if (p.StorageClass) h['x-amz-storage-class'] = p.StorageClass;
  if (p.ACL) h['x-amz-acl'] = p.ACL;
  if (p.ServerSideEncryption) h['x-amz-server-side-encryption'] = p.ServerSideEncryption;
  if (p.SSEKMSKeyId) h['x-amz-server-side-encryption-aws-kms-key-id'] = p.SSEKMSKeyId;
  if (p.RequestPayer) h['x-amz-request-payer'] = 'requester';
  if (p.Tagging !== undefined) { h['x-amz-tagging'] = p.Tagging; h['x-amz-tagging-directive'] = 'REPLACE'; }
  if (p.ChecksumAlgorithm) h['x-amz-checksum-algorithm'] = p.ChecksumAlgorithm;
  return h;
}

const ANONYMOUS_KEYS = { accessKeyId: 'anonymous', secretAccessKey: 'anonymous' };

// An endpoint's parts as requests use them: `at` the target of a path-style request.
function endpointParts(u) {
  const secure = u.protocol === 'https:';
  const port = u.port || (secure ? 443 : 80);
  const at = { host: u.host, hostname: u.hostname, secure, port };
  return { at, host: u.host, hostname: u.hostname, base: u.pathname.replace(/\/$/, '') };
}

class LeanRequests {
  /** @param o {bucket, endpointUrl, forcePathStyle, requestPayer, maxSockets, requestThread, requestThreads, stats, client: () => S3Client,
   *   express: () => a directory bucket's ExpressSessions (its client's, which may be replaced),
   *   directory: a directory bucket's requests signed with the caller's own keys, as the SDK
   *   signs CopyObject there (service s3express, zonal endpoint, no session)} */
  constructor(o) {
    this.o = o;
    this.zonalBucket = Boolean(o.express || o.directory);
    this.signer = new Signer(this.zonalBucket ? 's3express' : 's3');
    this.watched = new WeakMap(); // signal -> its requests in flight from this thread
    this.pool = new HttpPool(o.maxSockets);
    // Requests after the first go to request threads (requestThread: false keeps them here),
    // so a one-page listing never starts one; a second thread starts only once the first has
    // requests out, and so on up to requestThreads.
    this.useThread = o.requestThread ?? DEFAULTS.requestThread;
    this.threadCount = o.requestThreads ?? DEFAULTS.requestThreads;
    this.asked = 0;
    this.threads = [];
  }

  // Where to send the request, or null when only the SDK can say (ARNs, access points):
  // {host, path, secure, hostname, port}. The endpoint's parts are worked out once per
  // endpoint (URL's getters and parsing cost more per request than the rest of this).
  _target(region, key) {
    const { bucket, endpointUrl, forcePathStyle } = this.o;
    if (bucket.includes(':')) return null;
    const obj = key === null || key === undefined ? '' : `/${key}`;
    if (endpointUrl) {
      const e = this.endpoint ??= endpointParts(new URL(endpointUrl));
      if (forcePathStyle !== false) return { ...e.at, path: `${e.base}/${bucket}${obj}` };
      return { ...e.at, host: `${bucket}.${e.host}`, hostname: `${bucket}.${e.hostname}`, path: `${e.base}${obj || '/'}` };
    }
    if (this.zonalBucket) {
      const z = this.zonal && this.zonal.region === region ? this.zonal : (this.zonal = { region, ...endpointParts(new URL(`https://${zonalHost(bucket, region)}`)) });
      return { ...z.at, path: obj || '/' };
    }
    const e = this.regional && this.regional.region === region ? this.regional
      : (this.regional = { region, ...endpointParts(new URL(`https://s3.${region}.amazonaws.com`)) });
    if (bucket.includes('.')) return { ...e.at, path: `/${bucket}${obj}` };
    return { ...e.at, host: `${bucket}.${e.host}`, hostname: `${bucket}.${e.hostname}`, path: obj || '/' };
  }

  async listPage({ prefix, startAfter, continuationToken, maxKeys, delimiter, signal }) {
    const query = [['list-type', '2'], ['encoding-type', 'url']];
    if (prefix) query.push(['prefix', prefix]);
    if (delimiter) query.push(['delimiter', delimiter]);
    if (continuationToken) query.push(['continuation-token', continuationToken]);
    else if (startAfter) query.push(['start-after', startAfter]);
    if (maxKeys) query.push(['max-keys', String(maxKeys)]);
    const extra = this.o.requestPayer ? { 'x-amz-request-payer': 'requester' } : {};
    const request = await this._signed('GET', null, query, extra);
    const thread = this._thread(signal);
    if (!thread) return parseListObjectsV2(await this._send(request, signal));
    const page = await thread.list(request, signal);
    if (this.o.stats) this.o.stats.threadRequests++;
    return page;
  }

  // One CopyObject with headers only (no REPLACE), from CopyObject parameters: the
  // response's ETag, or FallBack.
  async copyObject(params, signal) {
    const request = await this._signed('PUT', params.Key, [], copyHeaders(params));
    request.options.headers['content-length'] = '0';
    const thread = this._thread(signal);
    let body;
    if (thread) {
      body = await thread.send(request, signal);
      if (this.o.stats) this.o.stats.threadRequests++;
    } else body = (await this._send(request, signal)).toString('utf8');
    // A 200 can carry an error in its body: let the SDK path see it.
    const m = /<CopyObjectResult[^>]*>[\s\S]*?<ETag>([^<]+)<\/ETag>/.exec(body);
    if (!m || body.indexOf('<Error>') >= 0) throw new FallBack('CopyObject answered without a result');
    return m[1].replace(/&quot;|&#34;/g, '"');
  }

  /**
   * Any request: {status, headers ({lowercase name: value}), body, bytes} for a 2xx; FallBack
   * for anything else. o: {signal, body (Buffer), payloadHash (of the body; required with
   * one), file: a spec of file-io.js: the body read from a file with its MD5 ({read}, sent
   * unsigned, so payloadHash UNSIGNED-PAYLOAD), or the answer written to one ({write})}.
   */
  async request(method, key, query, headers, { signal, body, payloadHash, file } = {}) {
    // A checksum of a body read from a file is known only where the file is read: the
    // signature is finished there (file-io.js).
    const late = Boolean(file && file.read && file.read.checksum);
    const request = await this._signed(method, key, query, headers, payloadHash, late);
    if (body) request.body = body;
    if (file) request.file = late ? { read: { ...file.read, sign: request.deferred, anonymous: Boolean(this.o.anonymous) } } : file;
    else if (method !== 'GET' && method !== 'HEAD') request.options.headers['content-length'] = String(body ? body.length : 0);
    delete request.deferred;
    request.full = true;
    const thread = this._thread(signal);
    let res;
    if (thread) {
      res = await thread.full(request, signal);
      if (this.o.stats) this.o.stats.threadRequests++;
    } else res = await this._send(request, signal);
    return { status: res.status, headers: headerMap(res.head), body: res.body, bytes: res.bytes, checksum: res.checksum };
  }

  // The request thread for this request (the one with the fewest requests out), or null to
  // send it from here. Each thread keeps its share of the sockets.
  _thread(signal) {
    if (!this.useThread || this.asked++ === 0) return null;
    let best = null;
    for (const t of this.threads) if (t.usable && (!best || t.pending.size < best.pending.size)) best = t;
    if ((!best || best.pending.size > 0) && this.threads.length < this.threadCount) {
      const sockets = this.o.maxSockets ? Math.max(1, Math.ceil(this.o.maxSockets / this.threadCount)) : undefined;
      best = new RequestThread(sockets);
      this.threads.push(best);
      if (this.o.stats) this.o.stats.requestThreads = Math.max(this.o.stats.requestThreads, this.threads.length);
    }
    if (!best) return null;
    if (signal) this._watchSignal(signal);
    return best;
  }

  // A signed request, as HttpPool#fetch takes it (without its body).
  async _signed(method, key, query, headers, payloadHash, deferred = false) {
    const client = this.o.client();
    let [credentials, region] = await Promise.all([this.o.anonymous ? ANONYMOUS_KEYS : client.config.credentials(), client.config.region()]);
    if (this.o.express) {
      const session = await this.o.express().getS3ExpressIdentity(credentials, { Bucket: this.o.bucket });
      credentials = { accessKeyId: session.accessKeyId, secretAccessKey: session.secretAccessKey };
      headers = { ...headers, 'x-amz-s3session-token': session.sessionToken };
    }
    const target = this._target(region, key);
    if (!target) throw new FallBack('address only the SDK can resolve');
    const signed = this.signer.sign({ method, host: target.host, path: target.path, query, headers, credentials, region, payloadHash, deferred });
    if (this.o.anonymous) delete signed.headers.authorization; // --no-sign-request: the path and query as signed, no signature
    return {
      secure: target.secure,
      deferred: signed.deferred,
      options: {
        hostname: target.hostname,
        port: target.port,
        method,
        path: signed.path,
        headers: { ...signed.headers, host: target.host },
      },
    };
  }

  _send(request, signal) {
    if (signal && signal.aborted) return Promise.reject(signal.reason);
    const calls = signal ? this._watchSignal(signal) : null;
    let call = null;
    // The call may start after a file is opened, so after an abort: it is ended at once then.
    const done = fetchWithFile(this.pool, request, calls ? (c) => {
      call = c;
      if (signal.aborted) c.destroy(signal.reason); else calls.add(c);
    } : null);
    if (!calls) return done;
    return done.finally(() => { if (call) calls.delete(call); }).catch((err) => { throw signal.aborted ? signal.reason : err; });
  }

  // One abort listener per signal for all its requests (thousands of listeners on one
  // EventTarget make every add and remove slow); an abort ends that signal's requests only.
  _watchSignal(signal) {
    let calls = this.watched.get(signal);
    if (calls) return calls;
    calls = new Set();
    this.watched.set(signal, calls);
    signal.addEventListener('abort', () => {
      for (const req of calls) req.destroy(signal.reason);
      for (const t of this.threads) t.abort(signal);
    }, { once: true });
    return calls;
  }

  destroy() {
    this.pool.destroy();
    for (const t of this.threads) t.destroy();
  }
}

module.exports = { LeanRequests, FallBack, copyHeaders };
