//! Destination resources of provider 0.6.5: duckdb (the local warehouse) and
//! snowflake (accepted by the schema, rejected at validate/plan/apply because
//! the local warehouse is DuckDB).

use super::sources::{DEFINITION_ID, NAME, WORKSPACE_ID};
use super::{Attr, Kind, ResourceSchema, Support, b, n, obj, s, variant};

const DESTINATION_ID: Attr = s("destination_id").computed();
const DESTINATION_TYPE: Attr = s("destination_type").computed();

const DUCKDB_CONFIG: &[Attr] = &[
    s("destination_path").req(),
    s("motherduck_api_key").sens(),
    s("schema"),
];

pub(crate) const DUCKDB: ResourceSchema = ResourceSchema {
    type_name: "airbyte_destination_duckdb",
    kind: Kind::Destination("duckdb"),
    attrs: &[
        obj("configuration", DUCKDB_CONFIG).req(),
        DEFINITION_ID,
        DESTINATION_ID,
        DESTINATION_TYPE,
        NAME,
        WORKSPACE_ID,
    ],
    support: Support::Full,
};

const SNOWFLAKE_CREDENTIALS: &[Attr] = &[
    variant(
        "key_pair_authentication",
        "auth_type",
        "Key Pair Authentication",
        &[
            s("private_key").req().sens(),
            s("private_key_password").sens(),
        ],
    ),
    variant(
        "o_auth20",
        "auth_type",
        "OAuth2.0",
        &[
            s("access_token").req().sens(),
            s("client_id").sens(),
            s("client_secret").sens(),
            s("refresh_token").req().sens(),
        ],
    ),
    variant(
        "username_and_password",
        "auth_type",
        "Username and Password",
        &[s("password").req().sens()],
    ),
];

const SNOWFLAKE_CONFIG: &[Attr] = &[
    obj("credentials", SNOWFLAKE_CREDENTIALS).union(),
    s("database").req(),
    b("disable_type_dedupe").def_b(false),
    s("host").req(),
    s("jdbc_url_params"),
    s("raw_data_schema"),
    n("retention_period_days").def_n(1),
    s("role").req(),
    s("schema").req(),
    b("use_merge_for_upsert").def_b(false),
    s("username").req(),
    s("warehouse").req(),
];

const SNOWFLAKE_REJECTED: &str = "Unsupported destination for the local environment";
const SNOWFLAKE_DETAIL: &str =
    "This environment runs the warehouse locally on DuckDB, not on Snowflake, so \
airbyte_destination_snowflake cannot be created here. Declare the destination with \
airbyte_destination_duckdb instead, for example:

  resource \"airbyte_destination_duckdb\" \"warehouse\" {
    name         = \"duckdb\"
    workspace_id = var.workspace_id
    configuration = {
      destination_path = \"<the DuckDB database path from config.yaml>\"
      schema           = \"airbyte_schema\"
    }
  }

and point each airbyte_connection's destination_id at \
airbyte_destination_duckdb.warehouse.destination_id.";

pub(crate) const SNOWFLAKE: ResourceSchema = ResourceSchema {
    type_name: "airbyte_destination_snowflake",
    kind: Kind::Destination("snowflake"),
    attrs: &[
        obj("configuration", SNOWFLAKE_CONFIG).req(),
        DEFINITION_ID,
        DESTINATION_ID,
        DESTINATION_TYPE,
        NAME,
        WORKSPACE_ID,
    ],
    support: Support::Rejected(SNOWFLAKE_REJECTED, SNOWFLAKE_DETAIL),
};
