'use strict';
// A virtual clock for code that reads Date.now and waits with setTimeout / setInterval: the
// globals are replaced until restore(), and run() moves time from one timer to the next,
// letting every promise settle in between. A simulated minute takes what its callbacks
// cost, and no result depends on how busy the machine is.
const { MinHeap } = require('../../src/util/min-heap');

function installVirtualTime({ start = 0 } = {}) {
  const real = {
    setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout,
    setInterval: globalThis.setInterval, clearInterval: globalThis.clearInterval,
    now: Date.now, setImmediate: globalThis.setImmediate,
  };
  let now = start;
  let seq = 0;
  const heap = new MinHeap((a, b) => a.t - b.t || a.id - b.id);
  const live = new Map(); // id -> timer entry, until fired or cleared

  class Timer {
    constructor(id) { this.id = id; }
    unref() { return this; }
    ref() { return this; }
    hasRef() { return false; }
    [Symbol.toPrimitive]() { return this.id; }
  }
  const schedule = (fn, ms, args, every) => {
    const id = ++seq;
    const entry = { id, t: now + Math.max(1, Number(ms) || 0), fn, args, every };
    live.set(id, entry);
    heap.push(entry);
    return new Timer(id);
  };
  const clear = (t) => { if (t != null) live.delete(typeof t === 'object' ? t.id : Number(t)); };

  globalThis.setTimeout = (fn, ms, ...args) => schedule(fn, ms, args, 0);
  globalThis.setInterval = (fn, ms, ...args) => schedule(fn, ms, args, Math.max(1, Number(ms) || 0));
  globalThis.clearTimeout = clear;
  globalThis.clearInterval = clear;
  Date.now = () => now;

  const settle = () => new Promise((r) => real.setImmediate(r));

  return {
    now: () => now,
    /** Moves the clock on without firing timers (for code driven by hand). */
    advance(ms) { now += ms; },
    /** Fires timers in time order until done() holds; throws when nothing is left to fire. */
    async run(done, { maxMs = Infinity } = {}) {
      for (;;) {
        await settle();
        if (done()) return now;
        let next = null;
        while (heap.size) {
          const e = heap.pop();
          if (live.get(e.id) === e) { next = e; break; }
        }
        if (!next) throw new Error(`virtual time: nothing left to wait for at ${now} ms, and not done`);
        if (next.t - start > maxMs) throw new Error(`virtual time: not done after ${maxMs} ms`);
        now = next.t;
        if (next.every) { next.t = now + next.every; heap.push(next); } else live.delete(next.id);
        next.fn(...next.args);
      }
    },
    restore() {
      Object.assign(globalThis, { setTimeout: real.setTimeout, clearTimeout: real.clearTimeout, setInterval: real.setInterval, clearInterval: real.clearInterval });
      Date.now = real.now;
    },
  };
}

module.exports = { installVirtualTime };
