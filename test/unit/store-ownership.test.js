'use strict';
// Who closes a store: the stage that opened it. A listing handed a store (options.store)
// never destroys it; a listing that opened its own (a library caller's Listing) does; a
// stage's listing goes through openListing, which opens the store, hands it over and
// destroys it at close; and no stage reaches through a listing for its store.
const fs = require('fs');
const path = require('path');
const { Listing } = require('../../src/list/listing');
const { ObjectListing } = require('../../src/stages/object-listing');
const { openListing } = require('../../src/stages/source-listing');

// A store that lists nothing and counts how often it was destroyed.
function countingStore() {
  const s = {
    type: 'fake', destroyed: 0,
    async open() {},
    async listPage() { return { items: [], prefixes: [], truncated: false }; },
    destroy() { s.destroyed++; },
  };
  return s;
}

test('a listing handed a store leaves it open at close', async () => {
  const store = countingStore();
  const listing = new Listing({ store, log: () => {} });
  for await (const page of listing.pages()) expect(page).toEqual([]);
  listing.close();
  expect(store.destroyed).toBe(0);
});

test('a listing that opened its own store destroys it at close', () => {
  const destroyed = [];
  const spy = jest.spyOn(Listing, 'openStore').mockImplementation(() => {
    const s = countingStore();
    s.destroy = () => destroyed.push(s);
    return { store: s, location: { prefix: '', text: 's3://b/' } };
  });
  try {
    const listing = new Listing({ source: 's3://b/' });
    expect(listing.ownsStore).toBe(true);
    listing.close();
    expect(destroyed).toEqual([listing.store]);
  } finally {
    spy.mockRestore();
  }
});

test('openListing: the stage gets the store it opened, the listing reads it, close destroys it once', () => {
  const opened = countingStore();
  const spy = jest.spyOn(ObjectListing, 'openStore').mockReturnValue({ store: opened, location: { prefix: 'p/', text: 's3://b/p/' } });
  try {
    const { listing, store, close } = openListing(ObjectListing, { source: 's3://b/p/' });
    expect(store).toBe(opened);
    expect(listing.store).toBe(opened);
    expect(listing.ownsStore).toBe(false);
    expect(listing.range.prefix).toBe('p/');
    close();
    expect(opened.destroyed).toBe(1);
  } finally {
    spy.mockRestore();
  }
});

test('openListing: a listing that cannot be made still destroys the store opened for it', () => {
  const opened = countingStore();
  const spy = jest.spyOn(Listing, 'openStore').mockReturnValue({ store: opened, location: { prefix: '', text: 'a folder' } });
  try {
    // A folder has no versions: the listing refuses, after the store was opened.
    expect(() => openListing(Listing, { source: '.', allVersions: true })).toThrow(/S3 source/);
    expect(opened.destroyed).toBe(1);
  } finally {
    spy.mockRestore();
  }
});

test('openListing: a caller\'s store is used as it is and left open', () => {
  const mine = countingStore();
  const { store, close } = openListing(Listing, { store: mine });
  expect(store).toBe(mine);
  close();
  expect(mine.destroyed).toBe(0);
});

test('a metadata scan opens its store with sockets for the HEADs too', () => {
  const seen = [];
  const spy = jest.spyOn(Listing, 'openStore').mockImplementation((o) => { seen.push(o.maxSockets); return { store: countingStore(), location: { prefix: '', text: 's3://b/' } }; });
  try {
    ObjectListing.openStore({ source: 's3://b/', withMetadata: true, listConcurrency: 10, headConcurrency: 30 });
    ObjectListing.openStore({ source: 's3://b/', listConcurrency: 10 });
  } finally {
    spy.mockRestore();
  }
  expect(seen).toEqual([40, undefined]);
});

test('no stage or CLI module reaches through a listing for its store', () => {
  const offenders = [];
  for (const dir of ['stages', 'cli']) {
    const root = path.join(__dirname, '..', '..', 'src', dir);
    for (const f of fs.readdirSync(root)) {
      if (!f.endsWith('.js')) continue;
      const text = fs.readFileSync(path.join(root, f), 'utf8');
      if (/[lL]isting\.store\b/.test(text)) offenders.push(`src/${dir}/${f}`);
    }
  }
  expect(offenders).toEqual([]);
});
