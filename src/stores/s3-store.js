'use strict';
// An S3 bucket as a store: the one place that talks to S3. It lists a page, and heads,
// reads, writes, copies and deletes objects, each method an S3 request with this bucket
// (and its request-payer setting) filled in. Keys are asked for with EncodingType=url so
// every UTF-8 key survives XML, and decoded so only where the answer says it was done.
const {
  ListObjectsV2Command, HeadBucketCommand, ListBucketsCommand, HeadObjectCommand, GetObjectCommand,
  GetObjectTaggingCommand, PutObjectCommand, CopyObjectCommand, RenameObjectCommand, CreateMultipartUploadCommand, UploadPartCommand,
  UploadPartCopyCommand, CompleteMultipartUploadCommand, AbortMultipartUploadCommand, ListMultipartUploadsCommand,
  DeleteObjectsCommand, ListPartsCommand, CreateBucketCommand, DeleteBucketCommand, DeleteObjectCommand, ListObjectVersionsCommand,
} = require('@aws-sdk/client-s3');
const { createS3Client, endpointFromEnv } = require('./s3-client');
const { describeS3Error, httpStatus, errorCode, isThrottle, withConditionHint, CONDITION_HINTS, Throttled } = require('./s3-errors');
const { FatalError, ObjectError } = require('../errors');
const { DEFAULTS } = require('../options');

const ABORT_ATTEMPTS = 3;
const ABORT_TIMEOUT_MS = 30000;
const { LeanRequests, FallBack } = require('./lean-requests');
const { LeanObjects } = require('./lean-objects');
const { decodeUrlKey, PageError } = require('./list-parser');
const { readFilePart, openFileSink, checkReceived, takeBody, giveBack } = require('./file-io');
const { isDirectoryBucket } = require('./directory-bucket');
const { copySource } = require('./copy-source');
const { ExpressSessions, renewExpiredSessions } = require('./express-sessions');
const { bufferChecksum, newChecksum, canCompute } = require('./content-checksum');
const { storedChecksums } = require('./stored-checksum');
const { sentChecksum } = require('./checksum-algorithms');
const { parseListObjectVersions } = require('./version-parser');
const { leanTagging } = require('./lean-tagging');
const { probeConditionalDeletes, probeConditionalWrite } = require('./conditional-probe');

// A 412 of the lean path, shaped as the SDK's error for it.
function preconditionFailed() {
  return Object.assign(new Error('At least one of the preconditions you specified did not hold'), {
    name: 'PreconditionFailed', Code: 'PreconditionFailed', $fault: 'client', $metadata: { httpStatusCode: 412 },
  });
}

// The SDK has decoded XML entities already; %-escapes only where the answer says so.
function decodeKey(k, url = true) {
  return k === undefined || !url ? k : decodeUrlKey(k);
}

// What an XML request body cannot carry as it is: C0 controls but TAB and LF, U+FFFE, U+FFFF.
const XML_UNSAFE = /[\x00-\x08\x0b-\x1f\ufffe\uffff]/;

function toItem(c, url = true) {
  return {
    Key: decodeKey(c.Key, url),
    Size: c.Size,
    LastModified: c.LastModified,
    ETag: c.ETag,
    StorageClass: c.StorageClass || 'STANDARD',
  };
}

