'use strict';
// An HTTP endpoint serving directory buckets (S3 Express One Zone), for tests that run
// s3blitz (CLI or library, through the real SDK) against them; no installable S3 server has
// directory buckets. Path-style (the SDK's form for a custom endpoint), signatures not
// checked, objects whole in memory. Modelled after AWS's documentation of how directory
// buckets differ:
// - sessions: GET /bucket?session (CreateSession) hands out a token; every other request
//   must carry a live one in x-amz-s3session-token (a missing or unknown one: 403
//   AccessDenied, an expired one: 400 ExpiredToken), but CopyObject and UploadPartCopy, which
//   the SDK signs with the caller's credentials; a session's request must be signed with its
//   keys for service s3express (the signature itself is not checked). expireEvery: n expires every session
//   after each n requests that carry one, wherever the client stands (counted, not timed);
// - listing: FakeDirectoryStore's rules (pages in no key order, a fresh shuffle on every
//   listing, StartAfter refused, "/" the only delimiter, prefixes with a delimiter ending in
//   it, phantom directories of open multipart uploads);
// - ETags are random strings, not MD5s; checksums sent (header or aws-chunked trailer) are
//   kept and returned with x-amz-checksum-mode: ENABLED;
// - DeleteObjects refuses a batch naming a key with a control character but TAB, LF and CR;
//   a directory goes with its last key (directories are only what keys make them);
// - a write naming a storage class other than EXPRESS_ONEZONE is refused (InvalidStorageClass);
// - RenameObject: PUT /bucket/new?renameObject with x-amz-rename-source: /bucket/old
//   (URL-encoded), If-None-Match: * answered 412 when the new key exists, and
//   x-amz-rename-source-if-match when the source's ETag differs; metadata, ETag, checksums
//   and dates travel with the object;
// - no versions: a request naming a version id other than "null" is refused (400
//   InvalidArgument), and ListObjectVersions is not implemented (501).
const http = require('http');
const crypto = require('crypto');
const { FakeDirectoryStore, DirectoryBucketError } = require('./fake-directory-store');
const { xmlEsc, xmlUnesc, urlEnc, utf8Cmp, readRequest, sendXml, sendError } = require('./s3-wire');

const CHECKSUMS = ['crc32', 'crc32c', 'crc64nvme', 'sha1', 'sha256'];
// Random ETags, drawn 1,024 at a time (a benchmark puts a million objects).
let etagPool = Buffer.alloc(0), etagAt = 0;
function randomEtag() {
  if (etagAt === etagPool.length) { etagPool = crypto.randomBytes(16 * 1024); etagAt = 0; }
  etagAt += 16;
  return etagPool.toString('hex', etagAt - 16, etagAt);
}

// What a listing says of an object under a key, made once (a benchmark lists a million keys
// many times, and the fake's CPU must not be what it measures): its item, and its <Contents>
// element in each encoding. Kept with the key: a renamed object is listed under its new one.
function listed(o, key) {
  if (!o.listed || o.listed.key !== key) {
    const l = { key, item: { Key: key, Size: o.body.length, LastModified: new Date(o.mtime), ETag: `"${o.etag}"`, StorageClass: 'EXPRESS_ONEZONE' }, xml: {} };
    l.item.Listed = l; // (contentsXml finds the cache from the item a page holds)
    o.listed = l;
  }
  return o.listed;
}

// (a Buffer: a page is the concatenation of its entries' bytes, no string made and encoded)
function contentsXml(it, url) {
  const render = () => Buffer.from(`<Contents><Key>${(url ? urlEnc : xmlEsc)(it.Key)}</Key><LastModified>${it.LastModified.toISOString()}</LastModified><ETag>${xmlEsc(it.ETag)}</ETag><Size>${it.Size}</Size><StorageClass>EXPRESS_ONEZONE</StorageClass></Contents>`);
  if (!it.Listed) return render();
  const enc = url ? 'url' : 'xml';
  return it.Listed.xml[enc] || (it.Listed.xml[enc] = render());
}

