'use strict';
// A stage's listing of a source: the stage opens the store (Cls.openStore: sockets for the
// listing and for what else goes through it), hands it to the listing, uses the same store
// for its own requests (copies, HEADs, deletes) and destroys it when done. A listing never
// owns a stage's store, and a stage never reaches through its listing for one.
const { RequestStats } = require('../stats');

/**
 * @param Cls Listing or a subclass (ObjectListing)
 * @param options the listing's options; options.store: a store of the caller's, used as it
 *   is and left open (the caller closes it)
 * @returns {listing, store (as opened: not the version view a listing of versions reads), close()}
 */
function openListing(Cls, options) {
  const stats = options.stats || new RequestStats();
  if (options.store) {
    const listing = new Cls({ ...options, stats });
    return { listing, store: options.store, close: () => listing.close() };
  }
  const { store, location } = Cls.openStore(options, stats);
  let listing;
  try {
    listing = new Cls({ ...options, stats, store, storeLocation: location });
  } catch (err) {
    store.destroy();
    throw err;
  }
  return { listing, store, close: () => { listing.close(); store.destroy(); } };
}

module.exports = { openListing };
