'use strict';
// The heap gives back what it holds, least first, whatever the order of pushes and pops.
const { MinHeap } = require('../../src/util/min-heap');
const { prng } = require('../helpers/keysets');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);

test(`pushes and pops interleaved give the least held each time (seed ${SEED})`, () => {
  const r = prng(SEED);
  const heap = new MinHeap((a, b) => a - b);
  const held = [];
  for (let step = 0; step < 5000; step++) {
    if (held.length && r.next() < 0.45) {
      held.sort((a, b) => a - b);
      expect(heap.pop()).toBe(held.shift());
    } else {
      const x = r.int(200); // repeats too
      heap.push(x);
      held.push(x);
    }
    expect(heap.size).toBe(held.length);
  }
  const rest = [];
  while (heap.size) rest.push(heap.pop());
  expect(rest).toEqual(held.sort((a, b) => a - b));
});
