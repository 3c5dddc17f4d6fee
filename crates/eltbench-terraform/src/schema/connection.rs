//! The airbyte_connection resource of provider 0.6.5. Its attributes are sent
//! as camelCase API fields (`sourceId`, `namespaceDefinition`, `syncMode`...).

use super::{Attr, Kind, ResourceSchema, Support, Ty, obj, s, sl};

const SELECTED_FIELD: &[Attr] = &[sl("field_path").opt_computed()];

const STREAM: &[Attr] = &[
    sl("cursor_field").opt_computed(),
    s("name").opt_computed(),
    s("primary_key").opt_computed().ty(Ty::StringListList),
    s("selected_fields")
        .opt_computed()
        .ty(Ty::ListNested(SELECTED_FIELD)),
    s("sync_mode").opt_computed().one_of(&[
        "full_refresh_overwrite",
        "full_refresh_append",
        "incremental_append",
        "incremental_deduped_history",
    ]),
];

const CONFIGURATIONS: &[Attr] = &[s("streams").opt_computed().ty(Ty::SetNested(STREAM))];

const SCHEDULE: &[Attr] = &[
    s("basic_timing").computed(),
    s("cron_expression").opt_computed(),
    s("schedule_type")
        .opt_computed()
        .one_of(&["manual", "cron"]),
];

pub(crate) const CONNECTION: ResourceSchema = ResourceSchema {
    type_name: "airbyte_connection",
    kind: Kind::Connection,
    attrs: &[
        obj("configurations", CONFIGURATIONS).opt_computed(),
        s("connection_id").computed(),
        s("data_residency")
            .def_s("auto")
            .one_of(&["auto", "us", "eu"]),
        s("destination_id").req().replace(),
        s("name").opt_computed(),
        s("namespace_definition").def_s("destination").one_of(&[
            "source",
            "destination",
            "custom_format",
        ]),
        s("namespace_format").opt_computed(),
        s("non_breaking_schema_updates_behavior")
            .def_s("ignore")
            .one_of(&[
                "ignore",
                "disable_connection",
                "propagate_columns",
                "propagate_fully",
            ]),
        s("prefix").opt_computed(),
        obj("schedule", SCHEDULE).opt_computed(),
        s("source_id").req().replace(),
        s("status")
            .opt_computed()
            .one_of(&["active", "inactive", "deprecated"]),
        s("workspace_id").computed(),
    ],
    support: Support::Full,
};
