'use strict';
// A lean AWS Signature Version 4 signer for the hot S3 requests, with the signing key
// cached per secret, day and region. Credentials come from the SDK client's own
// provider chain; this only signs.
const crypto = require('crypto');

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

// RFC 3986 encoding as SigV4 wants it: everything but unreserved characters.
function uriEncode(s, keepSlash = false) {
  let out = encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  if (keepSlash) out = out.replace(/%2F/g, '/');
  return out;
}

// One-shot hashing where Node has it (20.12 and later): no Hash object per request.
const sha256Hex = typeof crypto.hash === 'function'
  ? (data) => crypto.hash('sha256', data, 'hex')
  : (data) => crypto.createHash('sha256').update(data, 'utf8').digest('hex');

function hmac(key, data) { return crypto.createHmac('sha256', key).update(data, 'utf8').digest(); }

class Signer {
  constructor(service = 's3') {
    this.service = service;
    this.keyCache = new Map();
  }

  _signingKey(secret, date, region) {
    const id = `${date}/${region}/${secret}`;
    let k = this.keyCache.get(id);
    if (!k) {
      k = hmac(hmac(hmac(hmac('AWS4' + secret, date), region), this.service), 'aws4_request');
      if (this.keyCache.size > 8) this.keyCache.clear();
      this.keyCache.set(id, k);
    }
    return k;
  }

  // The x-amz-date of a moment, remembered for the current second.
  _amzDate(now) {
    const sec = Math.floor(now.getTime() / 1000);
    if (sec !== this.sec) {
      this.sec = sec;
      this.amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    }
    return this.amzDate;
  }

  /**
   * Signs a request. query: [[name, value], ...] (unencoded). Returns {path (with encoded
   * query), headers}. payloadHash: the body's SHA-256 in hex, or UNSIGNED-PAYLOAD; bodiless
   * requests by default. deferred: leave the signature out and return, as `deferred`, what
   * signLater needs to add it once headers known only later (a checksum of a body read
   * elsewhere) are added: the day's signing key, never the secret.
   */
  sign({ method = 'GET', host, path, query = [], headers = {}, credentials, region, now = new Date(), payloadHash = EMPTY_SHA256, deferred = false }) {
    const amzDate = this._amzDate(now);
    const date = amzDate.slice(0, 8);
    const lower = { host, 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDate };
    for (const k in headers) lower[k.toLowerCase()] = String(headers[k]).trim();
    if (credentials.sessionToken) lower['x-amz-security-token'] = credentials.sessionToken;
    let canonicalQuery = '';
    if (query.length) {
      canonicalQuery = query.map(([k, v]) => [uriEncode(k), uriEncode(v)])
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1))
        .map(([k, v]) => `${k}=${v}`).join('&');
    }
    const canonicalPath = uriEncode(path, true);
    const parts = {
      method, canonicalPath, canonicalQuery, payloadHash, amzDate,
      scope: `${date}/${region}/${this.service}/aws4_request`,
      accessKeyId: credentials.accessKeyId,
      key: this._signingKey(credentials.secretAccessKey, date, region),
    };
    const out = { path: canonicalPath + (canonicalQuery ? `?${canonicalQuery}` : '') };
    if (deferred) {
      out.deferred = { ...parts, key: parts.key.toString('hex'), headers: lower }; // plain strings: it may cross threads
      out.headers = { ...lower };
    } else {
      lower.authorization = authorization(parts, lower);
      out.headers = lower;
    }
    delete out.headers.host;
    return out;
  }
}

// The Authorization header of a request whose canonical parts are known, its headers lower-case.
function authorization(p, lower) {
  const names = Object.keys(lower).sort();
  const signedHeaders = names.join(';');
  let canonicalHeaders = '';
  for (const n of names) canonicalHeaders += `${n}:${lower[n]}\n`;
  const canonical = `${p.method}\n${p.canonicalPath}\n${p.canonicalQuery}\n${canonicalHeaders}\n${signedHeaders}\n${p.payloadHash}`;
  const toSign = `AWS4-HMAC-SHA256\n${p.amzDate}\n${p.scope}\n${sha256Hex(canonical)}`;
  const signature = crypto.createHmac('sha256', typeof p.key === 'string' ? Buffer.from(p.key, 'hex') : p.key).update(toSign, 'utf8').digest('hex');
  return `AWS4-HMAC-SHA256 Credential=${p.accessKeyId}/${p.scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

/**
 * The headers of a request signed with deferred (Signer#sign), with `extra` (lower-case
 * names) added and signed too; anonymous: no signature, as --no-sign-request sends.
 */
function signLater(deferred, extra, anonymous = false) {
  const lower = { ...deferred.headers, ...extra };
  if (!anonymous) lower.authorization = authorization(deferred, lower);
  delete lower.host;
  return lower;
}

module.exports = { Signer, signLater, uriEncode, sha256Hex, EMPTY_SHA256 };
