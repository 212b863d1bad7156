// A module loader hook (node:module register) for icebird.mjs: icebird's
// Avro reader gets the deflate codec's inflate from Node's zlib instead of
// hyparquet-compressors' gunzip, which fails on any raw DEFLATE stream
// holding a stored block, as every stream Go's compress/flate writes does
// (it ends with an empty one). Everything else icebird does is its own.
export async function resolve(specifier, context, next) {
  if (specifier === 'hyparquet-compressors' && context.parentURL?.endsWith('/icebird/src/avro/avro.read.js')) {
    return { url: 'data:text/javascript,' + encodeURIComponent(
      "import { inflateRawSync } from 'node:zlib'; export const gunzip = (d) => new Uint8Array(inflateRawSync(d));"), shortCircuit: true };
  }
  return next(specifier, context);
}
