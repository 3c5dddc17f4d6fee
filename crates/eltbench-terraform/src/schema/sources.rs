//! Source resources of provider 0.6.5: postgres, mongodb_v2, s3, file, custom.
//! Discriminators (`sourceType`, `mode`, `method`, `tunnel_method`,
//! `cluster_type`, `filetype`, `storage`...) are the constants the provider's
//! SDK sends for each variant.

use super::{Attr, Kind, ResourceSchema, Support, Ty, b, n, obj, s, sl, variant};

pub(crate) const DEFINITION_ID: Attr = s("definition_id").replace();
pub(crate) const NAME: Attr = s("name").req();
pub(crate) const WORKSPACE_ID: Attr = s("workspace_id").req();
const SECRET_ID: Attr = s("secret_id").replace();
const SOURCE_ID: Attr = s("source_id").computed();
const SOURCE_TYPE: Attr = s("source_type").computed();

const ADDITIONAL: Attr = s("additional_properties").merge_parsed();
const CDC_BEHAVIOR: &[&str] = &["Fail sync", "Re-sync data"];

// ---- airbyte_source_postgres -------------------------------------------------

const PG_CDC: &[Attr] = &[
    ADDITIONAL,
    s("heartbeat_action_query").def_s(""),
    n("initial_load_timeout_hours").def_n(8),
    n("initial_waiting_seconds").def_n(1200),
    s("invalid_cdc_cursor_position_behavior")
        .def_s("Fail sync")
        .one_of(CDC_BEHAVIOR),
    s("lsn_commit_behaviour")
        .def_s("After loading Data in the destination")
        .one_of(&[
            "While reading Data",
            "After loading Data in the destination",
        ]),
    s("plugin").def_s("pgoutput").one_of(&["pgoutput"]),
    s("publication").req(),
    n("queue_size").def_n(10000),
    s("replication_slot").req(),
];

const PG_REPLICATION: &[Attr] = &[
    variant(
        "detect_changes_with_xmin_system_column",
        "method",
        "Xmin",
        &[],
    ),
    variant(
        "read_changes_using_write_ahead_log_cdc",
        "method",
        "CDC",
        PG_CDC,
    ),
    variant(
        "scan_changes_with_user_defined_cursor",
        "method",
        "Standard",
        &[],
    ),
];

const PG_SSL_PLAIN: &[Attr] = &[ADDITIONAL];
const PG_SSL_VERIFY: &[Attr] = &[
    ADDITIONAL,
    s("ca_certificate").req().sens(),
    s("client_certificate").sens(),
    s("client_key").sens(),
    s("client_key_password").sens(),
];

const PG_SSL: &[Attr] = &[
    variant("allow", "mode", "allow", PG_SSL_PLAIN),
    variant("disable", "mode", "disable", PG_SSL_PLAIN),
    variant("prefer", "mode", "prefer", PG_SSL_PLAIN),
    variant("require", "mode", "require", PG_SSL_PLAIN),
    variant("verify_ca", "mode", "verify-ca", PG_SSL_VERIFY),
    variant("verify_full", "mode", "verify-full", PG_SSL_VERIFY),
];

/// The SSH tunnel choice shared by database sources.
pub(crate) const TUNNEL: &[Attr] = &[
    variant("no_tunnel", "tunnel_method", "NO_TUNNEL", &[]),
    variant(
        "password_authentication",
        "tunnel_method",
        "SSH_PASSWORD_AUTH",
        &[
            s("tunnel_host").req(),
            n("tunnel_port").def_n(22),
            s("tunnel_user").req(),
            s("tunnel_user_password").req().sens(),
        ],
    ),
    variant(
        "ssh_key_authentication",
        "tunnel_method",
        "SSH_KEY_AUTH",
        &[
            s("ssh_key").req().sens(),
            s("tunnel_host").req(),
            n("tunnel_port").def_n(22),
            s("tunnel_user").req(),
        ],
    ),
];

const PG_CONFIG: &[Attr] = &[
    s("database").req(),
    s("host").req(),
    s("jdbc_url_params"),
    s("password").sens(),
    n("port").def_n(5432),
    obj("replication_method", PG_REPLICATION).union(),
    sl("schemas"),
    obj("ssl_mode", PG_SSL).union(),
    obj("tunnel_method", TUNNEL).union(),
    s("username").req(),
];