class Bucket {
  constructor(name, seed, maxKeys, latencyMs) {
    this.name = name;
    this.objects = new Map(); // key -> {body, etag, mtime, meta, contentType, checksums}
    this.uploads = new Map(); // uploadId -> {key, parts: Map(n -> {body, etag}), meta, contentType}
    this.model = new FakeDirectoryStore([], {
      seed, maxKeys, bucket: name, latencyMs, measureCpu: false,
      describe: (k) => { const o = this.objects.get(k); return o && listed(o, k).item; },
    });
  }

  // Keys or uploads changed: the listing model is built again when next listed.
  changed() { this.dirty = true; }

  // The listing model, brought up to date.
  fresh() {
    if (this.dirty) {
      this.model.keys = [...this.objects.keys()];
      this.model.uploads = [...this.uploads.values()].map((u) => u.key);
      this.model.changed();
      this.dirty = false;
    }
    return this.model;
  }

  listPage(params) { return this.fresh().listPage(params); }

  set(key, o) { this.objects.set(key, o); this.changed(); }

  remove(key) { const had = this.objects.delete(key); if (had) this.changed(); return had; }
}

function checksumsOf(headers) {
  const out = {};
  for (const c of CHECKSUMS) if (headers[`x-amz-checksum-${c}`]) out[c] = headers[`x-amz-checksum-${c}`];
  return out;
}

function metaOf(headers) {
  const meta = {};
  for (const [h, v] of Object.entries(headers)) if (h.startsWith('x-amz-meta-')) meta[h] = v;
  return meta;
}

