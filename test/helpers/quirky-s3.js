'use strict';
// A small in-memory S3 endpoint that misbehaves the way real servers do, for unit tests
// of what s3blitz does about it (the real servers run in test/compat). Path-style only,
// signatures not checked, objects kept whole in memory. Quirks:
//   order: 'utf16'        lists and reads StartAfter in UTF-16 code-unit order (s3proxy)
//   rawKeys: true         ignores encoding-type=url: raw XML keys, no <EncodingType> (versitygw)
//   folderStartAfter: true  a StartAfter naming a folder skips the folder (SeaweedFS)
const http = require('http');
const crypto = require('crypto');

const { xmlEsc, xmlUnesc, urlEnc, utf8Cmp, readBody, sendXml, sendError } = require('./s3-wire');

const utf16Cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

async function startQuirkyS3({ order = 'utf8', rawKeys = false, folderStartAfter = false } = {}) {
  const buckets = new Map(); // name -> Map(key -> {body, etag, mtime})
  const cmp = order === 'utf16' ? utf16Cmp : utf8Cmp;
  const requests = [];

  const send = sendXml;
  const error = sendError;

  function list(res, b, q) {
    const prefix = q.get('prefix') || '';
    const max = Math.min(Number(q.get('max-keys') || 1000), 1000);
    const token = q.get('continuation-token');
    let after = token ? Buffer.from(token, 'base64url').toString('utf8') : q.get('start-after') || '';
    const keys = [...b.keys()].filter((k) => k.startsWith(prefix)).sort(cmp);
    if (folderStartAfter && after && !token && keys.some((k) => k.startsWith(`${after}/`))) after = `${after}/\u{10FFFF}`;
    const from = after ? keys.findIndex((k) => cmp(k, after) > 0) : 0;
    const page = from < 0 ? [] : keys.slice(from, from + max);
    const truncated = from >= 0 && from + max < keys.length;
    const url = q.get('encoding-type') === 'url' && !rawKeys;
    const enc = url ? urlEnc : xmlEsc;
    let x = `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix>${enc(prefix)}</Prefix>` +
      `<KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys>${url ? '<EncodingType>url</EncodingType>' : ''}<IsTruncated>${truncated}</IsTruncated>`;
    if (truncated) x += `<NextContinuationToken>${Buffer.from(page[page.length - 1]).toString('base64url')}</NextContinuationToken>`;
    for (const k of page) {
      const o = b.get(k);
      x += `<Contents><Key>${enc(k)}</Key><LastModified>${new Date(o.mtime).toISOString()}</LastModified><ETag>&quot;${o.etag}&quot;</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
    }
    send(res, 200, `${x}</ListBucketResult>`);
  }

  const server = http.createServer(async (req, res) => {
    try {
      const u = new URL(req.url, 'http://x');
      const [, bucket, ...rest] = u.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      const q = u.searchParams;
      requests.push({ method: req.method, bucket, key, query: Object.fromEntries(q) });
      const body = await readBody(req);
      if (req.method === 'PUT' && !key) { buckets.set(bucket, buckets.get(bucket) || new Map()); return send(res, 200); }
      const b = buckets.get(bucket);
      if (!b) return error(res, 404, 'NoSuchBucket');
      if (!key) {
        if (req.method === 'HEAD') return send(res, 200);
        if (req.method === 'GET') return list(res, b, q);
        if (req.method === 'POST' && q.has('delete')) {
          for (const [, k] of body.toString('utf8').matchAll(/<Key>([^<]*)<\/Key>/g)) b.delete(xmlUnesc(k));
          return send(res, 200, '<?xml version="1.0" encoding="UTF-8"?><DeleteResult></DeleteResult>');
        }
        return error(res, 501, 'NotImplemented');
      }
      if (req.method === 'PUT') {
        const src = req.headers['x-amz-copy-source'];
        let data = body;
        if (src) {
          const [sb, ...sk] = decodeURIComponent(src.replace(/^\//, '')).split('/');
          const o = buckets.get(sb) && buckets.get(sb).get(sk.join('/'));
          if (!o) return error(res, 404, 'NoSuchKey');
          data = o.body;
        }
        const etag = crypto.createHash('md5').update(data).digest('hex');
        b.set(key, { body: data, etag, mtime: Date.now() });
        return src ? send(res, 200, `<CopyObjectResult><LastModified>${new Date().toISOString()}</LastModified><ETag>&quot;${etag}&quot;</ETag></CopyObjectResult>`)
          : send(res, 200, '', { etag: `"${etag}"` });
      }
      const o = b.get(key);
      if (!o) return req.method === 'HEAD' ? send(res, 404) : error(res, 404, 'NoSuchKey');
      const headers = { etag: `"${o.etag}"`, 'last-modified': new Date(o.mtime).toUTCString(), 'content-type': 'binary/octet-stream' };
      if (req.method === 'HEAD') { res.writeHead(200, { ...headers, 'content-length': o.body.length }); return res.end(); }
      if (req.method === 'GET') { res.writeHead(200, { ...headers, 'content-length': o.body.length }); return res.end(o.body); }
      if (req.method === 'DELETE') { b.delete(key); return send(res, 204); }
      return error(res, 501, 'NotImplemented');
    } catch (err) {
      return error(res, 500, `InternalError: ${err.message}`);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${server.address().port}`,
    requests,
    bucket: (name) => { if (!buckets.has(name)) buckets.set(name, new Map()); return buckets.get(name); },
    put: (bucket, key, body = key) => { const data = Buffer.from(body); buckets.get(bucket).set(key, { body: data, etag: crypto.createHash('md5').update(data).digest('hex'), mtime: Date.now() }); },
    keys: (bucket) => [...buckets.get(bucket).keys()].sort(utf8Cmp),
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

module.exports = { startQuirkyS3 };
