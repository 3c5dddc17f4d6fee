//! The string enums of the public API, each with its exact wire values.
//!
//! One `wire_enum!` line per enum keeps the accepted values in one table, so a bad
//! value is rejected with the full list Airbyte would accept. No behaviour lives here.

use serde::{Deserialize, Serialize};

/// A string enum of the API, for generic parsing with good error messages.
pub trait WireEnum: Sized {
    /// Every accepted wire value.
    const ALL: &'static [&'static str];
    /// Parses a wire value.
    fn parse(value: &str) -> Option<Self>;
}

macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $wire:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum $name {
            $(#[serde(rename = $wire)] $variant),+
        }

        impl $name {
            /// Every wire value, in declaration order.
            pub const ALL: &'static [&'static str] = &[$($wire),+];

            /// The wire value.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $wire),+
                }
            }

            /// Parses a wire value (exact, case-sensitive, as Airbyte does).
            pub fn parse(value: &str) -> Option<Self> {
                match value {
                    $($wire => Some(Self::$variant),)+
                    _ => None,
                }
            }
        }

        impl WireEnum for $name {
            const ALL: &'static [&'static str] = $name::ALL;

            fn parse(value: &str) -> Option<Self> {
                $name::parse(value)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

wire_enum!(
    /// How a stream is read and written (`ConnectionSyncModeEnum`).
    SyncMode {
        FullRefreshOverwrite = "full_refresh_overwrite",
        FullRefreshAppend = "full_refresh_append",
        IncrementalAppend = "incremental_append",
        IncrementalDedupedHistory = "incremental_deduped_history",
    }
);

impl SyncMode {
    /// Incremental modes need a cursor field.
    pub fn is_incremental(self) -> bool {
        matches!(
            self,
            Self::IncrementalAppend | Self::IncrementalDedupedHistory
        )
    }

    /// Deduplicating modes need a primary key.
    pub fn is_deduped(self) -> bool {
        matches!(self, Self::IncrementalDedupedHistory)
    }
}

wire_enum!(
    /// Connection status (`ConnectionStatusEnum`).
    ConnectionStatus { Active = "active", Inactive = "inactive", Deprecated = "deprecated" }
);

wire_enum!(
    /// Where the data of a connection lives (`GeographyEnum`).
    DataResidency { Auto = "auto", Us = "us", Eu = "eu" }
);

wire_enum!(
    /// Namespace of the written tables (`NamespaceDefinitionEnum`).
    NamespaceDefinition { Source = "source", Destination = "destination", CustomFormat = "custom_format" }
);

wire_enum!(
    /// Reaction to non-breaking schema changes (`NonBreakingSchemaUpdatesBehaviorEnum`).
    NonBreakingBehavior {
        Ignore = "ignore",
        DisableConnection = "disable_connection",
        PropagateColumns = "propagate_columns",
        PropagateFully = "propagate_fully",
    }
);

wire_enum!(
    /// Schedule type of a connection (`ScheduleTypeEnum`).
    ScheduleType { Manual = "manual", Cron = "cron" }
);

wire_enum!(
    /// Job status (`JobStatusEnum`).
    JobStatus {
        Pending = "pending",
        Running = "running",
        Incomplete = "incomplete",
        Failed = "failed",
        Succeeded = "succeeded",
        Cancelled = "cancelled",
    }
);

impl JobStatus {
    /// A job in this status will not change any more.
    pub fn is_terminal(self) -> bool {
        matches!(self, Self::Failed | Self::Succeeded | Self::Cancelled)
    }
}

wire_enum!(
    /// Job type (`JobTypeEnum`); `refresh` and `clear` are accepted on input only.
    JobType { Sync = "sync", Reset = "reset", Refresh = "refresh", Clear = "clear" }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_values_round_trip() {
        for value in SyncMode::ALL {
            let mode = SyncMode::parse(value).map(SyncMode::as_str);
            assert_eq!(mode, Some(*value));
        }
        assert_eq!(SyncMode::parse("full_refresh"), None);
        assert_eq!(JobStatus::parse("Succeeded"), None);
    }

    #[test]
    fn serde_uses_the_wire_values() {
        let json = serde_json::to_string(&NamespaceDefinition::CustomFormat).unwrap_or_default();
        assert_eq!(json, "\"custom_format\"");
        assert!(JobStatus::Cancelled.is_terminal());
        assert!(!JobStatus::Running.is_terminal());
    }
}
