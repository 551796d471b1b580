'use strict';
// S3 object requests on the lean path, shaped as the SDK's commands take and answer them:
// HeadObject, CreateMultipartUpload, UploadPartCopy, CompleteMultipartUpload, PutObject and
// GetObject of small bodies, and PutObject / UploadPart / GetObject straight from and to files. Only what maps one to one onto headers goes here; anything
// else (a header value the lean signer cannot canonicalize, an answer that is not a plain
// 2xx with the expected XML) throws FallBack so the SDK does it, with its retries and errors.
const { FallBack } = require('./http-pool');
const { sha256Hex } = require('./sigv4');
const { TABLE: CHECKSUM_ALGORITHMS, checksumFieldsOfHeaders } = require('./checksum-algorithms');

const WRITE_HEADERS = [
  ['ContentType', 'content-type'], ['CacheControl', 'cache-control'], ['ContentDisposition', 'content-disposition'],
  ['ContentEncoding', 'content-encoding'], ['ContentLanguage', 'content-language'], ['StorageClass', 'x-amz-storage-class'],
  ['ACL', 'x-amz-acl'], ['ServerSideEncryption', 'x-amz-server-side-encryption'],
  ['SSEKMSKeyId', 'x-amz-server-side-encryption-aws-kms-key-id'], ['Tagging', 'x-amz-tagging'], ['ContentMD5', 'content-md5'],
  ['IfNoneMatch', 'if-none-match'],
  // A checksum sent with the body (PutObject), or asked of a multipart upload (Create).
  ...CHECKSUM_ALGORITHMS.map((a) => [a.field, a.header]),
  ['ChecksumAlgorithm', 'x-amz-checksum-algorithm'], ['ChecksumType', 'x-amz-checksum-type'],
];
// Printable ASCII without runs of spaces: what SigV4 canonicalizes as we do (it collapses
// runs of spaces; the SDK knows that and non-ASCII rules, the lean signer does not).
const PLAIN_VALUE = /^(?:[\x21-\x7e]| (?! ))*$/;

function checked(headers) {
  for (const name in headers) {
    if (!PLAIN_VALUE.test(headers[name])) throw new FallBack(`header ${name} needs the SDK`);
  }
  return headers;
}

// The headers of a write (PutObject, CreateMultipartUpload) from its SDK parameters.
function writeHeaders(p) {
  const h = {};
  for (const [field, name] of WRITE_HEADERS) if (p[field] !== undefined && p[field] !== null) h[name] = String(p[field]);
  if (p.Expires) h.expires = new Date(p.Expires).toUTCString();
  for (const k in p.Metadata || {}) h[`x-amz-meta-${k}`] = String(p.Metadata[k]);
  if (p.RequestPayer) h['x-amz-request-payer'] = 'requester';
  return checked(h);
}

const int = (v) => (v === undefined ? undefined : Number(v));

// A body's checksum goes with the name of its algorithm, as the SDK sends it: some servers
// (moto) ignore an x-amz-checksum-* header without it.
function sdkAlgorithm(h, algorithm) {
  if (algorithm) h['x-amz-sdk-checksum-algorithm'] = algorithm;
  return h;
}

// The checksum fields of CompleteMultipartUpload's answer body.
function checksumXml(text) {
  const out = {};
  for (const tag of [...CHECKSUM_ALGORITHMS.map((a) => a.field), 'ChecksumType']) {
    const m = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(text);
    if (m) out[tag] = m[1];
  }
  return out;
}

