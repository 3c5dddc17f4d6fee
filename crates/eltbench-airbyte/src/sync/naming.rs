//! Where a stream lands: Airbyte's name normalisation (lower case, anything but ASCII
//! letters, digits and `_` becomes `_`, a leading digit gets a `_`) and the connection's
//! namespace rules (`destination`, `source`, `custom_format` with `${SOURCE_NAMESPACE}`).
//!
//! Pure functions; this module must never touch the warehouse.

use crate::enums::NamespaceDefinition;
use crate::model::Connection;

/// Normalises a table, column or schema name as Airbyte's DuckDB destination does.
pub fn normalize_name(name: &str) -> String {
    let mut out: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// The schema a stream of `source_namespace` lands in for this connection, given the
/// destination's default schema.
pub fn target_schema(
    connection: &Connection,
    destination_schema: &str,
    source_namespace: Option<&str>,
) -> String {
    let raw = match connection.namespace_definition {
        NamespaceDefinition::Destination => destination_schema.to_owned(),
        NamespaceDefinition::Source => source_namespace.unwrap_or(destination_schema).to_owned(),
        NamespaceDefinition::CustomFormat => {
            custom_format(connection, destination_schema, source_namespace)
        }
    };
    normalize_name(&raw)
}

fn custom_format(
    connection: &Connection,
    destination_schema: &str,
    source_namespace: Option<&str>,
) -> String {
    match connection.namespace_format.as_deref().map(str::trim) {
        None | Some("") => destination_schema.to_owned(),
        Some(format) => {
            let formatted =
                format.replace("${SOURCE_NAMESPACE}", source_namespace.unwrap_or_default());
            if formatted.trim().is_empty() {
                destination_schema.to_owned()
            } else {
                formatted
            }
        }
    }
}

/// The final table of a stream: the connection's prefix + the stream name, normalised.
pub fn target_table(connection: &Connection, stream: &str) -> String {
    normalize_name(&format!("{}{stream}", connection.prefix))
}

/// Quotes an identifier for DuckDB.
pub fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Quotes a string literal for DuckDB.
pub fn quote_literal(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::{ConnectionStatus, DataResidency, NonBreakingBehavior, ScheduleType};
    use crate::model::Schedule;

    fn connection(definition: NamespaceDefinition, format: Option<&str>) -> Connection {
        Connection {
            id: "c".into(),
            name: "c".into(),
            source_id: "s".into(),
            destination_id: "d".into(),
            workspace_id: "w".into(),
            status: ConnectionStatus::Active,
            schedule: Schedule {
                schedule_type: ScheduleType::Manual,
                cron_expression: None,
            },
            data_residency: DataResidency::Auto,
            non_breaking_schema_updates_behavior: NonBreakingBehavior::Ignore,
            namespace_definition: definition,
            namespace_format: format.map(str::to_owned),
            prefix: "raw_".into(),
            streams: Vec::new(),
            configured_streams: Vec::new(),
            created_at: 0,
            seq: 0,
            deleted: false,
        }
    }

    #[test]
    fn names_are_normalised_like_airbyte() {
        assert_eq!(normalize_name("CBSA"), "cbsa");
        assert_eq!(normalize_name("Order Items-2"), "order_items_2");
        assert_eq!(normalize_name("2021_sales"), "_2021_sales");
    }

    #[test]
    fn namespaces_follow_the_connection() {
        let dest = connection(NamespaceDefinition::Destination, None);
        assert_eq!(
            target_schema(&dest, "airbyte_schema", Some("public")),
            "airbyte_schema"
        );
        let source = connection(NamespaceDefinition::Source, None);
        assert_eq!(
            target_schema(&source, "airbyte_schema", Some("public")),
            "public"
        );
        assert_eq!(target_schema(&source, "main", None), "main");
        let custom = connection(
            NamespaceDefinition::CustomFormat,
            Some("raw_${SOURCE_NAMESPACE}"),
        );
        assert_eq!(target_schema(&custom, "main", Some("Public")), "raw_public");
        let blank = connection(NamespaceDefinition::CustomFormat, Some(""));
        assert_eq!(target_schema(&blank, "main", Some("public")), "main");
        assert_eq!(target_table(&dest, "Users"), "raw_users");
    }
}
