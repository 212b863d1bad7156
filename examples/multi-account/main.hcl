# One stream of orders sharded by customer over three destinations in two
# clouds: two Azure Blob containers (in one storage account or two) and one S3
# bucket. route_by sends each record to exactly one destination, chosen by a
# hash of its customer_id: all the orders of a customer land in the same place,
# and the three destinations together hold the stream exactly once. The
# checkpoint is in S3, locked while an apply runs.
#
# Where the bucket and the accounts are comes from variables, so the same file
# runs against local servers in a test and against the real services:
#
#   STREAMCTL_VAR_s3_bucket=my-orders
#   STREAMCTL_VAR_azure_account_url=https://ordersa.blob.core.windows.net
#   STREAMCTL_VAR_azure_account_url_b=https://ordersb.blob.core.windows.net
#
# Credentials never appear here: S3 uses the standard AWS chain (environment,
# profile, SSO, instance or task role); Azure uses Microsoft Entra ID (one
# identity can write both accounts), or AZURE_STORAGE_SAS_TOKEN,
# AZURE_STORAGE_KEY or AZURE_STORAGE_CONNECTION_STRING from the environment.

variable "records_per_partition" {
  type        = number
  default     = 100000
  description = "Records in each of the generator's 4 partitions; raise it to make the stream grow."
}

variable "s3_bucket" {
  type        = string
  default     = "orders"
  description = "S3 bucket of the third shard and of the state."
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
  description = "https://ACCOUNT.blob.core.windows.net of the first container; empty to take the account from AZURE_STORAGE_CONNECTION_STRING."
}

variable "azure_account_url_b" {
  type        = string
  default     = ""
  description = "The account of the second container, when it is another account; empty: the same as azure_account_url."
}

variable "azure_container_a" {
  type    = string
  default = "orders-a"
}

variable "azure_container_b" {
  type    = string
  default = "orders-b"
}

locals {
  path_style = var.s3_endpoint != ""
}

streamctl {
  state "s3" {
    bucket           = var.s3_bucket
    key              = "streamctl/multi-account.json"
    endpoint         = var.s3_endpoint
    force_path_style = local.path_style
  }
}

# A deterministic stand-in for a Kafka topic: 4 partitions of orders with an
# id, a customer_id (0-9999), a country and an amount. Swap it for
# source "kafka" and nothing else changes.
source "generate" "orders" {
  partitions            = 4
  records_per_partition = var.records_per_partition
}

sink "orders" {
  source       = source.generate.orders
  format       = "jsonl"
  route_by     = "customer_id"
  partition_by = ["country"]

  batch {
    max_records = 50000
  }

  destination "azblob" "azure_a" {
    account_url = var.azure_account_url
    container   = var.azure_container_a
    prefix      = "orders"
  }

  destination "azblob" "azure_b" {
    account_url = var.azure_account_url_b != "" ? var.azure_account_url_b : var.azure_account_url
    container   = var.azure_container_b
    prefix      = "orders"
  }

  destination "s3" "s3_c" {
    bucket           = var.s3_bucket
    prefix           = "orders"
    endpoint         = var.s3_endpoint
    force_path_style = local.path_style
  }
}
