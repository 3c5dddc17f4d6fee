# Gold pipeline of the bike_rental task: every table of config.yaml extracted once into
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
    database = "bike_rental"
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
        database          = "bike_rental"
      }
    }
  }
}

resource "airbyte_source_custom" "custom_api" {
  name          = "custom_api"
  workspace_id  = var.workspace_id
  definition_id = "8d5f1c3e-2b7a-4e6f-9c1d-5a4b3e2f1d0c"
  configuration = jsonencode({ "base_url" = "{{config.custom_api.config.base_url}}", "database" = "bike_rental", "streams" = ["trips"] })
}

resource "airbyte_source_s3" "s3_bike_rental_bucket" {
  name         = "s3_bike_rental_bucket"
  workspace_id = var.workspace_id
  configuration = {
    bucket                = "bike-rental-bucket"
    endpoint              = "{{config.aws_s3.AWS_ENDPOINT_URL}}"
    region_name           = "us-west-2"
    aws_access_key_id     = "test"
    aws_secret_access_key = "test"
    streams = [
      { name = "maintenance_logs", globs = ["maintenance_logs.csv"], format = { csv_format = {} } },
    ]
  }
}

resource "airbyte_source_file" "file_weather_days" {
  name         = "file_weather_days"
  workspace_id = var.workspace_id
  configuration = {
    dataset_name = "weather_days"
    format       = "csv"
    url          = "{{config.flat_files.0.path}}"
    provider = {
      https_public_web = {}
    }
  }
}

resource "airbyte_source_file" "file_fare_rules" {
  name         = "file_fare_rules"
  workspace_id = var.workspace_id
  configuration = {
    dataset_name = "fare_rules"
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
      { name = "stations", sync_mode = "full_refresh_append" },
      { name = "bikes", sync_mode = "full_refresh_append" },
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
      { name = "riders", sync_mode = "full_refresh_append" },
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
      { name = "trips", sync_mode = "full_refresh_append" },
    ]
  }
}

resource "airbyte_connection" "s3_bike_rental_bucket" {
  name                 = "s3_bike_rental_bucket to duckdb"
  source_id            = airbyte_source_s3.s3_bike_rental_bucket.source_id
  destination_id       = airbyte_destination_duckdb.warehouse.destination_id
  namespace_definition = "destination"
  configurations = {
    streams = [
      { name = "maintenance_logs", sync_mode = "full_refresh_append" },
    ]
  }
}

resource "airbyte_connection" "file_weather_days" {
  name                 = "file_weather_days to duckdb"
  source_id            = airbyte_source_file.file_weather_days.source_id
  destination_id       = airbyte_destination_duckdb.warehouse.destination_id
  namespace_definition = "destination"
  configurations = {
    streams = [
      { name = "weather_days", sync_mode = "full_refresh_append" },
    ]
  }
}

resource "airbyte_connection" "file_fare_rules" {
  name                 = "file_fare_rules to duckdb"
  source_id            = airbyte_source_file.file_fare_rules.source_id
  destination_id       = airbyte_destination_duckdb.warehouse.destination_id
  namespace_definition = "destination"
  configurations = {
    streams = [
      { name = "fare_rules", sync_mode = "full_refresh_append" },
    ]
  }
}
