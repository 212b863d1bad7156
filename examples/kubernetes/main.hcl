# Three topics landed in one S3 lake by several workers over one remote
# state. Each worker takes the sinks no other live worker holds (a lease lock
# per sink in the state's bucket) and skips the others: started together, the
# workers share the sinks; one killed, its sinks' leases expire and the next
# run takes them over.
streamctl {
  state "s3" {
    bucket = "ops"
    key    = "streamctl/lake.json"
  }
}

source "kafka" "orders" {
  brokers = ["kafka.data.svc:9092"]
  topic   = "orders"
}

source "kafka" "payments" {
  brokers = ["kafka.data.svc:9092"]
  topic   = "payments"
}

source "kafka" "shipments" {
  brokers = ["kafka.data.svc:9092"]
  topic   = "shipments"
}

# The largest topic: its partitions are split into four shards, each with its
# own checkpoint and lock, so that four pods write it at once.
sink "orders" {
  source = source.kafka.orders
  shards = 4

  destination "s3" "lake" {
    bucket = "lake"
    prefix = "orders"
  }
}

sink "payments" {
  source = source.kafka.payments

  destination "s3" "lake" {
    bucket = "lake"
    prefix = "payments"
  }
}

sink "shipments" {
  source = source.kafka.shipments

  destination "s3" "lake" {
    bucket = "lake"
    prefix = "shipments"
  }
}
