'use strict';
// Which way one object moves, by where it comes from and where it goes.
function pickTransfer(src, dst, sameConnection) {
  if (src.type === 's3' && dst.type === 's3') {
    return sameConnection ? require('./server-copy').serverCopy : require('./stream-copy').streamCopy;
  }
  if (src.type === 's3') return require('./download').download;
  if (dst.type === 's3') return require('./upload').upload;
  return require('./local-copy').localCopy;
}

module.exports = { pickTransfer };
