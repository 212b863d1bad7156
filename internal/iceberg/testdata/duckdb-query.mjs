// Runs SQL statements with DuckDB, the independent reader of the files
// streamctl writes, and prints one JSON line per statement:
//   {"columns":[names],"types":[DuckDB types],"rows":[[values in DuckDB's JSON form]]}
// Usage: NODE_PATH=<dir holding @duckdb/node-api> node duckdb-query.mjs SQL...
// ES modules ignore NODE_PATH; a CommonJS require honours it.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { DuckDBInstance } = require('@duckdb/node-api');

// No network: extensions that are not built in must not be fetched.
const instance = await DuckDBInstance.create(':memory:', {
  autoinstall_known_extensions: 'false',
  threads: '2',
});
const conn = await instance.connect();
for (const sql of process.argv.slice(2)) {
  const reader = await conn.runAndReadAll(sql);
  const out = {
    columns: reader.columnNames(),
    types: reader.columnTypes().map((t) => t.toString()),
    rows: reader.getRowsJson(),
  };
  process.stdout.write(JSON.stringify(out) + '\n');
}