// latencyMs: each listing's wait (a benchmark's round trip); else a random tick or two.
// logRequests: keep every request in `requests` (tests read them; a benchmark's millions
// would fill the heap).
async function startFakeDirectoryS3({ seed = 1, maxKeys = 1000, expireEvery = 0, latencyMs = 0, logRequests = true } = {}) {
  const buckets = new Map();
  const sessions = new Map(); // token -> {expired}
  const requests = [];
  const watchers = new Set(); // onRequest's
  let signed = 0; // requests that carried a session token
  let nextSession = 1;
  let nextUpload = 1;

  const expireSessions = () => { for (const s of sessions.values()) s.expired = true; };

  function listXml(b, q) {
    return b.listPage({
      prefix: q.get('prefix') || '',
      startAfter: q.get('start-after') || undefined,
      continuationToken: q.get('continuation-token') ?? undefined,
      delimiter: q.has('delimiter') ? q.get('delimiter') : undefined,
      maxKeys: q.has('max-keys') ? Number(q.get('max-keys')) : undefined,
    }).then((page) => {
      const url = q.get('encoding-type') === 'url';
      const enc = url ? urlEnc : xmlEsc;
      const n = page.items.length + (page.prefixes ? page.prefixes.length : 0);
      let x = `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${b.name}</Name><Prefix>${enc(q.get('prefix') || '')}</Prefix>` +
        `${q.has('delimiter') ? `<Delimiter>${enc(q.get('delimiter'))}</Delimiter>` : ''}<KeyCount>${n}</KeyCount><MaxKeys>${maxKeys}</MaxKeys>${url ? '<EncodingType>url</EncodingType>' : ''}<IsTruncated>${page.truncated}</IsTruncated>`;
      if (q.has('continuation-token')) x += `<ContinuationToken>${xmlEsc(q.get('continuation-token'))}</ContinuationToken>`;
      if (page.truncated) x += `<NextContinuationToken>${xmlEsc(page.nextToken)}</NextContinuationToken>`;
      const parts = [Buffer.from(x)];
      for (const it of page.items) parts.push(contentsXml(it, url));
      let tail = '';
      for (const p of page.prefixes || []) tail += `<CommonPrefixes><Prefix>${enc(p)}</Prefix></CommonPrefixes>`;
      parts.push(Buffer.from(`${tail}</ListBucketResult>`));
      return Buffer.concat(parts);
    });
  }

  function objectHeaders(o, checksumMode) {
    const h = { etag: `"${o.etag}"`, 'last-modified': new Date(o.mtime).toUTCString(), 'content-type': o.contentType || 'binary/octet-stream', 'x-amz-storage-class': 'EXPRESS_ONEZONE', ...o.meta };
    if (checksumMode) for (const [c, v] of Object.entries(o.checksums || {})) h[`x-amz-checksum-${c}`] = v;
    if (checksumMode && o.checksumType) h['x-amz-checksum-type'] = o.checksumType;
    return h;
  }

  // A copy source: /bucket/key or bucket/key, URL-encoded, perhaps with ?versionId.
  function copySource(header) {
    const [path] = String(header).split('?');
    const [sb, ...sk] = decodeURIComponent(path.replace(/^\//, '')).split('/');
    const b = buckets.get(sb);
    return { bucket: b, key: sk.join('/'), object: b && b.objects.get(sk.join('/')) };
  }

  function conditionFails(req, existing) {
    const inm = req.headers['if-none-match'];
    const im = req.headers['if-match'];
    if (inm === '*' && existing) return true;
    if (im !== undefined && (!existing || im.replace(/"/g, '') !== existing.etag)) return true;
    return false;
  }

  async function bucketRequest(req, res, b, q, body) {
    if (req.method === 'HEAD') return sendXml(res, 200);
    if (req.method === 'GET' && q.get('list-type') === '2') return sendXml(res, 200, await listXml(b, q));
    if (req.method === 'GET' && q.has('uploads')) {
      let x = `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult><Bucket>${b.name}</Bucket><IsTruncated>false</IsTruncated>`;
      for (const [id, u] of b.uploads) x += `<Upload><Key>${xmlEsc(u.key)}</Key><UploadId>${id}</UploadId><Initiated>${new Date(u.started).toISOString()}</Initiated></Upload>`;
      return sendXml(res, 200, `${x}</ListMultipartUploadsResult>`);
    }
    if (req.method === 'POST' && q.has('delete')) {
      const objects = [...body.toString('utf8').matchAll(/<Object>([\s\S]*?)<\/Object>/g)].map(([, o]) => ({
        key: xmlUnesc((o.match(/<Key>([\s\S]*?)<\/Key>/) || [])[1] || ''),
        etag: (o.match(/<ETag>([\s\S]*?)<\/ETag>/) || [])[1],
      }));
      if (objects.some((o) => /[\x00-\x08\x0b\x0c\x0e-\x1f]/.test(o.key))) {
        return sendError(res, 400, 'InvalidRequest', 'DeleteObjects keys in a directory bucket may hold no control character but TAB, LF and CR');
      }
      const quiet = /<Quiet>true<\/Quiet>/.test(body.toString('utf8'));
      let x = '<?xml version="1.0" encoding="UTF-8"?><DeleteResult>';
      for (const o of objects) {
        const have = b.objects.get(o.key);
        if (o.etag !== undefined && (!have || xmlUnesc(o.etag).replace(/"/g, '') !== have.etag)) {
          x += `<Error><Key>${xmlEsc(o.key)}</Key><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>`;
          continue;
        }
        b.remove(o.key);
        if (!quiet) x += `<Deleted><Key>${xmlEsc(o.key)}</Key></Deleted>`;
      }
      return sendXml(res, 200, `${x}</DeleteResult>`);
    }
    if (req.method === 'DELETE') {
      if (b.objects.size) return sendError(res, 409, 'BucketNotEmpty');
      buckets.delete(b.name);
      return sendXml(res, 204);
    }
    return sendError(res, 501, 'NotImplemented');
  }

  async function objectRequest(req, res, b, key, q, body, headers) {
    const existing = b.objects.get(key);
    const sc = headers['x-amz-storage-class'];
    if (sc !== undefined && sc !== 'EXPRESS_ONEZONE') return sendError(res, 400, 'InvalidStorageClass', 'The storage class you specified is not valid');
    if (req.method === 'POST' && q.has('uploads')) {
      const id = `u${nextUpload++}`;
      b.uploads.set(id, { key, parts: new Map(), meta: metaOf(headers), contentType: headers['content-type'], started: Date.now(), algorithm: String(headers['x-amz-checksum-algorithm'] || '').toLowerCase() });
      b.changed();
      return sendXml(res, 200, `<?xml version="1.0" encoding="UTF-8"?><InitiateMultipartUploadResult><Bucket>${b.name}</Bucket><Key>${xmlEsc(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
    }
    if (q.has('uploadId')) {
      const id = q.get('uploadId');
      const u = b.uploads.get(id);
      if (!u || u.key !== key) return sendError(res, 404, 'NoSuchUpload');
      if (req.method === 'PUT') {
        let data = body;
        if (headers['x-amz-copy-source']) {
          const src = copySource(headers['x-amz-copy-source']);
          if (!src.object) return sendError(res, 404, 'NoSuchKey');
          data = src.object.body;
          const range = /bytes=(\d+)-(\d+)/.exec(headers['x-amz-copy-source-range'] || '');
          if (range) data = data.subarray(+range[1], +range[2] + 1);
        }
        const etag = randomEtag();
        u.parts.set(Number(q.get('partNumber')), { body: data, etag });
        if (headers['x-amz-copy-source']) return sendXml(res, 200, `<CopyPartResult><ETag>&quot;${etag}&quot;</ETag><LastModified>${new Date().toISOString()}</LastModified></CopyPartResult>`);
        return sendXml(res, 200, '', { etag: `"${etag}"` });
      }
      if (req.method === 'DELETE') { b.uploads.delete(id); b.changed(); return sendXml(res, 204); }
      if (req.method === 'POST') {
        const named = [...body.toString('utf8').matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
        if (named.some((n) => !u.parts.has(n))) return sendError(res, 400, 'InvalidPart');
        if (conditionFails(req, existing)) return sendError(res, 412, 'PreconditionFailed');
        const data = Buffer.concat(named.map((n) => u.parts.get(n).body));
        const etag = `${randomEtag()}-${named.length}`;
        b.uploads.delete(id);
        // The full-object checksum sent with the completion, in the upload's algorithm, is kept
        // (S3 checks it; this fake does not); a composite checksum of parts is not modelled.
        const sent = checksumsOf(headers)[u.algorithm];
        const full = headers['x-amz-checksum-type'] === 'FULL_OBJECT' && sent ? { [u.algorithm]: sent } : {};
        b.set(key, { body: data, etag, mtime: Date.now(), meta: u.meta, contentType: u.contentType, checksums: full, checksumType: Object.keys(full).length ? 'FULL_OBJECT' : undefined });
        return sendXml(res, 200, `<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUploadResult><Bucket>${b.name}</Bucket><Key>${xmlEsc(key)}</Key><ETag>&quot;${etag}&quot;</ETag></CompleteMultipartUploadResult>`);
      }
    }
    if (req.method === 'PUT' && q.has('renameObject')) {
      const from = decodeURIComponent(String(headers['x-amz-rename-source'] || ''));
      const srcKey = from.startsWith(`/${b.name}/`) ? from.slice(b.name.length + 2) : null;
      if (srcKey === null) return sendError(res, 400, 'InvalidArgument', 'x-amz-rename-source must name an object of the same directory bucket');
      if (key.endsWith('/') || srcKey.endsWith('/')) return sendError(res, 400, 'InvalidArgument', 'RenameObject takes no key ending in the delimiter');
      const o = b.objects.get(srcKey);
      if (!o) return sendError(res, 404, 'NoSuchKey');
      const sim = headers['x-amz-rename-source-if-match'];
      if (sim !== undefined && sim.replace(/"/g, '') !== o.etag) return sendError(res, 412, 'PreconditionFailed');
      if (conditionFails(req, existing)) return sendError(res, 412, 'PreconditionFailed');
      b.objects.delete(srcKey);
      b.set(key, o);
      return sendXml(res, 200);
    }
    if (req.method === 'PUT') {
      if (conditionFails(req, existing)) return sendError(res, 412, 'PreconditionFailed');
      let o;
      if (headers['x-amz-copy-source']) {
        const src = copySource(headers['x-amz-copy-source']);
        if (!src.object) return sendError(res, 404, 'NoSuchKey');
        const replace = headers['x-amz-metadata-directive'] === 'REPLACE';
        o = { ...src.object, etag: randomEtag(), mtime: Date.now(), ...(replace ? { meta: metaOf(headers), contentType: headers['content-type'] } : {}) };
        b.set(key, o);
        return sendXml(res, 200, `<CopyObjectResult><LastModified>${new Date(o.mtime).toISOString()}</LastModified><ETag>&quot;${o.etag}&quot;</ETag></CopyObjectResult>`);
      }
      const md5 = headers['content-md5'];
      if (md5 && crypto.createHash('md5').update(body).digest('base64') !== md5) return sendError(res, 400, 'BadDigest');
      o = { body, etag: randomEtag(), mtime: Date.now(), meta: metaOf(headers), contentType: headers['content-type'], checksums: checksumsOf(headers) };
      b.set(key, o);
      return sendXml(res, 200, '', { etag: `"${o.etag}"`, ...Object.fromEntries(Object.entries(o.checksums).map(([c, v]) => [`x-amz-checksum-${c}`, v])) });
    }
    if (req.method === 'DELETE') { b.remove(key); return sendXml(res, 204); }
    if (!existing) return req.method === 'HEAD' ? sendXml(res, 404) : sendError(res, 404, 'NoSuchKey');
    // A range is not the object: S3 sends no checksum of the whole with it.
    const h = objectHeaders(existing, headers['x-amz-checksum-mode'] === 'ENABLED' && !(req.method === 'GET' && headers.range));
    if (req.method === 'HEAD') { res.writeHead(200, { ...h, 'content-length': existing.body.length }); return res.end(); }
    if (req.method === 'GET') {
      const range = /bytes=(\d+)-(\d*)/.exec(headers.range || '');
      if (range) {
        const from = +range[1];
        const to = Math.min(range[2] === '' ? existing.body.length - 1 : +range[2], existing.body.length - 1);
        if (from >= existing.body.length) return sendError(res, 416, 'InvalidRange');
        res.writeHead(206, { ...h, 'content-length': to - from + 1, 'content-range': `bytes ${from}-${to}/${existing.body.length}` });
        return res.end(existing.body.subarray(from, to + 1));
      }
      res.writeHead(200, { ...h, 'content-length': existing.body.length });
      return res.end(existing.body);
    }
    return sendError(res, 501, 'NotImplemented');
  }

  const server = http.createServer(async (req, res) => {
    try {
      // The path as sent: a URL object would resolve "." and ".." segments, which are part
      // of a key in S3.
      const qAt = req.url.indexOf('?');
      const [, name, ...rest] = (qAt < 0 ? req.url : req.url.slice(0, qAt)).split('/');
      // The SDK writes every request of a directory bucket at a custom endpoint with one more
      // slash: /bucket//key, /bucket//?list-type=2.
      const path = rest.join('/');
      const key = decodeURIComponent(path.startsWith('/') ? path.slice(1) : path);
      const q = new URLSearchParams(qAt < 0 ? '' : req.url.slice(qAt + 1));
      const { body, headers } = await readRequest(req);
      const token = headers['x-amz-s3session-token'];
      // sdk: sent by the AWS SDK (it names each call), else by s3blitz's lean path.
      const seen = { method: req.method, bucket: name, key, query: Object.fromEntries(q), token, sdk: headers['amz-sdk-invocation-id'] !== undefined, copy: headers['x-amz-copy-source'] !== undefined };
      if (logRequests) requests.push(seen);
      for (const f of watchers) f(seen);
      if (!name) return sendError(res, 501, 'NotImplemented');
      if (req.method === 'PUT' && !key && !q.toString()) { if (!buckets.has(name)) buckets.set(name, new Bucket(name, seed + buckets.size, maxKeys, latencyMs)); return sendXml(res, 200); }
      const b = buckets.get(name);
      if (!b) return sendError(res, 404, 'NoSuchBucket');
      if (!key && req.method === 'GET' && q.has('session')) {
        const t = `session-${nextSession++}`;
        sessions.set(t, { expired: false });
        return sendXml(res, 200, `<?xml version="1.0" encoding="UTF-8"?><CreateSessionResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Credentials><SessionToken>${t}</SessionToken><SecretAccessKey>secret-${t}</SecretAccessKey><AccessKeyId>key-${t}</AccessKeyId><Expiration>${new Date(Date.now() + 300000).toISOString()}</Expiration></Credentials></CreateSessionResult>`);
      }
      // CopyObject and UploadPartCopy are signed with the caller's own credentials, as the SDK
      // does (no session: the source may be another bucket's), for service s3express.
      const iamSigned = req.method === 'PUT' && headers['x-amz-copy-source'] !== undefined && /Credential=[^/]+\/[^/]+\/[^/]+\/s3express\/aws4_request/.test(headers.authorization || '');
      const s = token && sessions.get(token);
      if (!s && !iamSigned) return sendError(res, 403, 'AccessDenied', 'A directory bucket takes requests with a session token (CreateSession)');
      if (s && s.expired) return sendError(res, 400, 'ExpiredToken', 'The provided token has expired.');
      // A session's request is signed with the session's keys, for service s3express.
      if (s && !new RegExp(`Credential=key-${token}/[^/]+/[^/]+/s3express/aws4_request`).test(headers.authorization || '')) {
        return sendError(res, 403, 'SignatureDoesNotMatch', 'A session request is signed with the session\'s keys for service s3express');
      }
      if (s && expireEvery && ++signed % expireEvery === 0) expireSessions();
      // No versions: "null" is the only version id there is.
      if (q.has('versionId') && q.get('versionId') !== 'null') return sendError(res, 400, 'InvalidArgument', 'Invalid version id specified');
      return key ? await objectRequest(req, res, b, key, q, body, headers) : await bucketRequest(req, res, b, q, body);
    } catch (err) {
      if (err instanceof DirectoryBucketError) return sendError(res, 400, err.Code, err.message);
      return sendError(res, 500, 'InternalError', err.message);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const bucket = (name) => { if (!buckets.has(name)) buckets.set(name, new Bucket(name, seed + buckets.size, maxKeys, latencyMs)); return buckets.get(name); };
  return {
    endpoint: `http://127.0.0.1:${server.address().port}`,
    requests,
    // f(request) as each arrives (before it is answered); returns what stops it.
    onRequest: (f) => { watchers.add(f); return () => watchers.delete(f); },
    bucket,
    // (a Buffer is kept as it is: a benchmark gives its million objects one)
    put: (name, key, body = key, { mtime = Date.now(), checksums = {} } = {}) => bucket(name).set(key, { body: Buffer.isBuffer(body) ? body : Buffer.from(body), etag: randomEtag(), mtime, meta: {}, checksums }),
    openUpload: (name, key) => { const b = bucket(name); b.uploads.set(`u${nextUpload++}`, { key, parts: new Map(), meta: {}, started: Date.now() }); b.changed(); },
    drop: (name) => buckets.delete(name),
    keys: (name) => [...bucket(name).objects.keys()].sort(utf8Cmp),
    object: (name, key) => bucket(name).objects.get(key),
    // Makes ahead what listing a bucket costs the fake once (its directory model, and each
    // object's <Contents> in both encodings), so that a benchmark's first run does not pay it.
    prime: (name) => {
      const b = bucket(name);
      b.fresh()._entries('', '/');
      b.model._entries('', undefined);
      b.model.describeAll();
      for (const [k, o] of b.objects) { const { item } = listed(o, k); contentsXml(item, true); contentsXml(item, false); }
    },
    sessionsCreated: () => sessions.size,
    expireSessions,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

module.exports = { startFakeDirectoryS3 };