pub(crate) const POSTGRES: ResourceSchema = ResourceSchema {
    type_name: "airbyte_source_postgres",
    kind: Kind::Source(Some("postgres")),
    attrs: &[
        obj("configuration", PG_CONFIG).req(),
        DEFINITION_ID,
        NAME,
        SECRET_ID,
        SOURCE_ID,
        SOURCE_TYPE,
        WORKSPACE_ID,
    ],
    support: Support::Full,
};

// ---- airbyte_source_mongodb_v2 -----------------------------------------------

const MONGO_CLUSTER: &[Attr] = &[
    variant(
        "mongo_db_atlas_replica_set",
        "cluster_type",
        "ATLAS_REPLICA_SET",
        &[
            ADDITIONAL,
            s("auth_source").def_s("admin"),
            s("connection_string").req(),
            s("database").req(),
            s("password").req().sens(),
            b("schema_enforced").def_b(true),
            s("username").req(),
        ],
    ),
    variant(
        "self_managed_replica_set",
        "cluster_type",
        "SELF_MANAGED_REPLICA_SET",
        &[
            ADDITIONAL,
            s("auth_source").def_s("admin"),
            s("connection_string").req(),
            s("database").req(),
            s("password").sens(),
            b("schema_enforced").def_b(true),
            s("username"),
        ],
    ),
];

const MONGO_CONFIG: &[Attr] = &[
    obj("database_config", MONGO_CLUSTER).req().union(),
    n("discover_sample_size").def_n(10000),
    n("initial_load_timeout_hours").def_n(8),
    n("initial_waiting_seconds").def_n(300),
    s("invalid_cdc_cursor_position_behavior")
        .def_s("Fail sync")
        .one_of(CDC_BEHAVIOR),
    n("queue_size").def_n(10000),
    s("update_capture_mode")
        .def_s("Lookup")
        .one_of(&["Lookup", "Post Image"]),
];

pub(crate) const MONGODB_V2: ResourceSchema = ResourceSchema {
    type_name: "airbyte_source_mongodb_v2",
    kind: Kind::Source(Some("mongodb-v2")),
    attrs: &[
        obj("configuration", MONGO_CONFIG).req(),
        DEFINITION_ID,
        NAME,
        SECRET_ID,
        SOURCE_ID,
        SOURCE_TYPE,
        WORKSPACE_ID,
    ],
    support: Support::Full,
};

// ---- airbyte_source_s3 ---------------------------------------------------------

const S3_HEADER: &[Attr] = &[
    variant(
        "autogenerated",
        "header_definition_type",
        "Autogenerated",
        &[],
    ),
    variant("from_csv", "header_definition_type", "From CSV", &[]),
    variant(
        "user_provided",
        "header_definition_type",
        "User Provided",
        &[sl("column_names").req()],
    ),
];

const S3_CSV: &[Attr] = &[
    s("delimiter").def_s(","),
    b("double_quote").def_b(true),
    s("encoding").def_s("utf8"),
    s("escape_char"),
    sl("false_values"),
    obj("header_definition", S3_HEADER).union(),
    b("ignore_errors_on_fields_mismatch").def_b(false),
    sl("null_values"),
    s("quote_char").def_s("\""),
    n("skip_rows_after_header").def_n(0),
    n("skip_rows_before_header").def_n(0),
    b("strings_can_be_null").def_b(true),
    sl("true_values"),
];

const S3_FORMAT: &[Attr] = &[
    variant(
        "avro_format",
        "filetype",
        "avro",
        &[b("double_as_string").def_b(false)],
    ),
    variant("csv_format", "filetype", "csv", S3_CSV),
    variant("jsonl_format", "filetype", "jsonl", &[]),
    variant(
        "parquet_format",
        "filetype",
        "parquet",
        &[b("decimal_as_float").def_b(false)],
    ),
    variant(
        "unstructured_document_format",
        "filetype",
        "unstructured",
        &[
            obj("processing", &[variant("local", "mode", "local", &[])]).union(),
            b("skip_unprocessable_files").def_b(true),
            s("strategy")
                .def_s("auto")
                .one_of(&["auto", "fast", "ocr_only", "hi_res"]),
        ],
    ),
];

