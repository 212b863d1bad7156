# Kafka → a data lake on S3 (Parquet, one folder per country) and an archive on
# Azure Blob Storage (JSONL, the records exactly as produced).
#
# Two sinks read the one topic. Each has its own checkpoint, so the lake and the
# archive advance independently: a failing Azure account does not hold the lake
# back, and the archive can be replayed without touching the lake.
#
# Where the brokers, the bucket and the account are comes from variables, so the
# same file runs against local servers in a test and against the real services:
#
#   STREAMCTL_VAR_brokers='["kafka-1:9092","kafka-2:9092"]'
#   STREAMCTL_VAR_lake_bucket=my-lake
#   STREAMCTL_VAR_azure_account_url=https://myaccount.blob.core.windows.net
#
# Credentials never appear here: S3 uses the standard AWS chain (environment,
# profile, instance role), Azure uses Microsoft Entra ID, or
# AZURE_STORAGE_CONNECTION_STRING / AZURE_STORAGE_SAS_TOKEN from the environment.

variable "brokers" {
  type        = list(string)
  default     = ["127.0.0.1:9092"]
  description = "Kafka bootstrap brokers, host:port."
}

variable "topic" {
  type    = string
  default = "orders"
}

variable "lake_bucket" {
  type        = string
  default     = "lake"
  description = "S3 bucket of the Parquet lake."
}

variable "s3_endpoint" {
  type        = string
  default     = ""
  description = "Endpoint of an S3-compatible store (path-style); empty for Amazon S3."
}

variable "azure_account_url" {
  type = string
  # The local Azure emulator (Azurite), so that the file validates and runs
  # as it is: a placeholder account in the cloud would be sent an Entra ID
  # token it could reuse.
  default     = "http://127.0.0.1:10000/devstoreaccount1"
  description = "https://ACCOUNT.blob.core.windows.net; empty to take the account from AZURE_STORAGE_CONNECTION_STRING."
}

variable "azure_container" {
  type    = string
  default = "archive"
}

source "kafka" "orders" {
  brokers = var.brokers
  topic   = var.topic
  # Only records of committed transactions; the default, spelled out.
  isolation = "read_committed"
  timeout   = "30s"
}

sink "orders_lake" {
  source       = source.kafka.orders
  format       = "parquet"
  compression  = "zstd"
  partition_by = ["country"]

  column "id" {
    type = "int64"
  }
  column "country" {
    type = "string"
  }
  column "amount" {
    type = "double"
  }
  column "kafka_offset" {
    type = "int64"
    from = "_offset"
  }

  batch {
    max_records = 100000
  }

  destination "s3" "lake" {
    bucket           = var.lake_bucket
    prefix           = "orders"
    endpoint         = var.s3_endpoint
    force_path_style = var.s3_endpoint != ""
  }
}

sink "orders_archive" {
  source = source.kafka.orders
  format = "jsonl"

  batch {
    max_records = 100000
  }

  destination "azblob" "archive" {
    account_url = var.azure_account_url
    container   = var.azure_container
    prefix      = "orders"
  }
}