// HeadObject's (or GetObject's) answer headers as the SDK's output fields.
function objectOutput(h) {
  const Metadata = {};
  for (const name in h) if (name.startsWith('x-amz-meta-')) Metadata[name.slice(11)] = h[name];
  return {
    ContentLength: int(h['content-length']),
    ETag: h.etag,
    LastModified: h['last-modified'] ? new Date(h['last-modified']) : undefined,
    ContentType: h['content-type'],
    ContentEncoding: h['content-encoding'],
    ContentDisposition: h['content-disposition'],
    ContentLanguage: h['content-language'],
    CacheControl: h['cache-control'],
    Expires: h.expires ? new Date(h.expires) : undefined,
    ExpiresString: h.expires,
    StorageClass: h['x-amz-storage-class'],
    ServerSideEncryption: h['x-amz-server-side-encryption'],
    SSEKMSKeyId: h['x-amz-server-side-encryption-aws-kms-key-id'],
    PartsCount: int(h['x-amz-mp-parts-count']),
    TagCount: int(h['x-amz-tagging-count']),
    ContentRange: h['content-range'],
    Metadata,
    // What a metadata scan reports (object-metadata.js).
    VersionId: h['x-amz-version-id'],
    BucketKeyEnabled: h['x-amz-server-side-encryption-bucket-key-enabled'] === undefined ? undefined : h['x-amz-server-side-encryption-bucket-key-enabled'] === 'true',
    ...checksumFieldsOfHeaders(h),
    ObjectLockMode: h['x-amz-object-lock-mode'],
    ObjectLockRetainUntilDate: h['x-amz-object-lock-retain-until-date'] ? new Date(h['x-amz-object-lock-retain-until-date']) : undefined,
    ObjectLockLegalHoldStatus: h['x-amz-object-lock-legal-hold'],
    Restore: h['x-amz-restore'], ReplicationStatus: h['x-amz-replication-status'], ArchiveStatus: h['x-amz-archive-status'],
  };
}

const ENTITIES = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };
function unescapeXml(s) {
  return s.replace(/&(quot|amp|lt|gt|apos|#(\d+)|#x([0-9a-f]+));/gi, (m, name, dec, hex) => (
    dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : ENTITIES[name.toLowerCase()]));
}

// One element's text from an XML answer; a 200 can carry an <Error>, which the SDK must see.
function xmlValue(body, tag, within) {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.indexOf('<Error>') >= 0) throw new FallBack(`${within} answered with an error`);
  const open = text.indexOf(`<${within}`);
  const m = open < 0 ? null : new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(text.slice(open));
  if (!m) throw new FallBack(`${within} answered without ${tag}`);
  return unescapeXml(m[1]);
}

// The version an object request names (every GET and HEAD must: the SDK path sends it too).
const versionQuery = (p) => (p.VersionId ? [['versionId', p.VersionId]] : []);

const escapeXml = (s) => String(s).replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);

// The object requests, over a LeanRequests (its request(method, key, query, headers, o)).
class LeanObjects {
  constructor(lean) { this.lean = lean; }

  _payer(p, h = {}) {
    if (p.RequestPayer) h['x-amz-request-payer'] = 'requester';
    return h;
  }

  async headObject(p, signal) {
    const h = this._payer(p);
    if (p.IfMatch) h['if-match'] = p.IfMatch;
    if (p.ChecksumMode) h['x-amz-checksum-mode'] = p.ChecksumMode;
    const query = p.PartNumber ? [['partNumber', String(p.PartNumber)], ...versionQuery(p)] : versionQuery(p);
    const res = await this.lean.request('HEAD', p.Key, query, checked(h), { signal });
    return objectOutput(res.headers);
  }

  async createMultipartUpload(p, signal) {
    const res = await this.lean.request('POST', p.Key, [['uploads', '']], writeHeaders({ ...p, IfNoneMatch: undefined }), { signal });
    return { UploadId: xmlValue(res.body, 'UploadId', 'InitiateMultipartUploadResult') };
  }

  async uploadPartCopy(p, signal) {
    const h = this._payer(p, { 'x-amz-copy-source': p.CopySource });
    if (p.CopySourceRange) h['x-amz-copy-source-range'] = p.CopySourceRange;
    if (p.CopySourceIfMatch) h['x-amz-copy-source-if-match'] = p.CopySourceIfMatch;
    const query = [['partNumber', String(p.PartNumber)], ['uploadId', p.UploadId]];
    const res = await this.lean.request('PUT', p.Key, query, checked(h), { signal });
    return { CopyPartResult: { ETag: xmlValue(res.body, 'ETag', 'CopyPartResult') } };
  }

