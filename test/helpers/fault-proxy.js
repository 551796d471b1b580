'use strict';
// A fault-injecting HTTP proxy for S3 tests. It listens on 127.0.0.1 (a kernel-chosen
// port) in front of one S3 endpoint (the test MinIO) and forwards every request to it,
// except that, at configured rates drawn from a seeded PRNG, it answers instead:
//
//   slowDown       503 SlowDown (S3 XML error body), not forwarded
//   internalError  500 InternalError (S3 XML error body), not forwarded
//   reset          the client's socket is destroyed without any response, not forwarded
//   slow           forwarded after slowMs
//   truncate       forwarded; the upstream status and headers (Content-Length included)
//                  are passed on, the body is cut after half its bytes and the socket
//                  destroyed. Never for POST requests: CreateMultipartUpload and
//                  CompleteMultipartUpload are not idempotent, so their faults all happen
//                  before forwarding (a request that never reached the server is safe to
//                  retry; one that did and whose answer was lost is ambiguous). Never for
//                  empty bodies (HEAD, 204, Content-Length 0): nothing to cut.
//
// Refused keys (refuseKey / refuse.keys) answer 403 AccessDenied (or the configured
// status and code) for every request that names the key, in its path or in
// x-amz-copy-source, forever, and are never forwarded; refuseRequest(info) refuses any
// request it returns true for (a bucket's list requests after the first N, say).
//
// alterBody(info) => true forwards a 2xx answer with one byte of its body changed (the middle
// one; headers, length and status as the server sent them): bytes damaged in flight, which
// only a checksum of the body finds.
//
// onRequest listeners see every request before it is answered; one that returns a promise
// holds the request until the promise settles (to change the bucket between two requests of
// a run: rewrite an object before the delete that follows its listing is forwarded).
//
// The Host header is forwarded unchanged: the client signs SigV4 for the proxy's host,
// and the server checks the signature against the Host header it receives.
//
// Every request that is not refused takes exactly one PRNG draw, in arrival order, so
// the number of each fault among the first N requests depends on the seed alone.
//
// Transient faults can be capped per SDK invocation (maxFaultsPerInvocation, keyed by
// the amz-sdk-invocation-id header the AWS SDK repeats on every retry): with a cap
// below the client's attempt limit, every request eventually gets through, so a test
// of retries cannot fail by the chance of N faults in a row.

const http = require('http');
const { prng } = require('./keysets');

const FAULTS = ['slowDown', 'internalError', 'reset', 'slow', 'truncate'];
const TYPES = ['LIST', 'GET', 'PUT', 'COPY', 'HEAD', 'POST', 'DELETE', 'OTHER'];
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization',
  'te', 'trailer', 'upgrade', 'expect']);

const xmlEscape = (s) => String(s).replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' }[c]));

function s3ErrorXml(code, message, resource, requestId) {
  return '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${xmlEscape(code)}</Code><Message>${xmlEscape(message)}</Message>` +
    `<Resource>${xmlEscape(resource)}</Resource><RequestId>${xmlEscape(requestId)}</RequestId></Error>`;
}

const MESSAGES = {
  SlowDown: 'Please reduce your request rate.',
  InternalError: 'We encountered an internal error, please try again.',
  AccessDenied: 'Access Denied.',
};

function safeDecode(s) {
  try { return decodeURIComponent(s); } catch { return s; }
}

/**
 * Parses a path-style S3 request: {bucket, key, query}. key is undefined for bucket- or
 * service-level requests.
 */
