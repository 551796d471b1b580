'use strict';
// The two seams of the parallel lister: the request gate and the output queue.
const { RequestGate } = require('../../src/list/request-gate');
const { OutputQueue } = require('../../src/list/output-queue');
const { RequestStats } = require('../../src/stats');

describe('RequestGate', () => {
  test('room is the free slots; none when the output is full or the gate stopped', () => {
    const g = new RequestGate({ concurrency: 3, stats: new RequestStats() });
    expect(g.room()).toBe(3);
    g.sent(0); g.sent(0);
    expect(g.inflight).toBe(2);
    expect(g.room()).toBe(1);
    expect(g.room(true)).toBe(0);
    g.settled(1);
    expect(g.room()).toBe(2);
    g.stop(new Error('done'));
    expect(g.room()).toBe(0);
    expect(g.signal.aborted).toBe(true);
    expect(g.signal.reason.message).toBe('done');
  });

  test('the budget stops the gate at exactly maxRequests, with one notice', () => {
    const notices = [];
    const stats = new RequestStats();
    const g = new RequestGate({ concurrency: 100, maxRequests: 5, stats, log: (m) => notices.push(m) });
    let sent = 0;
    while (g.room() > 0 && !g.spent()) { g.sent(0); sent++; }
    expect(sent).toBe(5);
    expect(stats.listRequests).toBe(5);
    expect(g.left).toBe(0);
    expect(g.spent()).toBe(true);
    expect(notices).toEqual(['stopped after 5 list requests (--max-list-requests): the listing is incomplete']);
  });

  test('without a budget it never runs out', () => {
    const g = new RequestGate({ concurrency: 1 });
    for (let i = 0; i < 1000; i++) { g.sent(i); g.settled(i); }
    expect(g.spent()).toBe(false);
    expect(g.left).toBe(Infinity);
  });
});

describe('OutputQueue', () => {
  test('hands out chunks in order, waits while empty, ends when finished', async () => {
    const q = new OutputQueue(2);
    const got = [];
    let taken = 0;
    const consumer = (async () => { for await (const c of q.drain(() => taken++)) got.push(c); })();
    q.push('a');
    q.push('b');
    expect(q.full).toBe(true); // the lister's cue to hold back
    q.notify();
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual(['a', 'b']);
    expect(q.full).toBe(false);
    q.push('c');
    q.finish();
    q.notify();
    await consumer;
    expect(got).toEqual(['a', 'b', 'c']);
    expect(taken).toBe(3);
  });

  test('the first error ends the drain, even with chunks queued', async () => {
    const q = new OutputQueue(10);
    q.push('a');
    q.fail(new Error('first'));
    q.fail(new Error('second'));
    const it = q.drain(() => {});
    await expect(it.next()).rejects.toThrow('first');
  });
});
