'use strict';
const { AdaptiveLimit } = require('../../src/transfer/adaptive-limit');

test('never runs more than the limit at once', async () => {
  const lim = new AdaptiveLimit(3);
  let active = 0, peak = 0;
  await Promise.all(Array.from({ length: 20 }, () => lim.run(async () => {
    peak = Math.max(peak, ++active);
    await new Promise((r) => setTimeout(r, 2));
    active--;
  })));
  expect(peak).toBe(3);
});

test('backs off under heavy throttling, holds under sporadic throttling, climbs back after', () => {
  const lim = new AdaptiveLimit(400);
  lim.active = 1; // busy
  for (let i = 0; i < 3; i++) { lim.throttles = 50; lim.ok = 50; lim._evaluate(); }
  expect(lim.limit).toBe(50);
  lim.throttles = 5; lim.ok = 95; lim._evaluate(); // 5%: hold
  expect(lim.limit).toBe(50);
  for (let i = 0; i < 20; i++) { lim.ok = 100; lim._evaluate(); }
  expect(lim.limit).toBe(400);
  const reasons = lim.trace.map((e) => e.reason);
  expect(reasons.indexOf('throttled')).toBeGreaterThan(0);
  expect(reasons.lastIndexOf('recovering')).toBeGreaterThan(reasons.lastIndexOf('throttled'));
  expect(Math.min(...lim.trace.map((e) => e.limit))).toBe(50);
});

test('has a floor', () => {
  const lim = new AdaptiveLimit(64);
  lim.active = 1;
  for (let i = 0; i < 20; i++) { lim.throttles = 10; lim._evaluate(); }
  expect(lim.limit).toBe(2);
});
