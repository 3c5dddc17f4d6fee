//! JSON Lines and JSON documents: records are objects; top-level keys are columns, and
//! a column's type is inferred from its values (integers, numbers, booleans, strings;
//! objects and arrays are JSON), as the file-based CDK infers JSONL schemas.

use bytes::Bytes;
use serde_json::{Map, Value};

use super::Extras;
use super::wider;
use crate::sync::connector::BatchSink;
use crate::sync::error::ConnectorError;
use crate::sync::records::{BATCH_ROWS, RowBatchBuilder};
use crate::sync::typing::{AirbyteType, ColumnSpec, StreamSchema};

/// The records of a file, with the file's size for byte counts.
pub struct Records {
    pub rows: Vec<Map<String, Value>>,
    pub bytes: u64,
}

/// Parses an array of objects, one object, or one object per line.
pub fn records(bytes: &Bytes, name: &str) -> Result<Records, ConnectorError> {
    let text = String::from_utf8_lossy(bytes);
    let trimmed = text.trim_start();
    let rows = if trimmed.starts_with('[') {
        let value: Value = serde_json::from_str(trimmed)
            .map_err(|e| ConnectorError::Data(format!("Could not parse JSON file {name}: {e}")))?;
        objects(value, name)?
    } else {
        match serde_json::from_str::<Map<String, Value>>(trimmed) {
            Ok(one) => vec![one],
            Err(_) => lines(&text, name)?,
        }
    };
    Ok(Records {
        rows,
        bytes: bytes.len() as u64,
    })
}

/// Records from an already parsed JSON value (the REST API's response).
pub fn objects(value: Value, name: &str) -> Result<Vec<Map<String, Value>>, ConnectorError> {
    let items = match value {
        Value::Array(items) => items,
        Value::Object(one) => return Ok(vec![one]),
        other => {
            return Err(ConnectorError::Data(format!(
                "Expected JSON records in {name}, got {}",
                kind(&other)
            )));
        }
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::Object(map) => Ok(map),
            other => Err(ConnectorError::Data(format!(
                "Record {i} of {name} is {}, not a JSON object",
                kind(&other)
            ))),
        })
        .collect()
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn lines(text: &str, name: &str) -> Result<Vec<Map<String, Value>>, ConnectorError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str::<Map<String, Value>>(line).map_err(|e| {
                ConnectorError::Data(format!(
                    "Could not parse JSON Lines file {name}: line {}: {e}",
                    i + 1
                ))
            })
        })
        .collect()
}

/// The Airbyte type of one non-null JSON value.
pub fn value_type(value: &Value) -> Option<AirbyteType> {
    match value {
        Value::Null => None,
        Value::Bool(_) => Some(AirbyteType::Boolean),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(AirbyteType::Integer),
        Value::Number(_) => Some(AirbyteType::Number),
        Value::String(_) => Some(AirbyteType::String),
        Value::Array(_) | Value::Object(_) => Some(AirbyteType::Json),
    }
}

/// Columns in first-seen key order; all-null columns are strings.
pub fn infer(records: &Records) -> Result<StreamSchema, ConnectorError> {
    let mut columns: Vec<(String, Option<AirbyteType>)> = Vec::new();
    for row in &records.rows {
        for (key, value) in row {
            let ty = value_type(value);
            match columns.iter_mut().find(|(k, _)| k == key) {
                Some((_, existing)) => {
                    *existing = match (*existing, ty) {
                        (Some(a), Some(b)) => Some(wider(a, b)),
                        (a, b) => a.or(b),
                    }
                }
                None => columns.push((key.clone(), ty)),
            }
        }
    }
    Ok(StreamSchema {
        columns: columns
            .iter()
            .map(|(k, t)| ColumnSpec::new(k, t.unwrap_or(AirbyteType::String)))
            .collect(),
    })
}

/// Reads the records into batches of `schema`; missing keys are null.
pub fn read(
    records: &Records,
    schema: &StreamSchema,
    extras: Extras<'_>,
    sink: &BatchSink,
) -> Result<(), ConnectorError> {
    let total = records.rows.len().max(1) as u64;
    let extra_values: Vec<Option<Value>> = schema
        .columns
        .iter()
        .map(|c| {
            extras
                .iter()
                .find(|(n, _)| *n == c.source_name)
                .map(|(_, v)| Value::String(v.clone()))
        })
        .collect();
    let mut rows = RowBatchBuilder::new(schema);
    for chunk in records.rows.chunks(BATCH_ROWS) {
        for record in chunk {
            for (col, column) in schema.columns.iter().enumerate() {
                let value = extra_values[col]
                    .as_ref()
                    .or_else(|| record.get(&column.source_name));
                rows.push_json(col, value);
            }
            rows.end_row();
        }
        let bytes = records.bytes * chunk.len() as u64 / total;
        sink.send_blocking(rows.finish()?, bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_objects_and_lines_are_records() {
        let array = records(&Bytes::from_static(b"[{\"a\":1},{\"a\":2}]"), "x").unwrap();
        assert_eq!(array.rows.len(), 2);
        let lines = records(&Bytes::from_static(b"{\"a\":1}\n\n{\"a\":2.5}\n"), "x").unwrap();
        assert_eq!(lines.rows.len(), 2);
        let schema = infer(&lines).unwrap();
        assert_eq!(schema.columns[0].airbyte_type, AirbyteType::Number);
        let bad = records(&Bytes::from_static(b"{\"a\":1}\n{oops\n"), "f.jsonl");
        let message = bad.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(message.contains("f.jsonl: line 2"), "{message}");
    }

    #[test]
    fn inference_widens_and_defaults_to_string() {
        let recs = records(
            &Bytes::from_static(
                b"[{\"a\":1,\"b\":null,\"c\":{}},{\"a\":\"x\",\"b\":null,\"c\":[1]}]",
            ),
            "x",
        )
        .unwrap();
        let types: Vec<_> = infer(&recs)
            .unwrap()
            .columns
            .iter()
            .map(|c| c.airbyte_type)
            .collect();
        assert_eq!(
            types,
            [AirbyteType::String, AirbyteType::String, AirbyteType::Json]
        );
    }
}
