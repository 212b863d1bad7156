// Registers schemas in a schema registry and produces records framed by the
// registry client's own serializers (@kafkajs/confluent-schema-registry) with
// kafkajs, so that the suite reads frames as production writes them.
//
// Reads a JSON spec on stdin:
//   {"brokers": "127.0.0.1:9092", "registry": "http://127.0.0.1:8081", "topic": "t",
//    "schemas": [{"subject": "t-value", "type": "AVRO", "schema": "...", "references": [...]}],
//    "records": [{"schema": 0, "value": {...}, "key": "k", "partition": 0}]}
// Values may hold {"$bytes": "<base64>"} where the schema has bytes.
// Prints {"ids": [...]}, the registry's id of each schema, in order.
'use strict';
const { Kafka, logLevel } = require('kafkajs');
const { SchemaRegistry, SchemaType } = require('@kafkajs/confluent-schema-registry');

function revive(v) {
  if (Array.isArray(v)) return v.map(revive);
  if (v && typeof v === 'object') {
    if (typeof v.$bytes === 'string' && Object.keys(v).length === 1) return Buffer.from(v.$bytes, 'base64');
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = revive(x);
    return out;
  }
  return v;
}

async function main() {
  const spec = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  // One client registers; another, which has seen nothing, encodes: it
  // fetches every schema (and its references) back by id, as a producer
  // that did not register them does.
  const registering = new SchemaRegistry({ host: spec.registry });
  const ids = [];
  for (const s of spec.schemas) {
    const { id } = await registering.register(
      { type: SchemaType[s.type], schema: s.schema, references: s.references },
      { subject: s.subject },
    );
    ids.push(id);
  }
  const encoding = new SchemaRegistry({ host: spec.registry });
  const kafka = new Kafka({ clientId: 'registry-produce', brokers: [spec.brokers], logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  await producer.connect();
  const messages = [];
  for (const r of spec.records || []) {
    const s = spec.schemas[r.schema];
    let value = await encoding.encode(ids[r.schema], revive(r.value));
    if (s.type === 'PROTOBUF') {
      // This client writes no message index; Confluent's serializers write
      // one after the schema id, [0] (the first message) as a single 0.
      value = Buffer.concat([value.subarray(0, 5), Buffer.from([0]), value.subarray(5)]);
    }
    messages.push({ key: r.key == null ? null : String(r.key), value, partition: r.partition || 0 });
  }
  for (let i = 0; i < messages.length; i += 500) {
    await producer.send({ topic: spec.topic, messages: messages.slice(i, i + 500) });
  }
  await producer.disconnect();
  process.stdout.write(JSON.stringify({ ids }) + '\n');
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : err);
  if (err && err.paths) console.error(JSON.stringify(err.paths));
  process.exit(1);
});
