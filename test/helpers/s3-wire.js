'use strict';
// What the test endpoints (quirky-s3.js, fake-directory-s3.js) share of S3's wire format:
// XML escapes, URL-encoded keys, error answers and request bodies (aws-chunked too).
const ENT = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xmlEsc = (s) => s.replace(/[&<>"']/g, (c) => ENT[c]);
const xmlUnesc = (s) => s.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (m, e) =>
  (e[0] === '#' ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : +e.slice(1)) : { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[e]));
const urlEnc = (s) => encodeURIComponent(s).replace(/%2F/g, '/').replace(/%20/g, '+');
const utf8Cmp = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));

function readBody(req) {
  return new Promise((resolve, reject) => {
    const parts = [];
    req.on('data', (d) => parts.push(d));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

// An aws-chunked body (`size;chunk-signature=...\r\n data \r\n ... 0\r\n trailers \r\n`):
// its data, and its trailing headers (a checksum the SDK computed while sending).
function decodeAwsChunked(buf) {
  const parts = [];
  const trailers = {};
  let at = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) throw new Error('aws-chunked body ends inside a chunk header');
    const size = parseInt(buf.toString('latin1', at, eol).split(';')[0], 16);
    at = eol + 2;
    if (!size) break;
    parts.push(buf.subarray(at, at + size));
    at += size + 2;
  }
  for (const line of buf.toString('latin1', at).split('\r\n')) {
    const c = line.indexOf(':');
    if (c > 0) trailers[line.slice(0, c).trim().toLowerCase()] = line.slice(c + 1).trim();
  }
  return { data: Buffer.concat(parts), trailers };
}

// A request's body and its headers with any trailers of an aws-chunked body folded in.
async function readRequest(req) {
  const raw = await readBody(req);
  const sha = req.headers['x-amz-content-sha256'] || '';
  const chunked = /aws-chunked/.test(req.headers['content-encoding'] || '') || sha.startsWith('STREAMING-');
  if (!chunked) return { body: raw, headers: req.headers };
  const { data, trailers } = decodeAwsChunked(raw);
  return { body: data, headers: { ...req.headers, ...trailers } };
}

function sendXml(res, status, body = '', headers = {}) {
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

function sendError(res, status, code, message = code) {
  sendXml(res, status, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${xmlEsc(message)}</Message></Error>`);
}

module.exports = { xmlEsc, xmlUnesc, urlEnc, utf8Cmp, readBody, readRequest, decodeAwsChunked, sendXml, sendError };