const S3_STREAM: &[Attr] = &[
    n("days_to_sync_if_history_is_full").def_n(3),
    obj("format", S3_FORMAT).req().union(),
    sl("globs").req(),
    s("input_schema"),
    s("name").req(),
    n("recent_n_files_to_read_for_schema_discovery"),
    b("schemaless").def_b(false),
    s("validation_policy").def_s("Emit Record").one_of(&[
        "Emit Record",
        "Skip Record",
        "Wait for Discover",
    ]),
];

const S3_CONFIG: &[Attr] = &[
    s("aws_access_key_id").sens(),
    s("aws_secret_access_key").sens(),
    s("bucket").req(),
    s("endpoint").def_s(""),
    s("region_name"),
    s("role_arn"),
    s("start_date"),
    s("streams").req().ty(Ty::ListNested(S3_STREAM)),
];

pub(crate) const S3: ResourceSchema = ResourceSchema {
    type_name: "airbyte_source_s3",
    kind: Kind::Source(Some("s3")),
    attrs: &[
        obj("configuration", S3_CONFIG).req(),
        DEFINITION_ID,
        NAME,
        SECRET_ID,
        SOURCE_ID,
        SOURCE_TYPE,
        WORKSPACE_ID,
    ],
    support: Support::Full,
};

// ---- airbyte_source_file -------------------------------------------------------

const FILE_REMOTE: &[Attr] = &[
    s("host").req(),
    s("password").sens(),
    s("port").def_s("22"),
    s("user").req(),
];

const FILE_PROVIDER: &[Attr] = &[
    variant(
        "az_blob_azure_blob_storage",
        "storage",
        "AzBlob",
        &[
            s("sas_token").sens(),
            s("shared_key").sens(),
            s("storage_account").req(),
        ],
    ),
    variant(
        "gcs_google_cloud_storage",
        "storage",
        "GCS",
        &[s("service_account_json").sens()],
    ),
    variant(
        "https_public_web",
        "storage",
        "HTTPS",
        &[b("user_agent").def_b(false)],
    ),
    variant("local_filesystem_limited", "storage", "local", &[]),
    variant(
        "s3_amazon_web_services",
        "storage",
        "S3",
        &[s("aws_access_key_id"), s("aws_secret_access_key").sens()],
    ),
    variant("scp_secure_copy_protocol", "storage", "SCP", FILE_REMOTE),
    variant(
        "sftp_secure_file_transfer_protocol",
        "storage",
        "SFTP",
        FILE_REMOTE,
    ),
    variant("ssh_secure_shell", "storage", "SSH", FILE_REMOTE),
];

const FILE_CONFIG: &[Attr] = &[
    s("dataset_name").req(),
    s("format").def_s("csv").one_of(&[
        "csv",
        "json",
        "jsonl",
        "excel",
        "excel_binary",
        "fwf",
        "feather",
        "parquet",
        "yaml",
    ]),
    obj("provider", FILE_PROVIDER).req().union(),
    s("reader_options"),
    s("url").req(),
];

pub(crate) const FILE: ResourceSchema = ResourceSchema {
    type_name: "airbyte_source_file",
    kind: Kind::Source(Some("file")),
    attrs: &[
        obj("configuration", FILE_CONFIG).req(),
        DEFINITION_ID,
        NAME,
        SECRET_ID,
        SOURCE_ID,
        SOURCE_TYPE,
        WORKSPACE_ID,
    ],
    support: Support::Full,
};

// ---- airbyte_source_custom -----------------------------------------------------

pub(crate) const CUSTOM: ResourceSchema = ResourceSchema {
    type_name: "airbyte_source_custom",
    kind: Kind::Source(None),
    attrs: &[
        s("configuration").req().parsed(),
        DEFINITION_ID,
        NAME,
        SECRET_ID,
        SOURCE_ID,
        SOURCE_TYPE,
        WORKSPACE_ID,
    ],
    support: Support::Full,
};
