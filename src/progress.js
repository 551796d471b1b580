'use strict';
// Progress of a long run: a live line on stderr when it is a terminal (never with
// --quiet or when piped), and an onProgress callback for library users.

function fmtInt(n) { return Math.round(n).toLocaleString('en-US'); }
function fmtTime(ms) {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return (h ? `${h}:${String(m).padStart(2, '0')}` : `${m}`) + ':' + String(r).padStart(2, '0');
}

class Progress {
  constructor({ quiet = false, stream = process.stderr, onProgress, interval = 250, label = 'items', showLine } = {}) {
    this.stream = stream;
    this.live = showLine !== undefined ? showLine : Boolean(!quiet && stream && stream.isTTY);
    this.onProgress = typeof onProgress === 'function' ? onProgress : null;
    this.interval = interval;
    this.label = label;
    this.items = 0;
    this.bytes = 0;
    this.extra = null; // () => string, for stage-specific counts
    this.inflight = () => 0;
    this.started = Date.now();
    this.last = 0;
    this.drawn = false;
  }

  /** chunk: a run of listed entries (stores/chunks.js). */
  tick(chunk) {
    this.items += chunk.length;
    this.bytes += chunk.bytes();
    this.maybeReport();
  }

  maybeReport() {
    const now = Date.now();
    if (now - this.last < this.interval) return;
    this.last = now;
    this.report(now);
  }

  snapshot(now = Date.now()) {
    const elapsedMs = now - this.started;
    return { items: this.items, bytes: this.bytes, inflight: this.inflight(), elapsedMs, rate: elapsedMs > 0 ? (this.items * 1000) / elapsedMs : 0 };
  }

  report(now) {
    const s = this.snapshot(now);
    if (this.onProgress) this.onProgress(s);
    if (!this.live) return;
    const line = `${fmtInt(s.items)} ${this.label}  ${fmtInt(s.rate)}/s  ${s.inflight} in flight  ${fmtTime(s.elapsedMs)}${this.extra ? '  ' + this.extra() : ''}`;
    this.stream.write(`\r\x1b[2K${line}`);
    this.drawn = true;
  }

  stop() {
    if (this.onProgress) this.onProgress({ ...this.snapshot(), done: true });
    if (this.drawn) this.stream.write('\r\x1b[2K');
    this.drawn = false;
    this.live = false;
  }
}

module.exports = { Progress, fmtInt, fmtTime };
