'use strict';
// Progress of a long run, as rclone shows it: objects and bytes listed, copied (or deleted),
// their rates, failures, and once the listing is complete a percentage and an ETA. A live
// line on stderr when it is a terminal (never with --quiet or when piped), redrawn on a
// timer; an onProgress callback with the same figures for library users. Anything else
// written to the terminal clears the line first (clearLine), so it never glues onto output.

function fmtInt(n) { return Math.round(n).toLocaleString('en-US'); }
function fmtTime(ms) {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return (h ? `${h}:${String(m).padStart(2, '0')}` : `${m}`) + ':' + String(r).padStart(2, '0');
}
function fmtBytes(n) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let u = 0, v = n;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return u === 0 ? `${Math.round(v)} B` : `${v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)} ${units[u]}`;
}

// The line on the terminal now, if any: output to the same terminal clears it first.
let drawn = null;

/** Clears the progress line, if one is drawn, before something else is written to the terminal. */
function clearLine() {
  if (!drawn) return;
  const p = drawn;
  drawn = null;
  p.stream.write('\r\x1b[2K');
}

// Milliseconds between redraws; S3BLITZ_PROGRESS_MS changes it (the terminal test draws often).
const INTERVAL = Number(process.env.S3BLITZ_PROGRESS_MS) || 250;

class Progress {
  /**
   * @param o {quiet, stream, onProgress, interval, label ('objects'), verb ('copied'), showLine}
   */
  constructor({ quiet = false, stream = process.stderr, onProgress, interval = INTERVAL, label = 'objects', verb = 'copied', showLine } = {}) {
    this.stream = stream;
    this.live = showLine !== undefined ? showLine : Boolean(!quiet && stream && stream.isTTY);
    this.onProgress = typeof onProgress === 'function' ? onProgress : null;
    this.interval = interval;
    this.label = label;
    this.verb = verb;
    this.items = 0; // listed (after filters)
    this.bytes = 0;
    this.otherItems = 0; // listed on the other side (compare, sync)
    this.listingComplete = false;
    this.work = null; // {objects, bytes, failed, done, doneBytes} once copies or deletes start
    this.inflight = () => 0;
    this.started = Date.now();
    this.workStarted = null;
    this.timer = null;
    this.stopped = false;
    if (this.live) this._start(); // on a terminal the line shows from the start, like rclone's
  }

  _start() {
    if (this.timer || this.stopped || (!this.live && !this.onProgress)) return;
    this.timer = setInterval(() => this.report(), this.interval);
    this.timer.unref();
  }

  /** chunk: a run of listed entries (stores/chunks.js). */
  tick(chunk) {
    this.items += chunk.length;
    this.bytes += chunk.bytes();
    this._start();
  }

  /** The other side's listing (compare and sync): counted, not part of the percentage. */
  forOtherSide() {
    const p = this;
    return { tick(chunk) { p.otherItems += chunk.length; }, listed() {}, stop() {}, set inflight(fn) { p.otherInflight = fn; } };
  }

  /** A listing of the source starts (a copy in lanes runs several into one progress). */
  listing() {
    this.openListings = (this.openListings || 0) + 1;
  }

  /** A listing of the source is complete: once every one started is, the total is known. */
  listed() {
    this.openListings = Math.max(0, (this.openListings || 0) - 1);
    if (this.openListings === 0) this.listingComplete = true;
  }

  /**
   * One object finished. kind: 'copied' (or 'deleted'), 'failed', or anything else that
   * needs no work (skipped, unchanged); bytes: its size.
   */
  done(kind, bytes = 0) {
    if (!this.work) { this.work = { objects: 0, bytes: 0, failed: 0, done: 0, doneBytes: 0 }; this.workStarted = Date.now(); }
    const w = this.work;
    if (kind === 'copied' || kind === 'deleted') { w.objects++; w.bytes += bytes || 0; } else if (kind === 'failed') w.failed++;
    w.done++;
    w.doneBytes += bytes || 0;
    this._start();
  }

  snapshot(now = Date.now()) {
    const elapsedMs = now - this.started;
    const s = {
      items: this.items, bytes: this.bytes, inflight: this.inflight(), elapsedMs, rate: elapsedMs > 0 ? (this.items * 1000) / elapsedMs : 0,
      listed: { objects: this.items, bytes: this.bytes, complete: this.listingComplete },
    };
    if (this.work) {
      const w = this.work;
      const workMs = Math.max(1, now - this.workStarted);
      s[this.verb] = { objects: w.objects, bytes: w.bytes };
      s.failed = { objects: w.failed };
      s.processed = w.done;
      s.objectRate = (w.objects * 1000) / workMs;
      s.bytesRate = (w.bytes * 1000) / workMs;
      if (this.listingComplete && this.items > 0) {
        s.percent = Math.min(100, (100 * w.done) / this.items);
        const doneRate = (w.done * 1000) / workMs;
        s.etaMs = doneRate > 0 ? Math.max(0, ((this.items - w.done) * 1000) / doneRate) : null;
      }
    }
    return s;
  }

  line(s) {
    const parts = [`listed ${fmtInt(s.items)} ${this.label} (${fmtBytes(s.bytes)})${s.listed.complete ? '' : ` ${fmtInt(s.rate)}/s`}`];
    if (s.processed !== undefined) {
      const w = s[this.verb];
      parts.push(`${this.verb} ${fmtInt(w.objects)} (${fmtBytes(w.bytes)}) ${fmtInt(s.objectRate)}/s ${fmtBytes(s.bytesRate)}/s`);
      if (s.failed.objects) parts.push(`${fmtInt(s.failed.objects)} failed`);
      if (s.percent !== undefined) parts.push(`${s.percent.toFixed(0)}%${s.etaMs !== null ? ` ETA ${fmtTime(s.etaMs)}` : ''}`);
      else if (!s.listed.complete) parts.push('listing…'); // no percentage until the total is known
    } else if (s.inflight) parts.push(`${s.inflight} in flight`);
    parts.push(fmtTime(s.elapsedMs));
    return parts.join(', ');
  }

  report(now = Date.now()) {
    const s = this.snapshot(now);
    if (this.onProgress) this.onProgress(s);
    if (!this.live || this.stopped) return;
    this.stream.write(`\r\x1b[2K${this.line(s)}`);
    drawn = this;
  }

  /** Ends the line: one summary line on the terminal, and a last onProgress with done: true. */
  stop() {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    const s = this.snapshot();
    if (this.onProgress) this.onProgress({ ...s, done: true, finished: true });
    if (drawn === this) clearLine();
    if (this.live && (this.items || this.work)) {
      const w = s[this.verb];
      const secs = Math.max(s.elapsedMs, 1) / 1000;
      const rate = w ? `${fmtInt(w.objects / secs)} ${this.label}/s, ${fmtBytes(w.bytes / secs)}/s` : `${fmtInt(s.items / secs)} ${this.label}/s`;
      const what = w ? `, ${this.verb} ${fmtInt(w.objects)} (${fmtBytes(w.bytes)})${s.failed.objects ? `, ${fmtInt(s.failed.objects)} failed` : ''}` : '';
      this.stream.write(`listed ${fmtInt(s.items)} ${this.label} (${fmtBytes(s.bytes)})${what} in ${fmtTime(s.elapsedMs)}: ${rate}\n`);
    }
    this.live = false;
  }
}

module.exports = { Progress, fmtInt, fmtTime, clearLine };