class S3Store {
  /** @param o {bucket, region, endpointUrl, profile, forcePathStyle, requestPayer, maxSockets, fastPaths, requestThread, requestThreads, stats, client} */
  constructor(o) {
    this.type = 's3';
    this.delimiters = true; // listPage takes a delimiter and returns folders as prefixes
    this.bucket = o.bucket;
    // A directory bucket (S3 Express One Zone) lists in no key order and without StartAfter
    // (list/directory-lister.js), and wants session authentication: its listing's lean path
    // signs with the SDK's sessions (leanList below); its other requests go by the SDK.
    this.options = o;
    this.requestPayer = o.requestPayer;
    const endpointUrl = o.endpointUrl || endpointFromEnv(process.env, o.profile);
    this.directoryBucket = isDirectoryBucket(o.bucket, endpointUrl);
    this.endpoint = endpointUrl || 'AWS S3';
    this.stats = o.stats;
    this.throttleListeners = new Set();
    this.client = this._watch(o.client || createS3Client({ ...o, maxSockets: o.maxSockets }));
    this.opened = null;
    const fast = o.fastPaths ?? DEFAULTS.fastPaths;
    this.lean = !fast || o.client || this.directoryBucket ? null : new LeanRequests({
      bucket: o.bucket, endpointUrl, forcePathStyle: o.forcePathStyle, requestPayer: o.requestPayer, anonymous: Boolean(o.noSignRequest),
      maxSockets: o.maxSockets, requestThread: o.requestThread, requestThreads: o.requestThreads, stats: o.stats, client: () => this.client,
    });
    this.leanObjects = this.lean && new LeanObjects(this.lean);
    // A directory bucket's listing takes the lean path too, signed with its sessions, and so
    // does its CopyObject, signed as the SDK signs it there (the caller's keys, no session:
    // the source may be another bucket's). Its other object requests stay the SDK's.
    const leanDirectory = (more) => new LeanRequests({
      bucket: o.bucket, endpointUrl, forcePathStyle: o.forcePathStyle, requestPayer: o.requestPayer, maxSockets: o.maxSockets,
      requestThread: o.requestThread, requestThreads: o.requestThreads, stats: o.stats, client: () => this.client, ...more,
    });
    this.leanList = this.lean || (this.sessions && fast ? leanDirectory({ express: () => this.sessions }) : null);
    this.leanCopy = this.lean || (this.directoryBucket && fast && !o.client && !o.noSignRequest ? leanDirectory({ directory: true }) : null);
    // A copier that paces its requests per prefix sets this: a throttled object request on
    // the lean path is then thrown to it (Throttled) instead of being sent again through the
    // SDK at once, which would only add to the load the store just pushed back on.
    this.throttleToCaller = false;
  }

  // Sees every attempt, inside the SDK's retries, to count throttling and tell listeners
  // which key it was for.
  _watch(client) {
    const sessions = client.config && client.config.s3ExpressIdentityProvider;
    if (this.directoryBucket && sessions instanceof ExpressSessions) {
      const onExpired = () => { if (this.stats) this.stats.expiredSessions++; };
      renewExpiredSessions(client, sessions, this.bucket, onExpired);
      this.sessions = sessions;
    }
    client.middlewareStack.add((next) => async (args) => {
      try {
        return await next(args);
      } catch (err) {
        if (isThrottle(err)) this._throttled(err, args.input && args.input.Key);
        throw err;
      }
    }, { step: 'deserialize', name: 's3blitzThrottleWatch', priority: 'high' });
    return client;
  }

  /** fn(err, key): every throttled request (key undefined for bucket-level ones). */
  onThrottle(fn) { this.throttleListeners.add(fn); }

  _throttled(err, key) {
    if (this.stats) this.stats.throttles++;
    for (const fn of this.throttleListeners) fn(err, key);
  }

  // Checks the bucket once, and follows it to its own region if it lives elsewhere.
  open() {
    if (!this.opened) this.opened = this._open();
    return this.opened;
  }

  async _open() {
    try {
      const out = await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      if (out.BucketRegion) await this._useRegion(out.BucketRegion);
    } catch (err) {
      const status = httpStatus(err);
      const hinted = err.$response && err.$response.headers && err.$response.headers['x-amz-bucket-region'];
      if ((status === 301 || status === 400 || errorCode(err) === 'PermanentRedirect') && hinted) {
        await this._useRegion(hinted);
        return;
      }
      if (status === 403 || status === 400) {
        // HeadBucket has no body; a one-key listing says whether the key or the bucket is the problem.
        await this.listPage({ prefix: '', maxKeys: 1 });
        return;
      }
      if (status === 404) await this._missingBucket();
      throw describeS3Error(err, { bucket: this.bucket, endpoint: this.endpoint, op: 'HeadBucket' });
    }
  }

