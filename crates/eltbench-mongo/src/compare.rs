//! MongoDB's total order over BSON values (the "BSON comparison order"): type brackets
//! first (MinKey < null < numbers < strings < objects < arrays < binData < ObjectId <
//! bool < date < timestamp < regex < MaxKey), then values within a bracket, with int32,
//! int64 and double compared as numbers. Used by filters, sort, $min/$max and grouping.
//! Must stay pure: no allocation-heavy work, no errors.

use std::cmp::Ordering;

use bson::Bson;

/// The comparison bracket of a value; values of different brackets never compare equal.
pub fn type_rank(value: &Bson) -> u8 {
    match value {
        Bson::MinKey => 0,
        Bson::Null | Bson::Undefined => 1,
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => 2,
        Bson::String(_) | Bson::Symbol(_) => 3,
        Bson::Document(_) => 4,
        Bson::Array(_) => 5,
        Bson::Binary(_) => 6,
        Bson::ObjectId(_) => 7,
        Bson::Boolean(_) => 8,
        Bson::DateTime(_) => 9,
        Bson::Timestamp(_) => 10,
        Bson::RegularExpression(_) => 11,
        Bson::DbPointer(_) => 12,
        Bson::JavaScriptCode(_) => 13,
        Bson::JavaScriptCodeWithScope(_) => 14,
        Bson::MaxKey => 15,
    }
}

/// Compares two values in MongoDB's order.
pub fn compare(a: &Bson, b: &Bson) -> Ordering {
    let by_rank = type_rank(a).cmp(&type_rank(b));
    if by_rank != Ordering::Equal {
        return by_rank;
    }
    match (a, b) {
        (Bson::String(x) | Bson::Symbol(x), Bson::String(y) | Bson::Symbol(y)) => x.cmp(y),
        (Bson::Document(x), Bson::Document(y)) => compare_documents(x, y),
        (Bson::Array(x), Bson::Array(y)) => compare_sequences(x, y),
        (Bson::Binary(x), Bson::Binary(y)) => (x.bytes.len(), u8::from(x.subtype), &x.bytes)
            .cmp(&(y.bytes.len(), u8::from(y.subtype), &y.bytes)),
        (Bson::ObjectId(x), Bson::ObjectId(y)) => x.bytes().cmp(&y.bytes()),
        (Bson::Boolean(x), Bson::Boolean(y)) => x.cmp(y),
        (Bson::DateTime(x), Bson::DateTime(y)) => x.cmp(y),
        (Bson::Timestamp(x), Bson::Timestamp(y)) => {
            (x.time, x.increment).cmp(&(y.time, y.increment))
        }
        (Bson::RegularExpression(x), Bson::RegularExpression(y)) => {
            (&x.pattern, &x.options).cmp(&(&y.pattern, &y.options))
        }
        (Bson::JavaScriptCode(x), Bson::JavaScriptCode(y)) => x.cmp(y),
        _ if type_rank(a) == 2 => compare_numbers(a, b),
        _ => Ordering::Equal,
    }
}

/// True when MongoDB considers the two values equal (`1`, `1i64` and `1.0` are equal).
pub fn equal(a: &Bson, b: &Bson) -> bool {
    compare(a, b) == Ordering::Equal
}

fn compare_numbers(a: &Bson, b: &Bson) -> Ordering {
    match (as_i64(a), as_i64(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => compare_floats(as_f64(a), as_f64(b)),
    }
}

/// NaN sorts below every other number, as in MongoDB.
fn compare_floats(x: f64, y: f64) -> Ordering {
    match (x.is_nan(), y.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
    }
}

fn as_i64(value: &Bson) -> Option<i64> {
    match value {
        Bson::Int32(v) => Some(i64::from(*v)),
        Bson::Int64(v) => Some(*v),
        _ => None,
    }
}

/// The numeric value of a number (NaN for anything else, including Decimal128, which
/// this endpoint stores but does not do arithmetic on).
pub fn as_f64(value: &Bson) -> f64 {
    match value {
        Bson::Int32(v) => f64::from(*v),
        Bson::Int64(v) => *v as f64,
        Bson::Double(v) => *v,
        _ => f64::NAN,
    }
}

fn compare_documents(x: &bson::Document, y: &bson::Document) -> Ordering {
    for ((kx, vx), (ky, vy)) in x.iter().zip(y.iter()) {
        let order = type_rank(vx)
            .cmp(&type_rank(vy))
            .then_with(|| kx.cmp(ky))
            .then_with(|| compare(vx, vy));
        if order != Ordering::Equal {
            return order;
        }
    }
    x.len().cmp(&y.len())
}

fn compare_sequences(x: &[Bson], y: &[Bson]) -> Ordering {
    for (vx, vy) in x.iter().zip(y.iter()) {
        let order = compare(vx, vy);
        if order != Ordering::Equal {
            return order;
        }
    }
    x.len().cmp(&y.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn numbers_compare_across_types() {
        assert!(equal(&Bson::Int32(3), &Bson::Double(3.0)));
        assert!(equal(&Bson::Int64(3), &Bson::Int32(3)));
        assert_eq!(compare(&Bson::Int32(2), &Bson::Double(2.5)), Ordering::Less);
        assert_eq!(
            compare(&Bson::Double(f64::NAN), &Bson::Int32(-9)),
            Ordering::Less
        );
    }

    #[test]
    fn brackets_order_types() {
        let ordered = [
            Bson::MinKey,
            Bson::Null,
            Bson::Int32(100),
            Bson::String("a".into()),
            Bson::Document(doc! {"a": 1}),
            Bson::Array(vec![Bson::Int32(1)]),
            Bson::ObjectId(bson::oid::ObjectId::new()),
            Bson::Boolean(false),
            Bson::DateTime(bson::DateTime::from_millis(0)),
            Bson::MaxKey,
        ];
        for pair in ordered.windows(2) {
            assert_eq!(compare(&pair[0], &pair[1]), Ordering::Less, "{pair:?}");
        }
    }

    #[test]
    fn documents_and_arrays_compare_elementwise() {
        let a = Bson::Document(doc! {"a": 1, "b": 2});
        let b = Bson::Document(doc! {"a": 1, "b": 3});
        assert_eq!(compare(&a, &b), Ordering::Less);
        let short = Bson::Array(vec![Bson::Int32(1)]);
        let long = Bson::Array(vec![Bson::Int32(1), Bson::Int32(0)]);
        assert_eq!(compare(&short, &long), Ordering::Less);
    }
}
