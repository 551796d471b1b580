'use strict';
// GetObjectTagging on the lean request path (a metadata scan may ask it for many objects):
// one signed GET, the TagSet read by regular expression. Anything unusual throws FallBack,
// so the SDK does it, with its retries and errors.
const { FallBack } = require('./http-pool');
const { decodeEntities } = require('./list-parser');

const TAG = /<Tag>\s*<Key>([^<]*)<\/Key>\s*<Value>([^<]*)<\/Value>\s*<\/Tag>/g;

function parseTagging(body) {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.indexOf('<Error>') >= 0 || text.indexOf('<Tagging') < 0) throw new FallBack('GetObjectTagging answered without a Tagging');
  const TagSet = [];
  for (const m of text.matchAll(TAG)) TagSet.push({ Key: decodeEntities(m[1]), Value: decodeEntities(m[2]) });
  return { TagSet };
}

/** lean: a LeanRequests; p: {Key, VersionId, RequestPayer}. Resolves like the SDK's output. */
async function leanTagging(lean, p, signal) {
  const query = [['tagging', '']];
  if (p.VersionId) query.push(['versionId', p.VersionId]);
  const headers = p.RequestPayer ? { 'x-amz-request-payer': 'requester' } : {};
  const res = await lean.request('GET', p.Key, query, headers, { signal });
  return parseTagging(res.body);
}

module.exports = { leanTagging, parseTagging };
