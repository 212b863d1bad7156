# The quickstart: a deterministic generated stream into two local folders,
# with the state in .streamctl/state.json. Run it twice: the second apply finds
# nothing to do. Raise records_per_partition and apply again: only the new
# records are written.

variable "records" {
  type        = number
  default     = 50000
  description = "Records per partition."
}

source "generate" "orders" {
  partitions            = 4
  records_per_partition = var.records
  payload_bytes         = 16
}

sink "orders" {
  source = source.generate.orders
  format = "jsonl"

  batch {
    max_records = 60000
  }

  destination "local" "lake" {
    path = "out/lake"
  }

  destination "local" "archive" {
    path = "out/archive"
  }
}
