'use strict';
// Negative control: with JavaScript's UTF-16 string order in place of S3's UTF-8 byte
// order, the lister must visibly fail the exactly-once check on keys around U+FFFF.
const { FakeListStore } = require('../helpers/fake-list-store');

function withJsOrder() {
  let Lister;
  jest.isolateModules(() => {
    jest.doMock('../../src/keys/order', () => {
      const actual = jest.requireActual('../../src/keys/order');
      return { ...actual, compareKeys: (a, b) => (a === b ? 0 : a < b ? -1 : 1) };
    });
    Lister = require('../../src/list/parallel-lister').ParallelLister;
  });
  return Lister;
}

test('the exactly-once check catches UTF-16 ordering', async () => {
  const keys = [];
  for (let i = 0; i < 3000; i++) keys.push(`${['\uFFFF', '\u{10000}', '\uE000', '😀', 'a'][i % 5]}${i}`);
  const store = new FakeListStore(keys, { maxKeys: 100 });
  const Lister = withJsOrder();
  const lister = new Lister(store, { log: () => {}, listConcurrency: 8 });
  let got = [];
  let failed = null;
  try {
    for await (const page of lister.pages()) for (const it of page) got.push(it.Key);
  } catch (err) { failed = err; }
  const exact = !failed && got.length === store.keys.length && got.every((k, i) => k === store.keys[i]);
  expect(exact).toBe(false);
});
