//! The six built-in domains, each a function from nothing to a [`TaskSpec`]
//! (seeded by its own name). Adding a domain = a file here + a line in [`all`].

use crate::spec::TaskSpec;

mod bike_rental;
mod clinic;
mod library;
mod parcel_logistics;
mod retail_store;
mod saas_billing;

/// Every built-in task, sorted by database name.
pub fn all() -> Vec<TaskSpec> {
    vec![
        bike_rental::task(),
        clinic::task(),
        library::task(),
        parcel_logistics::task(),
        retail_store::task(),
        saas_billing::task(),
    ]
}
