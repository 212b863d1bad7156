#!/usr/bin/env bash
# Installs the real services and independent clients the test suite runs against,
# cached under .tools/ so later runs start at once. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS="$PWD/.tools"
mkdir -p "$TOOLS/bin" "$TOOLS/node"

VERSITYGW_VERSION=v1.8.0
FAKE_GCS_SERVER_VERSION=v1.56.1
AZURITE_VERSION=3.37.0
DUCKDB_NODE_VERSION=1.5.6-r.1
# The schema registry client and serializers, and the Kafka client, that
# produce the suite's Avro, Protobuf and JSON Schema records (pure JavaScript).
KAFKAJS_VERSION=2.2.4
KAFKAJS_SCHEMA_REGISTRY_VERSION=4.1.0
# An Iceberg reader not built on iceberg-go, that finds a table by its
# location (version-hint.text); the suite pins down where it fails.
ICEBIRD_VERSION=0.3.1

log() { printf 'install-tools: %s\n' "$*" >&2; }

if [ ! -x "$TOOLS/bin/versitygw" ] || ! grep -qx "$VERSITYGW_VERSION" "$TOOLS/bin/.versitygw-version" 2>/dev/null; then
  log "versitygw $VERSITYGW_VERSION (about 80 s the first time)"
  GOBIN="$TOOLS/bin" GOFLAGS=-mod=mod go install "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION"
  echo "$VERSITYGW_VERSION" > "$TOOLS/bin/.versitygw-version"
fi

if [ ! -x "$TOOLS/bin/fake-gcs-server" ] || ! grep -qx "$FAKE_GCS_SERVER_VERSION" "$TOOLS/bin/.fake-gcs-server-version" 2>/dev/null; then
  log "fake-gcs-server $FAKE_GCS_SERVER_VERSION (the Google Cloud Storage emulator)"
  GOBIN="$TOOLS/bin" GOFLAGS=-mod=mod go install "github.com/fsouza/fake-gcs-server@$FAKE_GCS_SERVER_VERSION"
  echo "$FAKE_GCS_SERVER_VERSION" > "$TOOLS/bin/.fake-gcs-server-version"
fi

if [ ! -x "$TOOLS/node/node_modules/.bin/azurite-blob" ]; then
  log "azurite $AZURITE_VERSION (about 70 s the first time)"
  npm install --prefix "$TOOLS/node" "azurite@$AZURITE_VERSION" --no-audit --no-fund --loglevel=error >/dev/null
fi

if [ ! -d "$TOOLS/node/node_modules/@duckdb/node-api" ]; then
  log "@duckdb/node-api (independent Parquet reader)"
  npm install --prefix "$TOOLS/node" "@duckdb/node-api@$DUCKDB_NODE_VERSION" --no-audit --no-fund --loglevel=error >/dev/null
fi

if [ ! -d "$TOOLS/node/node_modules/@kafkajs/confluent-schema-registry" ] || [ ! -d "$TOOLS/node/node_modules/kafkajs" ]; then
  log "kafkajs $KAFKAJS_VERSION and @kafkajs/confluent-schema-registry $KAFKAJS_SCHEMA_REGISTRY_VERSION (records framed by the registry's serializers)"
  npm install --prefix "$TOOLS/node" "kafkajs@$KAFKAJS_VERSION" "@kafkajs/confluent-schema-registry@$KAFKAJS_SCHEMA_REGISTRY_VERSION" --no-audit --no-fund --loglevel=error >/dev/null
fi

if ! grep -qs "\"version\": \"$ICEBIRD_VERSION\"" "$TOOLS/node/node_modules/icebird/package.json"; then
  log "icebird $ICEBIRD_VERSION (independent Iceberg reader)"
  npm install --prefix "$TOOLS/node" "icebird@$ICEBIRD_VERSION" --no-audit --no-fund --loglevel=error >/dev/null
fi

need_apt=()
command -v kcat >/dev/null || need_apt+=(kcat)
command -v aws >/dev/null || need_apt+=(awscli)
command -v rclone >/dev/null || need_apt+=(rclone)
# PostgreSQL, the Iceberg SQL catalog's real server: the tests run initdb and
# postgres from /usr/lib/postgresql/<major>/bin themselves, on loopback.
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || need_apt+=(postgresql)
# Headless Chromium for the documentation site's browser test.
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    log "apt-get install ${need_apt[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    log "missing ${need_apt[*]}: install them with apt-get (needs root)"
    exit 1
  fi
fi
log "ready"