  // A HeadBucket answered 404, which has no body to say why: S3 names a missing bucket in a
  // listing's error (NoSuchBucket); an endpoint that is no S3 (a web server, a wrong path or
  // port) answers a bare 404 to both, and is not reported as a missing bucket.
  async _missingBucket() {
    let err;
    try {
      if (this.stats) this.stats.listRequests++;
      await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, MaxKeys: 1 }));
      return; // listed after all: the HEAD's 404 said nothing
    } catch (e) { err = e; }
    if (errorCode(err) !== 'NoSuchBucket' && httpStatus(err) === 404) {
      throw new FatalError(`${this.endpoint || 'the endpoint'} answered HTTP 404 with no S3 error to both HeadBucket and ListObjectsV2 of bucket ${JSON.stringify(this.bucket)}: is it an S3 endpoint (check --endpoint-url, and --path-style or --no-path-style)?`, { cause: err });
    }
    throw describeS3Error(err, { bucket: this.bucket, endpoint: this.endpoint, op: 'ListObjectsV2' });
  }

  async _useRegion(region) {
    const current = await this.client.config.region();
    if (region && region !== current && !this.options.endpointUrl && !endpointFromEnv(process.env, this.options.profile)) {
      this.client = this._watch(createS3Client({ ...this.options, region }));
    }
  }

  // The lean path first; the SDK whenever it cannot answer with a page (errors, throttling,
  // redirects, network trouble), so the SDK's retries and messages apply.
  async listPage(args) {
    try {
      if (this.leanList) {
        try {
          return await this.leanList.listPage(args);
        } catch (err) {
          this._fellBack(err);
        }
      }
      return await this._sdkListPage(args);
    } catch (err) {
      if (!(err instanceof PageError)) throw err;
      throw new FatalError(`a list page of bucket ${JSON.stringify(this.bucket)} cannot be read (${describePage(args)}): ${err.message}`);
    }
  }

  // A lean request that could not answer: counted, throttling reported, then the SDK retries
  // (a throttled object request goes back to its caller instead, where throttleToCaller).
  _fellBack(err, key) {
    if (!(err instanceof FallBack)) throw err;
    // A failed precondition is the answer, whichever path asks: sending it again through the
    // SDK (a file read and uploaded once more) would only be told the same.
    if (err.status === 412) throw preconditionFailed();
    const throttled = err.status === 503 || err.status === 429;
    if (throttled && this.throttleToCaller && key !== undefined) {
      if (this.stats) this.stats.throttles++;
      throw new Throttled(err.status, key);
    }
    if (this.stats) this.stats.retries++;
    if (throttled) this._throttled(err);
  }

  async _sdkListPage({ prefix, startAfter, continuationToken, maxKeys, delimiter, signal }) {
    let out;
    try {
      out = await this.client.send(new ListObjectsV2Command({
        Bucket: this.bucket,
        Prefix: prefix || undefined,
        StartAfter: continuationToken ? undefined : startAfter || undefined,
        ContinuationToken: continuationToken,
        MaxKeys: maxKeys,
        Delimiter: delimiter || undefined,
        EncodingType: 'url',
        RequestPayer: this.requestPayer,
      }), { abortSignal: signal });
    } catch (err) {
      throw describeS3Error(err, { bucket: this.bucket, endpoint: this.endpoint, op: 'ListObjectsV2' });
    }
    if (this.stats && out.$metadata && out.$metadata.attempts > 1) this.stats.retries += out.$metadata.attempts - 1;
    const contents = out.Contents || [];
    const url = String(out.EncodingType || '').toLowerCase() === 'url';
    const items = new Array(contents.length);
    for (let i = 0; i < contents.length; i++) items[i] = toItem(contents[i], url);
    const prefixes = out.CommonPrefixes ? out.CommonPrefixes.map((c) => decodeKey(c.Prefix, url)) : undefined;
    return { items, prefixes, truncated: Boolean(out.IsTruncated), nextToken: out.NextContinuationToken };
  }

  // One ListObjectVersions page ({prefix, keyMarker, versionIdMarker, maxKeys, delimiter,
  // signal}), read in the answer's own order (version-parser.js): the lean path, else the
  // SDK, whose raw answer is kept for the same parser (its two arrays lose the order).
  async listVersionsPage(args) {
    try {
      if (this.lean) {
        try {
          const query = [['versions', ''], ['encoding-type', 'url']];
          if (args.prefix) query.push(['prefix', args.prefix]);
          if (args.delimiter) query.push(['delimiter', args.delimiter]);
          if (args.keyMarker) query.push(['key-marker', args.keyMarker]);
          if (args.keyMarker && args.versionIdMarker) query.push(['version-id-marker', args.versionIdMarker]);
          if (args.maxKeys) query.push(['max-keys', String(args.maxKeys)]);
          const res = await this.lean.request('GET', null, query, this.requestPayer ? { 'x-amz-request-payer': 'requester' } : {}, { signal: args.signal });
          return parseListObjectVersions(res.body, { folders: Boolean(args.delimiter) });
        } catch (err) {
          if (err instanceof PageError) throw err;
          this._fellBack(err);
        }
      }
      return await this._sdkListVersions(args);
    } catch (err) {
      if (!(err instanceof PageError)) throw err;
      throw new FatalError(`a version list page of bucket ${JSON.stringify(this.bucket)} cannot be read (${describePage({ ...args, startAfter: args.keyMarker })}): ${err.message}`);
    }
  }

  async _sdkListVersions({ prefix, keyMarker, versionIdMarker, maxKeys, delimiter, signal }) {
    const cmd = new ListObjectVersionsCommand({
      Bucket: this.bucket, Prefix: prefix || undefined, KeyMarker: keyMarker || undefined,
      VersionIdMarker: keyMarker && versionIdMarker ? versionIdMarker : undefined, MaxKeys: maxKeys,
      Delimiter: delimiter || undefined, EncodingType: 'url', RequestPayer: this.requestPayer,
    });
    let raw = null;
    // Inside the deserializer, per attempt: the body of a 200 is read here and handed on.
    cmd.middlewareStack.add((next) => async (a) => {
      const r = await next(a);
      const res = r.response;
      if (res && res.statusCode === 200 && res.body && typeof res.body.on === 'function') {
        const parts = [];
        for await (const c of res.body) parts.push(c);
        raw = Buffer.concat(parts);
        res.body = raw;
      }
      return r;
    }, { step: 'deserialize', priority: 'low', name: 's3blitzRawVersions' });
    let out;
    try {
      out = await this.client.send(cmd, { abortSignal: signal });
    } catch (err) {
      throw describeS3Error(err, { bucket: this.bucket, endpoint: this.endpoint, op: 'ListObjectVersions' });
    }
    if (this.stats && out.$metadata && out.$metadata.attempts > 1) this.stats.retries += out.$metadata.attempts - 1;
    if (!raw) throw new FatalError('the ListObjectVersions answer could not be read in its own order (no raw answer from the SDK client)');
    return parseListObjectVersions(raw, { folders: Boolean(delimiter) });
  }

  // Object requests: S3 API parameters without Bucket; the SDK's answer. Their callers
  // count them; stat, readStream and deleteKeys (which every store has) count their own.
  _send(Command, params, signal) {
    return this.client.send(new Command({ Bucket: this.bucket, RequestPayer: this.requestPayer, ...params }), signal ? { abortSignal: signal } : undefined);
  }

  // The lean path's answer where it has one (see lean-objects.js), else the SDK's.
  async _leanOr(method, Command, params, signal) {
    if (this.leanObjects && !params.Bucket) {
      try {
        return await this.leanObjects[method]({ RequestPayer: this.requestPayer, ...params }, signal);
      } catch (err) {
        this._fellBack(err, params.Key);
      }
    }
    return this._send(Command, params, signal);
  }

  headObject(params, signal) { return this._leanOr('headObject', HeadObjectCommand, params, signal); }
  // RenameObject (directory buckets): {Key (the new key), From (the key renamed), SourceIfMatch,
  // IfNoneMatch, ClientToken}.
  renameObject({ Key, From, SourceIfMatch, IfNoneMatch, ClientToken }, signal) {
    return this._send(RenameObjectCommand, {
      Key, RenameSource: `/${copySource(this.bucket, From)}`, SourceIfMatch, DestinationIfNoneMatch: IfNoneMatch, ClientToken,
    }, signal);
  }

  getObject(params, signal) { return this._send(GetObjectCommand, params, signal); }
  // A small object's bytes as one Buffer (Body), with GetObject's other output fields.
  async getSmallObject(params, signal) {
    const out = await this._leanOr('getObject', GetObjectCommand, params, signal);
    if (Buffer.isBuffer(out.Body)) return out;
    return { ...out, Body: Buffer.from(await out.Body.transformToByteArray()) };
  }
  async getObjectTagging(params, signal) {
    if (this.lean && !params.Bucket) {
      try {
        return await leanTagging(this.lean, { RequestPayer: this.requestPayer, ...params }, signal);
      } catch (err) {
        this._fellBack(err);
      }
    }
    return this._send(GetObjectTaggingCommand, params, signal);
  }
  putObject(params, signal) {
    // Only a buffered body with its MD5 takes the lean path; streams go to the SDK.
    const sent = !Buffer.isBuffer(params.Body) || !params.ContentMD5 ? this._send(PutObjectCommand, params, signal) : this._leanOr('putObject', PutObjectCommand, params, signal);
    return unconditionalWrite(sent, params);
  }
  /**
   * A file's bytes as an object, or as one part of a multipart upload (params with UploadId
   * and PartNumber): read once, sent with their MD5 (file-io.js readFilePart spec: path,
   * position, length, expect) and, with file.checksum (an algorithm), their checksum. Resolves
   * to {ETag, bytes, checksum (the value sent), Checksum<algorithm> (the server's answer)}; a
   * file that changes while it is read throws FileChanged.
   */
  putObjectFromFile(params, file, signal) {
    const sent = this._putObjectFromFile(params, file, signal);
    return params.UploadId === undefined ? unconditionalWrite(sent, params) : sent; // a part is no write of the object
  }

  async _putObjectFromFile(params, file, signal) {
    if (this.leanObjects && !params.Bucket) {
      try {
        return await this.leanObjects.putFile({ RequestPayer: this.requestPayer, ...params }, file, signal);
      } catch (err) {
        this._fellBack(err, params.Key);
      }
    }
    // A part's body comes from, and goes back to, the pool the request thread's parts use
    // (file-io.js takeBody), so a part that falls back here holds no memory of its own.
    const part = params.UploadId !== undefined;
    const { body, md5 } = part ? readFilePart(file, takeBody) : readFilePart(file);
    try {
      const checksum = file.checksum ? await bufferChecksum(body, file.checksum) : undefined;
      const sent = sentChecksum(file.checksum, checksum);
      const out = await this._send(part ? UploadPartCommand : PutObjectCommand, { ...params, ...sent, Body: body, ContentLength: body.length, ContentMD5: md5 }, signal);
      return { ...out, ETag: out.ETag, bytes: body.length, checksum };
    } finally {
      if (part) giveBack(body); // the request is over: nothing reads the body now
    }
  }

  /**
   * An object, or a range of it, written to a file as it arrives (file-io.js fileSink spec:
   * {fd, position} or {tmp, final, mtime}, and length, the bytes expected; checksum: 'stored'
   * checks a whole object's bytes against the answer's full-object checksum before the file
   * gets its name, an algorithm hashes a range's). Resolves to GetObject's output fields with
   * bytes and checksum (the value computed; undefined where nothing was checked). A mismatch
   * throws ChecksumMismatch and leaves no file.
   */
  async getObjectToFile(params, file, signal) {
    if (this.leanObjects && !params.Bucket) {
      try {
        return await this.leanObjects.getToFile({ RequestPayer: this.requestPayer, ...params }, file, signal);
      } catch (err) {
        this._fellBack(err, params.Key);
      }
    }
    const out = await this._send(GetObjectCommand, params, signal);
    const sink = await openFileSink(file);
    // As file-io.js's receivedChecksum does on the lean path.
    const want = file.checksum === 'stored' ? storedChecksums(out).find((c) => c.full && canCompute(c.algorithm)) : null;
    const hash = want ? newChecksum(want.algorithm) : file.checksum && file.checksum !== 'stored' ? newChecksum(file.checksum) : null;
    let bytes = 0, checksum;
    try {
      for await (const chunk of out.Body) {
        if (hash) hash.update(chunk);
        sink.sink(chunk, bytes);
        bytes += chunk.length;
      }
      if (hash) checksum = (await hash.digest()).toString('base64');
      checkReceived(want, checksum);
      sink.finish(bytes);
    } catch (err) {
      if (out.Body.destroy) out.Body.destroy();
      sink.abort();
      throw err;
    }
    return { ...out, Body: undefined, bytes, checksum };
  }

  createMultipartUpload(params, signal) { return this._leanOr('createMultipartUpload', CreateMultipartUploadCommand, params, signal); }
  uploadPart(params, signal) { return this._send(UploadPartCommand, params, signal); }
  uploadPartCopy(params, signal) { return this._leanOr('uploadPartCopy', UploadPartCopyCommand, params, signal); }
  completeMultipartUpload(params, signal) { return unconditionalWrite(this._leanOr('completeMultipartUpload', CompleteMultipartUploadCommand, params, signal), params); }
  listMultipartUploads(params, signal) { return this._send(ListMultipartUploadsCommand, params, signal); }

  // A page of the multipart uploads in progress under a prefix, after a marker:
  // {uploads: [{Key, UploadId, Initiated, StorageClass}], truncated, keyMarker, uploadIdMarker}.
  async listUploads({ prefix, keyMarker, uploadIdMarker, signal } = {}) {
    if (this.stats) this.stats.count('LIST_UPLOADS');
    const out = await this._send(ListMultipartUploadsCommand, { Prefix: prefix || undefined, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker, EncodingType: 'url' }, signal);
    const url = out.EncodingType === 'url';
    return {
      uploads: (out.Uploads || []).map((u) => ({ Key: decodeKey(u.Key, url), UploadId: u.UploadId, Initiated: u.Initiated, StorageClass: u.StorageClass || 'STANDARD' })),
      truncated: Boolean(out.IsTruncated),
      keyMarker: decodeKey(out.NextKeyMarker, url),
      uploadIdMarker: out.NextUploadIdMarker,
    };
  }

  // A page of an upload's parts: {parts: [{PartNumber, Size}], truncated, partNumberMarker}.
  async listParts({ key, uploadId, partNumberMarker, signal }) {
    if (this.stats) this.stats.count('LIST_PARTS');
    const out = await this._send(ListPartsCommand, { Key: key, UploadId: uploadId, PartNumberMarker: partNumberMarker }, signal);
    return {
      parts: (out.Parts || []).map((p) => ({ PartNumber: p.PartNumber, Size: p.Size })),
      truncated: Boolean(out.IsTruncated),
      partNumberMarker: out.NextPartNumberMarker,
    };
  }

  // CopyObject: the lean path (one signed PUT, no SDK middleware) unless the headers are
  // replaced; anything unusual goes to the SDK. The answer is the new object's ETag.
  copyObject(params, signal) { return unconditionalWrite(this._copyObject(params, signal), params); }

  async _copyObject(params, signal) {
    const p = { Bucket: this.bucket, RequestPayer: this.requestPayer, ...params };
    if (this.leanCopy && p.MetadataDirective !== 'REPLACE') {
      try {
        return await this.leanCopy.copyObject(p, signal);
      } catch (err) {
        this._fellBack(err, p.Key);
      }
    }
    const out = await this.client.send(new CopyObjectCommand(p), { abortSignal: signal });
    // A 200 whose body is an error has no result; the SDK throws for most, check the rest.
    if (!out.CopyObjectResult || !out.CopyObjectResult.ETag) throw new ObjectError('failed', 'CopyObject answered without a result');
    return out.CopyObjectResult.ETag;
  }

  // Aborting a multipart upload, the one way every path does it: a few attempts, each with
  // its own timeout and never under the run's signal (a cancelled run must still clean up);
  // an upload already gone counts as aborted. Resolves to null, or the last error.
  async abortUpload({ key, uploadId, bucket = this.bucket }, stats) {
    let last = null;
    for (let attempt = 0; attempt < ABORT_ATTEMPTS; attempt++) {
      try {
        if (stats) stats.count('DELETE');
        await this._send(AbortMultipartUploadCommand, { Bucket: bucket, Key: key, UploadId: uploadId }, AbortSignal.timeout(ABORT_TIMEOUT_MS));
        return null;
      } catch (err) {
        if (errorCode(err) === 'NoSuchUpload') return null;
        last = err;
      }
    }
    return last;
  }

  // Deletes up to 1000 keys in one request (strings, or {key, etag}: only while its ETag is
  // still the listed one); the keys it could not delete, with S3's reasons and codes.
  // eachAlone: one DeleteObject a key (a batch the server refused as a whole).
  async deleteKeys(keys, signal, { eachAlone = false } = {}) {
    const errors = await this.deleteVersions(keys.map((k) => (typeof k === 'string' ? { Key: k } : { Key: k.key, ETag: k.etag || undefined })), signal, { eachAlone });
    return errors.map(({ key, reason, code }) => ({ key, reason, code }));
  }

  // Deletes up to 1000 versions ({Key, VersionId} or {Key, ETag}; without either, the key) in
  // one request; those it could not delete, with S3's reasons and codes (PreconditionFailed:
  // the key has another ETag now; NoSuchKey: gone, where an ETag was sent). A key that an XML
  // request body cannot carry as it is (control characters, U+FFFE, U+FFFF: XML 1.0 refuses
  // most of them and turns CR into LF) is deleted by its own DeleteObject, which names it in
  // the URL (and its ETag in If-Match).
  async deleteVersions(versions, signal, { eachAlone = false } = {}) {
    const inXml = [], alone = [];
    for (const v of versions) (eachAlone || XML_UNSAFE.test(v.Key) ? alone : inXml).push(v);
    const errors = [];
    if (inXml.length) {
      if (this.stats) this.stats.count('DELETE');
      const Objects = inXml.map((v) => (v.VersionId !== undefined ? { Key: v.Key, VersionId: v.VersionId } : v.ETag ? { Key: v.Key, ETag: v.ETag } : { Key: v.Key }));
      // Sent without ETags (nor version ids): an AccessDenied may be a policy that requires them.
      const bare = Objects.every((o) => o.ETag === undefined && o.VersionId === undefined);
      const out = await this._send(DeleteObjectsCommand, { Delete: { Objects, Quiet: true } }, signal).catch((err) => { throw bare ? withConditionHint(err, 'delete') : err; });
      const conditional = new Set(Objects.filter((o) => o.ETag !== undefined).map((o) => o.Key));
      for (const e of out.Errors || []) {
        const hint = e.Code === 'AccessDenied' && !conditional.has(e.Key) && e.VersionId === undefined ? `: ${CONDITION_HINTS.delete}` : '';
        errors.push({ key: e.Key, versionId: e.VersionId, code: e.Code, reason: `${e.Code} ${e.Message || ''}`.trim() + hint });
      }
    }
    for (const v of alone) {
      try {
        if (this.stats) this.stats.count('DELETE');
        await this._send(DeleteObjectCommand, { Key: v.Key, VersionId: v.VersionId, IfMatch: v.VersionId === undefined ? v.ETag : undefined }, signal);
      } catch (err) {
        const status = httpStatus(err), code = errorCode(err);
        const conditional = v.VersionId === undefined && Boolean(v.ETag);
        if (status === 404 && code !== 'NoSuchBucket') { // already gone
          if (conditional) errors.push({ key: v.Key, code: 'NoSuchKey', reason: 'NoSuchKey' });
          continue;
        }
        if (conditional && (status === 412 || status === 409)) {
          errors.push({ key: v.Key, code: status === 412 ? 'PreconditionFailed' : 'ConditionalRequestConflict', reason: `${code} (HTTP ${status})` });
          continue;
        }
        if (status === undefined || isThrottle(err) || code === 'NoSuchBucket') throw err;
        const described = v.VersionId === undefined && !v.ETag ? withConditionHint(err, 'delete') : err;
        errors.push({ key: v.Key, versionId: v.VersionId, code, reason: describeS3Error(described, { bucket: this.bucket, key: v.Key }).message });
      }
    }
    return errors;
  }

  /**
   * Whether this server honours the ETag of a conditional delete (DeleteObjects naming a key
   * with its ETag), asked once per store: {supported: true|false|null (could not tell), detail}.
   * A DeleteObjects of a random key that does not exist, with an ETag, is answered with an
   * error by a server that checks it (NoSuchKey, or PreconditionFailed); one that reports it
   * deleted either ignores ETags or takes a missing key as deleted (s3proxy), so a probe object
   * of our own then settles it: a delete with a wrong ETag must fail. prefix: where the run may
   * write and delete. Delete markers and versions the probe leaves are removed by version id.
   */
  conditionalDeletes({ prefix = '', signal } = {}) {
    if (!this.deleteProbe) this.deleteProbe = probeConditionalDeletes(this, prefix, signal);
    return this.deleteProbe;
  }

  /**
   * Whether this server honours If-None-Match: * on one request type ('put', 'copy',
   * 'complete'), measured once per store on a probe object of our own (conditional-probe.js):
   * {honoured: true | false | null (could not tell), detail}.
   */
  conditionalWrites(type, { prefix = '', signal } = {}) {
    this.writeProbes ??= new Map();
    if (!this.writeProbes.has(type)) this.writeProbes.set(type, probeConditionalWrite(this, type, prefix, signal));
    return this.writeProbes.get(type);
  }

  // Deletes one key without a version: a delete marker where versioning is on.
  async deleteObject(key, signal) {
    if (this.stats) this.stats.count('DELETE');
    const out = await this._send(DeleteObjectCommand, { Key: key }, signal);
    return { versionId: out.VersionId, deleteMarker: Boolean(out.DeleteMarker) };
  }

  // HeadObject through the SDK, every field it answers (head), with the object's tags when
  // asked; of one version with versionId. Keys as the SDK names them, without its request metadata.
  async describeObject(key, { tags = false, versionId, signal } = {}) {
    if (this.stats) this.stats.count('HEAD');
    const { $metadata, ...head } = await this._send(HeadObjectCommand, { Key: key, VersionId: versionId }, signal);
    const out = { Bucket: this.bucket, Key: key, ...head };
    if (tags) {
      if (this.stats) this.stats.count('GET');
      const t = await this._send(GetObjectTaggingCommand, { Key: key, VersionId: versionId }, signal);
      out.Tags = Object.fromEntries((t.TagSet || []).map((x) => [x.Key, x.Value]));
    }
    return out;
  }

  // The bucket itself (mb, rb). A region other than us-east-1 is named in the request, as S3 wants.
  async createBucket({ signal } = {}) {
    const region = await this.client.config.region();
    if (this.stats) this.stats.count('PUT');
    const params = { Bucket: this.bucket };
    if (region && region !== 'us-east-1' && !this.options.endpointUrl) params.CreateBucketConfiguration = { LocationConstraint: region };
    await this.client.send(new CreateBucketCommand(params), signal ? { abortSignal: signal } : undefined);
  }

  async deleteBucket({ signal } = {}) {
    if (this.stats) this.stats.count('DELETE');
    await this.client.send(new DeleteBucketCommand({ Bucket: this.bucket }), signal ? { abortSignal: signal } : undefined);
  }

  /**
   * A presigned URL for one object (presign): GET (of versionId) or PUT, valid expiresIn
   * seconds, signed offline by the SDK's presigner with this store's client (its endpoint,
   * addressing style, region and credentials).
   */
  async presignedUrl(method, key, { expiresIn, versionId } = {}) {
    const { getSignedUrl } = require('@aws-sdk/s3-request-presigner'); // loaded here: only presign needs it
    const params = { Bucket: this.bucket, Key: key };
    const command = method === 'put' ? new PutObjectCommand(params) : new GetObjectCommand({ ...params, VersionId: versionId });
    return getSignedUrl(this.client, command, { expiresIn });
  }

  // The object as it is now, as a listed item; null when it is gone.
  async stat(key, signal) {
    try {
      if (this.stats) this.stats.count('HEAD');
      const head = await this.headObject({ Key: key }, signal);
      return { Key: key, Size: head.ContentLength, ETag: head.ETag, LastModified: head.LastModified, StorageClass: head.StorageClass || 'STANDARD' };
    } catch (err) {
      const code = errorCode(err);
      if (code === 'NoSuchKey' || (httpStatus(err) === 404 && code !== 'NoSuchBucket')) return null;
      throw err;
    }
  }

  // The object's bytes as a stream, pinned to the listed version by its ETag.
  async readStream(item, signal) {
    if (this.stats) this.stats.count('GET');
    const out = await this.getObject({ Key: item.Key, VersionId: item.VersionId, IfMatch: item.ETag || undefined }, signal);
    return out.Body;
  }

  destroy() {
    this.client.destroy();
    if (this.leanList) this.leanList.destroy();
    if (this.lean && this.lean !== this.leanList) this.lean.destroy();
    if (this.leanCopy && this.leanCopy !== this.lean) this.leanCopy.destroy();
  }
}

