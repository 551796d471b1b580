'use strict';
// Restricted temporary credentials from the test MinIO: STS AssumeRole with a session
// policy, signed (SigV4, service "sts") with the root test credentials. SigV4 is built
// here with node's crypto, so the tests depend on no transitive package.
const http = require('http');
const crypto = require('crypto');
const { connection } = require('./s3env');

const sha256hex = (data) => crypto.createHash('sha256').update(data).digest('hex');
const hmac = (key, data) => crypto.createHmac('sha256', key).update(data).digest();

// RFC 3986 encoding as SigV4 wants it (encodeURIComponent leaves !'()* alone).
const uriEncode = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * SigV4 headers for one request. headers must hold host; returns the headers to send
 * (with x-amz-date, x-amz-content-sha256 and authorization added).
 */
function signV4({ method, path = '/', query = '', headers, body = '', service, region, accessKeyId, secretAccessKey, now = new Date() }) {
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const payloadHash = sha256hex(body);
  const all = { ...headers, 'x-amz-date': amzDate, 'x-amz-content-sha256': payloadHash };
  const names = Object.keys(all).map((k) => k.toLowerCase()).sort();
  const lower = Object.fromEntries(Object.entries(all).map(([k, v]) => [k.toLowerCase(), String(v).trim().replace(/\s+/g, ' ')]));
  const canonicalHeaders = names.map((n) => `${n}:${lower[n]}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalQuery = query
    ? query.split('&').map((p) => p.split('=').map((x) => uriEncode(decodeURIComponent(x || '')))).sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join('&')
    : '';
  const canonicalRequest = [method, path, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256hex(canonicalRequest)].join('\n');
  const kSigning = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day), region), service), 'aws4_request');
  const signature = crypto.createHmac('sha256', kSigning).update(stringToSign).digest('hex');
  return {
    ...all,
    authorization: `AWS4-HMAC-SHA256 Credential=${accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

function post(endpoint, headers, body) {
  const url = new URL(endpoint);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: 'POST', path: '/', headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(30000, () => req.destroy(new Error('STS request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

const xmlValue = (xml, tag) => {
  const m = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  return m ? m[1].replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'") : undefined;
};

/** The session policy: s3:* on bucketsAllowed (and their objects), denied on bucketsDenied. */
function sessionPolicy({ bucketsAllowed = [], bucketsDenied = [] }) {
  const arns = (bs) => bs.flatMap((b) => [`arn:aws:s3:::${b}`, `arn:aws:s3:::${b}/*`]);
  const statements = [];
  if (bucketsAllowed.length) statements.push({ Effect: 'Allow', Action: ['s3:*'], Resource: arns(bucketsAllowed) });
  if (bucketsDenied.length) statements.push({ Effect: 'Deny', Action: ['s3:*'], Resource: arns(bucketsDenied) });
  if (!statements.length) throw new Error('restrictedCredentials: give bucketsAllowed and/or bucketsDenied');
  return { Version: '2012-10-17', Statement: statements };
}

/**
 * Temporary credentials that may use s3:* on bucketsAllowed only (and never on
 * bucketsDenied): {accessKeyId, secretAccessKey, sessionToken, expiration}.
 * Valid for 15 minutes. Throws with MinIO's answer on failure.
 */
async function restrictedCredentials({ bucketsAllowed = [], bucketsDenied = [], durationSeconds = 900 } = {}) {
  const c = connection();
  const policy = JSON.stringify(sessionPolicy({ bucketsAllowed, bucketsDenied }));
  const body = new URLSearchParams({
    Action: 'AssumeRole', Version: '2011-06-15', DurationSeconds: String(durationSeconds), Policy: policy,
  }).toString();
  const host = new URL(c.endpoint).host;
  const headers = signV4({
    method: 'POST',
    headers: { host, 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) },
    body,
    service: 'sts',
    region: c.region,
    accessKeyId: c.accessKeyId,
    secretAccessKey: c.secretAccessKey,
  });
  const res = await post(c.endpoint, headers, body);
  if (res.status !== 200) throw new Error(`STS AssumeRole failed: HTTP ${res.status}: ${res.body.slice(0, 500)}`);
  const creds = {
    accessKeyId: xmlValue(res.body, 'AccessKeyId'),
    secretAccessKey: xmlValue(res.body, 'SecretAccessKey'),
    sessionToken: xmlValue(res.body, 'SessionToken'),
    expiration: xmlValue(res.body, 'Expiration'),
  };
  if (!creds.accessKeyId || !creds.secretAccessKey || !creds.sessionToken) {
    throw new Error(`STS AssumeRole answered without credentials: ${res.body.slice(0, 500)}`);
  }
  return creds;
}

/** The environment variables that make the CLI use creds (for runCli's env). */
function credentialsEnv(creds) {
  return { AWS_ACCESS_KEY_ID: creds.accessKeyId, AWS_SECRET_ACCESS_KEY: creds.secretAccessKey, AWS_SESSION_TOKEN: creds.sessionToken };
}

module.exports = { restrictedCredentials, credentialsEnv, sessionPolicy, signV4 };
