# Three topics landed in one S3 lake by several workers over one remote
# state. Each worker takes the sinks no other live worker holds (a lease lock
# per sink in the state's bucket) and skips the others: started together, the
# workers share the sinks; one killed, its sinks' leases expire and the next
# run takes them over.
#
# Where the brokers and the buckets are comes from variables (the Job sets
# none: the defaults are the cluster's), so that the same file runs against
# local servers in a test.

variable "brokers" {
  type    = list(string)
  default = ["kafka.data.svc:9092"]
}

variable "state_bucket" {
  type    = string
  default = "ops"
}

variable "lake_bucket" {
  type    = string
  default = "lake"
}

variable "s3_endpoint" {
  type        = string
  default     = ""
  description = "Endpoint of an S3-compatible store (path-style); empty for Amazon S3."
}

streamctl {
  state "s3" {
    bucket           = var.state_bucket
    key              = "streamctl/lake.json"
    endpoint         = var.s3_endpoint
    force_path_style = var.s3_endpoint != ""
  }
}

source "kafka" "orders" {
  brokers = var.brokers
  topic   = "orders"
}

source "kafka" "payments" {
  brokers = var.brokers
  topic   = "payments"
}

source "kafka" "shipments" {
  brokers = var.brokers
  topic   = "shipments"
}

# The largest topic: its partitions are split into four shards, each with its
# own checkpoint and lock, so that four pods write it at once.
sink "orders" {
  source = source.kafka.orders
  shards = 4

  destination "s3" "lake" {
    bucket           = var.lake_bucket
    prefix           = "orders"
    endpoint         = var.s3_endpoint
    force_path_style = var.s3_endpoint != ""
  }
}

sink "payments" {
  source = source.kafka.payments

  destination "s3" "lake" {
    bucket           = var.lake_bucket
    prefix           = "payments"
    endpoint         = var.s3_endpoint
    force_path_style = var.s3_endpoint != ""
  }
}

sink "shipments" {
  source = source.kafka.shipments

  destination "s3" "lake" {
    bucket           = var.lake_bucket
    prefix           = "shipments"
    endpoint         = var.s3_endpoint
    force_path_style = var.s3_endpoint != ""
  }
}
