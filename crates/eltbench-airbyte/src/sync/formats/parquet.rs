//! Parquet: columns keep their Parquet (Arrow) types, mapped to Airbyte types by
//! `type_tables::arrow_type`; each batch is cast to the stream's schema, and values that
//! do not cast are nulled and recorded as changes.

use std::sync::Arc;

use bytes::Bytes;
use duckdb::arrow::array::{Array, ArrayRef, StringArray, new_null_array};
use duckdb::arrow::compute::{CastOptions, can_cast_types, cast_with_options};
use duckdb::arrow::datatypes::DataType;
use duckdb::arrow::record_batch::RecordBatch;
use duckdb::arrow::util::display::{ArrayFormatter, FormatOptions};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::reader::ChunkReader;
use serde_json::json;

use super::Extras;
use crate::sync::connector::BatchSink;
use crate::sync::error::ConnectorError;
use crate::sync::records::BATCH_ROWS;
use crate::sync::type_tables::arrow_type;
use crate::sync::typing::{ColumnSpec, StreamSchema};

fn builder(
    bytes: &Bytes,
    name: &str,
) -> Result<ParquetRecordBatchReaderBuilder<Bytes>, ConnectorError> {
    ParquetRecordBatchReaderBuilder::try_new(bytes.clone())
        .map_err(|e| ConnectorError::Data(format!("Could not read Parquet file {name}: {e}")))
}

/// The file's columns with their mapped types.
pub fn infer(bytes: &Bytes, name: &str) -> Result<StreamSchema, ConnectorError> {
    infer_from(bytes.clone(), name)
}

/// The columns of a Parquet file read through `reader` (only its footer is read).
pub fn infer_from<R: ChunkReader + 'static>(
    reader: R,
    name: &str,
) -> Result<StreamSchema, ConnectorError> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(reader)
        .map_err(|e| ConnectorError::Data(format!("Could not read Parquet file {name}: {e}")))?;
    Ok(StreamSchema {
        columns: builder
            .schema()
            .fields()
            .iter()
            .map(|f| ColumnSpec::new(f.name(), arrow_type(f.data_type())))
            .collect(),
    })
}

/// Reads every row group into batches of `schema`.
pub fn read(
    bytes: &Bytes,
    name: &str,
    schema: &StreamSchema,
    extras: Extras<'_>,
    sink: &BatchSink,
) -> Result<(), ConnectorError> {
    let reader = builder(bytes, name)?
        .with_batch_size(BATCH_ROWS)
        .build()
        .map_err(|e| ConnectorError::Data(format!("Could not read Parquet file {name}: {e}")))?;
    for batch in reader {
        let batch = batch.map_err(|e| {
            ConnectorError::Data(format!("Could not read Parquet file {name}: {e}"))
        })?;
        let bytes = batch.get_array_memory_size() as u64;
        sink.send_blocking(conform(&batch, schema, extras)?, bytes)?;
    }
    Ok(())
}

/// Casts a batch to the stream's columns, adding the changes column.
pub fn conform(
    batch: &RecordBatch,
    schema: &StreamSchema,
    extras: Extras<'_>,
) -> Result<RecordBatch, ConnectorError> {
    let rows = batch.num_rows();
    let mut changes: Vec<Vec<serde_json::Value>> = vec![Vec::new(); rows];
    let mut arrays: Vec<ArrayRef> = Vec::with_capacity(schema.columns.len() + 1);
    for column in &schema.columns {
        let target = column.airbyte_type.arrow_type();
        if let Some((_, value)) = extras.iter().find(|(n, _)| *n == column.source_name) {
            let constant = StringArray::from(vec![value.as_str(); rows]);
            arrays.push(cast(&(Arc::new(constant) as ArrayRef), &target)?);
            continue;
        }
        let Some(source) = batch.column_by_name(&column.source_name) else {
            arrays.push(new_null_array(&target, rows));
            continue;
        };
        let cast = cast(source, &target)?;
        for (row, change) in changes.iter_mut().enumerate() {
            if source.is_valid(row) && cast.is_null(row) {
                change.push(json!({"field": column.name, "change": "NULLED", "reason": "DESTINATION_TYPECAST_ERROR"}));
            }
        }
        arrays.push(cast);
    }
    let changes: StringArray = changes
        .into_iter()
        .map(|c| (!c.is_empty()).then(|| serde_json::Value::Array(c).to_string()))
        .collect();
    arrays.push(Arc::new(changes));
    RecordBatch::try_new(schema.arrow_schema(), arrays)
        .map_err(|e| ConnectorError::Data(format!("Could not assemble a record batch: {e}")))
}

/// A safe cast (failures become null); types Arrow cannot cast go through their text.
fn cast(array: &ArrayRef, target: &DataType) -> Result<ArrayRef, ConnectorError> {
    let options = CastOptions {
        safe: true,
        ..CastOptions::default()
    };
    let err = |e: duckdb::arrow::error::ArrowError| {
        ConnectorError::Data(format!("Could not convert a column: {e}"))
    };
    if can_cast_types(array.data_type(), target) {
        return cast_with_options(array, target, &options).map_err(err);
    }
    let formatter =
        ArrayFormatter::try_new(array.as_ref(), &FormatOptions::default()).map_err(err)?;
    let text: StringArray = (0..array.len())
        .map(|i| array.is_valid(i).then(|| formatter.value(i).to_string()))
        .collect();
    cast_with_options(&(Arc::new(text) as ArrayRef), target, &options).map_err(err)
}
