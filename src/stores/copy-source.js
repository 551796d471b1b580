'use strict';
// The x-amz-copy-source value: "bucket/key", URL-encoded. encodeURIComponent encodes
// '+', '%', '?', '#', '&', spaces and every non-ASCII byte; '/' stays as is.
function copySource(bucket, key, versionId) {
  const enc = key.split('/').map(encodeURIComponent).join('/');
  return `${bucket}/${enc}${versionId ? `?versionId=${encodeURIComponent(versionId)}` : ''}`;
}

module.exports = { copySource };
