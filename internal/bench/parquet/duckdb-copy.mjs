// The DuckDB side of internal/bench/parquet: converts a JSONL file to Parquet
// ZSTD partitioned by country with COPY, on 2 threads, and prints
// {"seconds": S} where S is the COPY statement's own time (DuckDB's start-up
// and Node's are left out).
// Usage: NODE_PATH=<dir holding @duckdb/node-api> node duckdb-copy.mjs IN.jsonl OUTDIR
// ES modules ignore NODE_PATH; a CommonJS require honours it.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { DuckDBInstance } = require('@duckdb/node-api');

const [input, out] = process.argv.slice(2);
const quote = (s) => "'" + s.replaceAll("'", "''") + "'";

const instance = await DuckDBInstance.create(':memory:', {
  autoinstall_known_extensions: 'false',
  threads: '2',
});
const conn = await instance.connect();
const sql = `COPY (SELECT * FROM read_json(${quote(input)}, format = 'newline_delimited', columns = {
    id: 'BIGINT', partition: 'INTEGER', "offset": 'BIGINT', ts: 'TIMESTAMP',
    customer_id: 'BIGINT', country: 'VARCHAR', amount: 'DOUBLE', note: 'VARCHAR'}))
  TO ${quote(out)} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (country))`;
const start = process.hrtime.bigint();
await conn.run(sql);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
process.stdout.write(JSON.stringify({ seconds }) + '\n');
