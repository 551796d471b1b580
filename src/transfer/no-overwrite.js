'use strict';
// --no-overwrite: every write that creates the target object (PutObject, CopyObject,
// CompleteMultipartUpload) carries If-None-Match: *, and is sent only by a request type the
// server was seen to honour it on. Each type is probed once, lazily, the first time an object
// needs it (the store's conditionalWrites probe, on an object of our own); where one is
// ignored, the object goes another way that keeps the condition (a copy through this
// process with PutObject, or a multipart upload completed with If-None-Match), said once;
// where none can, the run refuses (exit 4) before it writes anything.
const { SafetyError, ObjectError } = require('../errors');
const { MAX_SINGLE_COPY } = require('./part-layout');
const { NAMES } = require('../stores/conditional-probe');

// The transfer functions are required when routed to, not at load (server-copy and
// stream-copy require modules that require the copier's siblings).
const serverCopy = () => require('./server-copy');
const streamCopy = () => require('./stream-copy').streamCopy;
const upload = () => require('./upload').upload;

class WriteGuard {
  /** @param o {dst (the target store), prefix (where the probe object may go), signal, notice(message, tag)} */
  constructor({ dst, prefix = '', signal, notice }) {
    this.dst = dst;
    this.prefix = prefix;
    this.signal = signal;
    this.notice = notice || (() => {});
    this.answers = new Map(); // type -> Promise<{honoured, detail}>
  }

  // Whether the server honours If-None-Match: * on this request type (probed once).
  async ok(type) {
    if (!this.answers.has(type)) {
      this.answers.set(type, this.dst.conditionalWrites(type, { prefix: this.prefix, signal: this.signal }).then((r) => {
        if (r.honoured !== true) {
          const what = r.honoured === false ? 'ignores' : 'may not honour';
          this.notice(`the server ${what} If-None-Match on ${NAMES[type]} (${r.detail}): --no-overwrite writes go by another request there`, `no-overwrite-${type}`);
        }
        return r;
      }));
    }
    return (await this.answers.get(type)).honoured === true;
  }

  // Refuses the run where no request type this kind of transfer can use keeps the condition
  // (nothing was written yet: every write waits for its type's probe), else fails the one
  // object that none of them fits.
  async _none(job, candidates) {
    const types = [...new Set(candidates.map((c) => c.type))];
    const honoured = await Promise.all(types.map((t) => this.ok(t)));
    if (!honoured.some(Boolean)) {
      const details = await Promise.all(types.map(async (t) => `${NAMES[t]}: ${(await this.answers.get(t)).detail}`));
      throw new SafetyError(`the server does not honour If-None-Match on ${types.map((t) => NAMES[t]).join(' or ')} (${details.join('; ')}): --no-overwrite cannot keep existing objects safe there, nothing was written`);
    }
    const ignored = types.filter((t, i) => !honoured[i]).map((t) => NAMES[t]);
    throw new ObjectError('failed', `not written (--no-overwrite): the server ignores If-None-Match on ${ignored.join(' and ')}, and the request it honours cannot write an object of ${job.item.Size} bytes`);
  }

  /**
   * The transfer function for this job (base: the one the run would use), each candidate
   * in order of preference, the first whose request type the server honours.
   */
  async route(job, base) {
    const size = job.item.Size;
    const large = size > job.largeCopyThreshold;
    const fitsOne = size <= MAX_SINGLE_COPY;
    let candidates;
    if (base === serverCopy().serverCopy) {
      const sc = serverCopy();
      const multipart = { type: 'complete', fits: true, run: (j) => sc.copyMultipart(j) };
      const copy = { type: 'copy', fits: fitsOne, run: (j) => sc.copySmall(j) };
      const put = { type: 'put', fits: fitsOne, run: (j) => streamCopy()({ ...j, split: 'whole' }) };
      if (sc.keepsLayout(job.item, job)) candidates = [multipart, copy, put];
      else candidates = large ? [copy, multipart, put] : [copy, put, multipart];
    } else if (base === streamCopy() || base === upload()) {
      // An upload's PutObject reads the file into memory: past the threshold, parts only.
      const whole = { type: 'put', fits: base === upload() ? !large : fitsOne, run: (j) => base({ ...j, split: 'whole' }) };
      const parts = { type: 'complete', fits: size > 0, run: (j) => base({ ...j, split: 'parts' }) };
      candidates = large ? [parts, whole] : [whole, parts];
    } else {
      return base;
    }
    for (const c of candidates) {
      if (c.fits && await this.ok(c.type)) return c.run;
    }
    return this._none(job, candidates);
  }
}

module.exports = { WriteGuard };