function parseRequest(req) {
  const url = new URL(req.url, 'http://proxy.invalid');
  const segs = url.pathname.replace(/^\//, '');
  const slash = segs.indexOf('/');
  const bucket = segs === '' ? undefined : safeDecode(slash < 0 ? segs : segs.slice(0, slash));
  const rawKey = slash < 0 ? '' : segs.slice(slash + 1);
  const key = rawKey === '' ? undefined : safeDecode(rawKey);
  return { bucket, key, query: url.searchParams };
}

// "/bucket/key" or "bucket/key" (URL-encoded, optionally "?versionId=...").
function parseCopySource(header) {
  if (!header) return null;
  const raw = String(header).replace(/^\//, '').split('?')[0];
  const slash = raw.indexOf('/');
  if (slash < 0) return null;
  return { bucket: safeDecode(raw.slice(0, slash)), key: safeDecode(raw.slice(slash + 1)) };
}

/** LIST, GET, PUT, COPY, HEAD, POST, DELETE (OTHER for anything else). */
function classify(req, parsed = parseRequest(req)) {
  const { key, query } = parsed;
  switch (req.method) {
    case 'GET':
      if (query.has('list-type') || (key === undefined && (query.has('uploads') || query.has('versions') || [...query.keys()].length === 0))) return 'LIST';
      if (key !== undefined && query.has('uploadId')) return 'LIST'; // ListParts
      return 'GET';
    case 'HEAD': return 'HEAD';
    case 'PUT': return req.headers['x-amz-copy-source'] ? 'COPY' : 'PUT';
    case 'POST': return 'POST';
    case 'DELETE': return 'DELETE';
    default: return 'OTHER';
  }
}

function checkRates(rates) {
  let sum = 0;
  for (const [k, v] of Object.entries(rates)) {
    if (!FAULTS.includes(k)) throw new Error(`fault-proxy: unknown fault ${JSON.stringify(k)} (known: ${FAULTS.join(', ')})`);
    if (typeof v !== 'number' || !(v >= 0 && v <= 1)) throw new Error(`fault-proxy: rate ${k} must be a number in [0, 1], not ${v}`);
    sum += v;
  }
  if (sum > 1 + 1e-9) throw new Error(`fault-proxy: rates add up to ${sum} > 1`);
}

/**
 * @param o.target         upstream endpoint URL, e.g. http://127.0.0.1:9000 (http only)
 * @param o.rates          {slowDown, internalError, reset, slow, truncate}, each in [0, 1], sum <= 1
 * @param o.slowMs         delay of a slow response (default 300)
 * @param o.refuseKey      (key, req) => boolean: refuse every request naming this key
 * @param o.refuse         {keys: [...], status: 403 (default) or 500..., code: 'AccessDenied' (default)}
 * @param o.refuseRequest  (info) => boolean: refuse this request (info as onRequest's), with refuse's status and code
 * @param o.alterBody      (info) => boolean: change one byte of this request's 2xx answer body
 * @param o.faultTypes     request types (of TYPES) the rates apply to (default: all)
 * @param o.seed           PRNG seed (default 1)
 * @param o.maxFaultsPerInvocation  cap on slowDown/internalError/reset/truncate per SDK
 *                         invocation (amz-sdk-invocation-id); default unlimited
 * @returns Promise<{endpoint, port, stats(), setRates(rates), onRequest(cb), close()}>
 */
async function startFaultProxy(o = {}) {
  if (!o.target) throw new Error('fault-proxy: target is required');
  const target = new URL(o.target);
  if (target.protocol !== 'http:') throw new Error('fault-proxy: only http targets are supported');
  let rates = { slowDown: 0, internalError: 0, reset: 0, slow: 0, truncate: 0, ...o.rates };
  checkRates(rates);
  const slowMs = o.slowMs === undefined ? 300 : o.slowMs;
  const faultTypes = o.faultTypes ? new Set(o.faultTypes) : null;
  for (const t of faultTypes || []) if (!TYPES.includes(t)) throw new Error(`fault-proxy: unknown request type ${JSON.stringify(t)} (known: ${TYPES.join(', ')})`);
  const random = prng(o.seed === undefined ? 1 : o.seed).next;
  const maxFaults = o.maxFaultsPerInvocation === undefined ? Infinity : o.maxFaultsPerInvocation;
  const refuseKeys = new Set((o.refuse && o.refuse.keys) || []);
  const refuseStatus = (o.refuse && o.refuse.status) || 403;
  const refuseCode = (o.refuse && o.refuse.code) || (refuseStatus === 403 ? 'AccessDenied' : 'InternalError');
  const refused = (key, req) => key !== undefined && (refuseKeys.has(key) || Boolean(o.refuseKey && o.refuseKey(key, req)));
  const refusedRequest = (info) => Boolean(o.refuseRequest && o.refuseRequest(info));

  const counters = {
    requests: 0,
    byType: Object.fromEntries(TYPES.map((t) => [t, 0])),
    injected: { slowDown: 0, internalError: 0, reset: 0, slow: 0, truncate: 0, refused: 0, altered: 0 },
    forwarded: 0,
    upstreamErrors: 0,
  };
  const listeners = [];
  const faultsByInvocation = new Map();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024, maxFreeSockets: 256 });
  const sockets = new Set();
  let seq = 0;

  const draw = () => {
    const x = random();
    let acc = 0;
    for (const f of FAULTS) {
      acc += rates[f] || 0;
      if (x < acc) return f;
    }
    return null;
  };

  const sendError = (req, res, status, code) => {
    const body = s3ErrorXml(code, MESSAGES[code] || code, req.url.split('?')[0], `fault-proxy-${seq}`);
    const drainThenSend = () => {
      if (res.destroyed) return;
      res.writeHead(status, {
        'Content-Type': 'application/xml',
        'Content-Length': Buffer.byteLength(body),
        'x-amz-request-id': `fault-proxy-${seq}`,
        ...(code === 'SlowDown' ? { 'Retry-After': '0' } : {}),
      });
      // HEAD answers carry no body (the client knows the code from the status).
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    // Read the request body first so keep-alive connections stay usable.
    if (req.complete) drainThenSend();
    else { req.on('end', drainThenSend); req.on('error', () => {}); req.resume(); }
  };

  const forward = (req, res, { truncate, alter }) => {
    counters.forwarded++;
    const headers = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k)) headers[k] = v;
    // headers.host stays the client's (the proxy's host): SigV4 signed it.
    const up = http.request({
      host: target.hostname, port: target.port || 80, method: req.method, path: req.url, headers, agent,
    }, (ures) => {
      const rh = {};
      for (const [k, v] of Object.entries(ures.headers)) if (!HOP_BY_HOP.has(k)) rh[k] = v;
      const len = ures.headers['content-length'] !== undefined ? Number(ures.headers['content-length']) : null;
      const bodyless = req.method === 'HEAD' || ures.statusCode === 204 || ures.statusCode === 304 || len === 0;
      if (truncate && !bodyless) {
        counters.injected.truncate++;
        res.writeHead(ures.statusCode, ures.statusMessage, rh);
        // Half of the announced length (or, without one, of the first chunk), then cut:
        // the socket is ended once what was written is flushed, so the client reads a
        // valid head, part of the body, and then the connection closes.
        const limit = len !== null ? Math.floor(len / 2) : null;
        let sent = 0;
        let cut = false;
        ures.on('data', (chunk) => {
          if (cut) return;
          const room = (limit !== null ? limit : Math.floor(chunk.length / 2)) - sent;
          if (chunk.length < room) { res.write(chunk); sent += chunk.length; return; }
          cut = true;
          ures.destroy();
          if (room > 0) res.write(chunk.subarray(0, room));
          const sock = res.socket;
          if (sock) {
            sock.end();
            setTimeout(() => sock.destroy(), 1000).unref();
          } else res.destroy();
        });
        ures.on('end', () => { if (!cut) res.destroy(); });
        ures.on('error', () => { if (!cut) res.destroy(); });
        return;
      }
      if (alter && !bodyless && ures.statusCode < 300) {
        counters.injected.altered++;
        res.writeHead(ures.statusCode, ures.statusMessage, rh);
        const at = len !== null ? Math.floor(len / 2) : 0;
        let seen = 0;
        ures.on('data', (chunk) => {
          if (at >= seen && at < seen + chunk.length) { chunk = Buffer.from(chunk); chunk[at - seen] ^= 0x5a; }
          seen += chunk.length;
          res.write(chunk);
        });
        ures.on('end', () => res.end());
        ures.on('error', () => res.destroy());
        return;
      }
      res.writeHead(ures.statusCode, ures.statusMessage, rh);
      ures.pipe(res);
      ures.on('error', () => res.destroy());
    });
    up.on('error', () => {
      counters.upstreamErrors++;
      if (!res.headersSent) {
        const body = s3ErrorXml('BadGateway', 'fault-proxy: upstream unreachable', req.url, `fault-proxy-${seq}`);
        res.writeHead(502, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
      } else res.destroy();
    });
    // The client went away: stop the upstream request too.
    res.on('close', () => { if (!res.writableFinished) up.destroy(); });
    req.pipe(up);
  };

  const handle = (req, res) => {
    const n = ++seq;
    counters.requests++;
    const parsed = parseRequest(req);
    const type = classify(req);
    counters.byType[type]++;
    const copySrc = parseCopySource(req.headers['x-amz-copy-source']);
    const info = { seq: n, type, method: req.method, url: req.url, bucket: parsed.bucket, key: parsed.key,
      copySource: copySrc, headers: req.headers };

    let fault = null;
    if (refused(parsed.key, req) || (copySrc && refused(copySrc.key, req)) || refusedRequest(info)) {
      fault = 'refused';
    } else {
      fault = faultTypes && !faultTypes.has(type) ? null : draw();
      if (fault === 'truncate' && req.method === 'POST') fault = null; // non-idempotent: before forwarding only
      if (fault && fault !== 'slow' && maxFaults !== Infinity) {
        const inv = req.headers['amz-sdk-invocation-id'];
        if (inv) {
          const used = faultsByInvocation.get(inv) || 0;
          if (used >= maxFaults) fault = null;
          else faultsByInvocation.set(inv, used + 1);
        }
      }
    }
    info.fault = fault;
    const held = [];
    for (const cb of listeners) {
      try {
        const r = cb(info);
        if (r && typeof r.then === 'function') held.push(r);
      } catch { /* a listener's bug must not break the proxy */ }
    }
    if (held.length) {
      // The request body waits in the socket meanwhile (paused), then goes on as it would have.
      req.pause();
      Promise.allSettled(held).then(() => { if (!res.destroyed && !req.socket.destroyed) answer(fault, req, res, info); });
      return undefined;
    }
    return answer(fault, req, res, info);
  };

  const answer = (fault, req, res, info) => {
    switch (fault) {
      case 'refused':
        counters.injected.refused++;
        return sendError(req, res, refuseStatus, refuseCode);
      case 'slowDown':
        counters.injected.slowDown++;
        return sendError(req, res, 503, 'SlowDown');
      case 'internalError':
        counters.injected.internalError++;
        return sendError(req, res, 500, 'InternalError');
      case 'reset':
        counters.injected.reset++;
        req.socket.destroy();
        return undefined;
      case 'slow': {
        counters.injected.slow++;
        const t = setTimeout(() => { if (!res.destroyed) forward(req, res, { truncate: false }); }, slowMs);
        res.on('close', () => clearTimeout(t));
        return undefined;
      }
      case 'truncate':
        return forward(req, res, { truncate: true }); // counted when the body is really cut
      default:
        return forward(req, res, { truncate: false, alter: Boolean(o.alterBody && o.alterBody(info)) });
    }
  };

  const server = http.createServer({ keepAlive: true }, handle);
  server.keepAliveTimeout = 30000;
  server.headersTimeout = 60000;
  server.requestTimeout = 0;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('clientError', (err, socket) => socket.destroy());
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address();

  let closing = null;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    stats: () => JSON.parse(JSON.stringify(counters)),
    setRates(next) {
      const merged = { ...rates, ...next };
      checkRates(merged);
      rates = merged;
    },
    onRequest(cb) {
      listeners.push(cb);
      return () => { const i = listeners.indexOf(cb); if (i >= 0) listeners.splice(i, 1); };
    },
    close() {
      if (!closing) {
        closing = new Promise((resolve) => {
          server.close(() => resolve());
          for (const s of sockets) s.destroy();
          agent.destroy();
        });
      }
      return closing;
    },
  };
}

module.exports = { startFaultProxy, classify, parseRequest, parseCopySource, s3ErrorXml, FAULTS, TYPES };
