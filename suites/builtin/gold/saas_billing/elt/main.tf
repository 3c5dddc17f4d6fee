# Gold pipeline of the saas_billing task: every table of config.yaml extracted once into
# airbyte_schema. Values that differ per trial (ports, URLs, the warehouse path) are
# double-brace tokens that the oracle fills from the trial's config.yaml.

terraform {
  required_providers {
    airbyte = {
      source  = "airbytehq/airbyte"
      version = "0.6.5"
    }
  }
}

provider "airbyte" {
  server_url = "{{airbyte_url}}"
  username   = "airbyte"
  password   = "password"
}

variable "workspace_id" {
  type    = string
  default = "{{config.Airbyte.config.workspace_id}}"
}

resource "airbyte_destination_duckdb" "warehouse" {
  name         = "duckdb"
  workspace_id = var.workspace_id
  configuration = {
    destination_path = "{{warehouse_path}}"
    schema           = "airbyte_schema"
  }
}

resource "airbyte_source_postgres" "postgres" {
  name         = "postgres"
  workspace_id = var.workspace_id
  configuration = {
    host     = "127.0.0.1"
    port     = {{config.postgres.config.port}}
    database = "saas_billing"
    username = "postgres"
    password = "testelt"
    schemas  = ["public"]
    ssl_mode = {
      disable = {}
    }
    replication_method = {
      scan_changes_with_user_defined_cursor = {}
    }
    tunnel_method = {
      no_tunnel = {}
    }
  }
}

resource "airbyte_source_mongodb_v2" "mongodb" {
  name         = "mongodb"
  workspace_id = var.workspace_id
  configuration = {
    database_config = {
      self_managed_replica_set = {
        connection_string = "{{config.mongodb.config.connection_string}}"
        database          = "saas_billing"
      }
    }
  }
}

resource "airbyte_source_custom" "custom_api" {
  name          = "custom_api"
  workspace_id  = var.workspace_id
  definition_id = "8d5f1c3e-2b7a-4e6f-9c1d-5a4b3e2f1d0c"
  configuration = jsonencode({ "base_url" = "{{config.custom_api.config.base_url}}", "database" = "saas_billing", "streams" = ["payments"] })
}

resource "airbyte_source_s3" "s3_saas_billing_bucket" {
  name         = "s3_saas_billing_bucket"
  workspace_id = var.workspace_id
  configuration = {
    bucket                = "saas-billing-bucket"
    endpoint              = "{{config.aws_s3.AWS_ENDPOINT_URL}}"
    region_name           = "us-west-2"
    aws_access_key_id     = "test"
    aws_secret_access_key = "test"
    streams = [
      { name = "usage_events", globs = ["usage_events.csv"], format = { csv_format = {} } },
    ]
  }
}

resource "airbyte_source_file" "file_plans" {
  name         = "file_plans"
  workspace_id = var.workspace_id
  configuration = {
    dataset_name = "plans"
    format       = "csv"
    url          = "{{config.flat_files.0.path}}"
    provider = {
      https_public_web = {}
    }
  }
}

resource "airbyte_source_file" "file_support_tickets" {
  name         = "file_support_tickets"
  workspace_id = var.workspace_id
  configuration = {
    dataset_name = "support_tickets"
    format       = "jsonl"
    url          = "{{config.flat_files.1.path}}"
    provider = {
      https_public_web = {}
    }
  }
}

resource "airbyte_connection" "postgres" {
  name                 = "postgres to duckdb"
  source_id            = airbyte_source_postgres.postgres.source_id
  destination_id       = airbyte_destination_duckdb.warehouse.destination_id
  namespace_definition = "destination"
  configurations = {
    streams = [
      { name = "accounts", sync_mode = "full_refresh_append" },
      { name = "subscriptions", sync_mode = "full_refresh_append" },
    ]
  }
}

resource "airbyte_connection" "mongodb" {
  name                 = "mongodb to duckdb"
  source_id            = airbyte_source_mongodb_v2.mongodb.source_id
  destination_id       = airbyte_destination_duckdb.warehouse.destination_id
  namespace_definition = "destination"
  configurations = {
    streams = [
      { name = "invoices", sync_mode = "full_refresh_append" },
    ]
  }
}

resource "airbyte_connection" "custom_api" {
  name                 = "custom_api to duckdb"
  source_id            = airbyte_source_custom.custom_api.source_id
  destination_id       = airbyte_destination_duckdb.warehouse.destination_id
  namespace_definition = "destination"
  configurations = {
    streams = [
      { name = "payments", sync_mode = "full_refresh_append" },
    ]
  }
}

resource "airbyte_connection" "s3_saas_billing_bucket" {
  name                 = "s3_saas_billing_bucket to duckdb"
  source_id            = airbyte_source_s3.s3_saas_billing_bucket.source_id
  destination_id       = airbyte_destination_duckdb.warehouse.destination_id
  namespace_definition = "destination"
  configurations = {
    streams = [
      { name = "usage_events", sync_mode = "full_refresh_append" },
    ]
  }
}

resource "airbyte_connection" "file_plans" {
  name                 = "file_plans to duckdb"
  source_id            = airbyte_source_file.file_plans.source_id
  destination_id       = airbyte_destination_duckdb.warehouse.destination_id
  namespace_definition = "destination"
  configurations = {
    streams = [
      { name = "plans", sync_mode = "full_refresh_append" },
    ]
  }
}

resource "airbyte_connection" "file_support_tickets" {
  name                 = "file_support_tickets to duckdb"
  source_id            = airbyte_source_file.file_support_tickets.source_id
  destination_id       = airbyte_destination_duckdb.warehouse.destination_id
  namespace_definition = "destination"
  configurations = {
    streams = [
      { name = "support_tickets", sync_mode = "full_refresh_append" },
    ]
  }
}
