// Runs icebird (npm), an Iceberg reader not built on iceberg-go, and prints
// one JSON line.
//
//   node icebird.mjs table <table URL> [zlib]
//     reads the table by its location (metadata/version-hint.text first):
//     {"rows": N, "distinct": number of distinct ids} or {"error": "..."}.
//     With zlib, the deflate codec of the table's Avro files is inflated by
//     Node's zlib instead of icebird's own inflate (see icebird-inflate.mjs).
//   node icebird.mjs avro <file>
//     reads one Avro file with icebird's Avro reader: {"records": [...]} or
//     {"error": "..."}, and "inflated": the bytes Node's zlib inflates each
//     block to, when the codec is deflate.
//
// ICEBIRD is the node_modules folder icebird is installed in (ES modules
// ignore NODE_PATH). file:// URLs are answered from disk, whole or a byte
// range, as a web server answers icebird's fetches.
import { readFile } from 'node:fs/promises';
import { register } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const modules = process.env.ICEBIRD;
const icebird = (file) => import(pathToFileURL(join(modules, 'icebird', 'src', file)).href);
const print = (v) => console.log(JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? x.toString() : x)));
const [mode, target, option] = process.argv.slice(2);

const webFetch = globalThis.fetch;
globalThis.fetch = async (url, init = {}) => {
  url = String(url);
  if (!url.startsWith('file://')) return webFetch(url, init);
  let body;
  try {
    body = await readFile(fileURLToPath(url));
  } catch {
    return new Response('not found', { status: 404, statusText: 'Not Found' });
  }
  const headers = { 'content-length': String(body.length) };
  if (init.method === 'HEAD') return new Response(null, { status: 200, headers });
  const range = /bytes=(\d+)-(\d*)/.exec(new Headers(init.headers).get('range') ?? '');
  if (!range) return new Response(body, { status: 200, headers });
  const end = range[2] === '' ? body.length : Number(range[2]) + 1;
  return new Response(body.subarray(Number(range[1]), end), { status: 206 });
};

try {
  if (mode === 'table') {
    if (option === 'zlib') register(new URL('./icebird-inflate.mjs', import.meta.url));
    const { icebergRead } = await icebird('index.js');
    const rows = await icebergRead({ tableUrl: target });
    print({ rows: rows.length, distinct: new Set(rows.map((r) => String(r.id))).size });
  } else if (mode === 'avro') {
    const { avroMetadata, readZigZag } = await icebird('avro/avro.metadata.js');
    const { avroRead } = await icebird('avro/avro.read.js');
    const file = await readFile(target);
    const view = () => ({ view: new DataView(file.buffer, file.byteOffset, file.byteLength), offset: 0 });
    // The blocks, inflated by Node's zlib: the deflate data is valid.
    const blocks = view();
    const deflate = avroMetadata(blocks).metadata['avro.codec'] === 'deflate';
    const inflated = [];
    while (deflate && blocks.offset < file.length) {
      readZigZag(blocks);
      const size = readZigZag(blocks);
      inflated.push(inflateRawSync(file.subarray(blocks.offset, blocks.offset + size)).length);
      blocks.offset += size + 16;
    }
    const reader = view();
    try {
      const { metadata, syncMarker } = avroMetadata(reader);
      print({ inflated, records: avroRead({ reader, metadata, syncMarker }) });
    } catch (e) {
      print({ inflated, error: `${e.name}: ${e.message}` });
    }
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
} catch (e) {
  print({ error: `${e.name}: ${e.message}` });
}