  async completeMultipartUpload(p, signal) {
    let xml = '<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">';
    for (const part of p.MultipartUpload.Parts) {
      xml += `<Part><ETag>${escapeXml(part.ETag)}</ETag><PartNumber>${part.PartNumber}</PartNumber>`;
      for (const { field } of CHECKSUM_ALGORITHMS) if (part[field]) xml += `<${field}>${escapeXml(part[field])}</${field}>`;
      xml += '</Part>';
    }
    const body = Buffer.from(xml + '</CompleteMultipartUpload>');
    const h = this._payer(p, { 'content-type': 'application/xml' });
    if (p.IfNoneMatch) h['if-none-match'] = p.IfNoneMatch;
    for (const a of CHECKSUM_ALGORITHMS) if (p[a.field]) h[a.header] = p[a.field];
    if (p.ChecksumType) h['x-amz-checksum-type'] = p.ChecksumType;
    const res = await this.lean.request('POST', p.Key, [['uploadId', p.UploadId]], checked(h), { signal, body, payloadHash: sha256Hex(body) });
    return { ETag: xmlValue(res.body, 'ETag', 'CompleteMultipartUploadResult'), ...checksumXml(res.body.toString('utf8')) };
  }

  // A whole body in one PUT; its Content-MD5 (required here) is what S3 checks it by, so the
  // payload itself goes unsigned.
  async putObject(p, signal) {
    if (!p.ContentMD5 || !Buffer.isBuffer(p.Body)) throw new FallBack('PutObject without a buffered body and its MD5');
    const res = await this.lean.request('PUT', p.Key, [], sdkAlgorithm(writeHeaders({ ...p, ChecksumAlgorithm: undefined }), p.ChecksumAlgorithm), { signal, body: p.Body, payloadHash: 'UNSIGNED-PAYLOAD' });
    return { ETag: res.headers.etag, ...checksumFieldsOfHeaders(res.headers) };
  }

  // A file's bytes (spec of file-io.js readFilePart) as a PutObject, or as an UploadPart when
  // p has an UploadId, read and hashed where the request is sent: Content-MD5 (and with
  // file.checksum, an x-amz-checksum-* header) makes S3 check the body, so the payload itself
  // goes unsigned. Answers {ETag, bytes, checksum (the value sent), Checksum* (answered)}.
  async putFile(p, file, signal) {
    const part = p.UploadId !== undefined;
    const query = part ? [['partNumber', String(p.PartNumber)], ['uploadId', p.UploadId]] : [];
    const headers = sdkAlgorithm(part ? this._payer(p) : writeHeaders({ ...p, ContentMD5: undefined }), file.checksum);
    const res = await this.lean.request('PUT', p.Key, query, headers, { signal, payloadHash: 'UNSIGNED-PAYLOAD', file: { read: file } });
    if (!res.headers.etag) throw new FallBack('PUT answered without an ETag');
    return { ETag: res.headers.etag, bytes: res.bytes, checksum: res.checksum, ...checksumFieldsOfHeaders(res.headers) };
  }

  // An object (or a range of it) written to a file as it arrives (spec of file-io.js fileSink).
  // With file.checksum, the bytes are checked or hashed as they are written (file-io.js).
  async getToFile(p, file, signal) {
    const h = this._payer(p);
    if (p.IfMatch) h['if-match'] = p.IfMatch;
    if (p.Range) h.range = p.Range;
    if (p.ChecksumMode) h['x-amz-checksum-mode'] = p.ChecksumMode;
    const res = await this.lean.request('GET', p.Key, versionQuery(p), checked(h), { signal, file: { write: file } });
    return { ...objectOutput(res.headers), bytes: res.bytes, checksum: res.checksum };
  }

  // A small object read whole: its output fields and its bytes.
  async getObject(p, signal) {
    const h = this._payer(p);
    if (p.IfMatch) h['if-match'] = p.IfMatch;
    if (p.Range) h.range = p.Range;
    const res = await this.lean.request('GET', p.Key, versionQuery(p), checked(h), { signal });
    return { ...objectOutput(res.headers), Body: res.body };
  }
}

module.exports = { LeanObjects, writeHeaders, objectOutput, xmlValue, escapeXml };