// A write sent without If-None-Match: an AccessDenied says what a policy requiring it wants.
function unconditionalWrite(promise, params) {
  if (params.IfNoneMatch) return promise;
  return promise.catch((err) => { throw withConditionHint(err, 'write'); });
}

// Which request a page answered, for an error a user can act on.
function describePage({ prefix, startAfter, continuationToken, delimiter }) {
  const parts = [`prefix ${JSON.stringify(prefix || '')}`];
  if (continuationToken) parts.push('a continuation');
  else if (startAfter) parts.push(`after ${JSON.stringify(startAfter)}`);
  if (delimiter) parts.push(`delimiter ${JSON.stringify(delimiter)}`);
  return parts.join(', ');
}

async function listBuckets(o = {}) {
  const client = createS3Client(o);
  try {
    const out = await client.send(new ListBucketsCommand({}));
    return (out.Buckets || []).map((b) => ({ Name: b.Name, CreationDate: b.CreationDate, BucketRegion: b.BucketRegion }));
  } catch (err) {
    throw describeS3Error(err, { endpoint: o.endpointUrl || endpointFromEnv(process.env, o.profile), op: 'ListBuckets' });
  } finally {
    client.destroy();
  }
}

module.exports = { S3Store, listBuckets, decodeKey, toItem, isThrottle };
