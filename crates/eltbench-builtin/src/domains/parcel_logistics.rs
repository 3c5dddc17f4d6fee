//! `parcel_logistics`: a parcel network — depots, carriers, drivers,
//! shipments, parcels, tracking events and depot-to-depot routes.

use crate::row;
use crate::seeded::{Gen, add_days};
use crate::spec::{Format, Place, Table, TaskSpec};

pub fn task() -> TaskSpec {
    let mut g = Gen::new("parcel_logistics");
    let mut depots = Table::new(
        "depots",
        Place::Postgres,
        &[
            ("depot_id", "Identifier of the depot."),
            ("depot_name", "Name of the depot."),
            ("region", "Region served."),
        ],
    );
    for (i, (name, region)) in [
        ("Northfield Hub", "north"),
        ("Southport", "south"),
        ("Eastmoor", "east"),
        ("Westbay", "west"),
        ("Midland Cross", "central"),
        ("Lakeside", "north"),
    ]
    .iter()
    .enumerate()
    {
        depots.push(row![i + 1, name, region]);
    }
    let mut carriers = Table::new(
        "carriers",
        Place::Mongodb,
        &[
            ("carrier_id", "Identifier of the carrier company."),
            ("carrier_name", "Trading name of the carrier."),
            ("transport_mode", "road, rail or air."),
        ],
    );
    for (i, (name, mode)) in [
        ("SwiftLine", "road"),
        ("IronRail Freight", "rail"),
        ("SkyDrop", "air"),
        ("Parcelo", "road"),
        ("Cargoa", "road"),
        ("Northwind Air", "air"),
    ]
    .iter()
    .enumerate()
    {
        carriers.push(row![i + 1, name, mode]);
    }
    let mut drivers = Table::new(
        "drivers",
        Place::Mongodb,
        &[
            ("driver_id", "Identifier of the driver."),
            ("carrier_id", "Carrier employing the driver."),
            ("first_name", "Driver's first name."),
            ("last_name", "Driver's last name."),
            ("licence_class", "Driving licence class (B, C1, C)."),
        ],
    );
    for id in 1..=25 {
        drivers.push(row![
            id,
            g.int(1, 6),
            g.first_name(),
            g.last_name(),
            g.pick(&["B", "C1", "C"])
        ]);
    }
    let mut routes = Table::new(
        "routes",
        Place::FlatFile(Format::Csv),
        &[
            ("route_id", "Identifier of the route."),
            ("origin_depot_id", "Depot the route starts at."),
            ("destination_depot_id", "Depot the route ends at."),
            ("distance_km", "Road distance in kilometres."),
        ],
    );
    let mut rid = 0;
    for from in 1..=6 {
        for to in 1..=6 {
            if from != to && g.chance(80) {
                rid += 1;
                routes.push(row![rid, from, to, g.int(40, 900)]);
            }
        }
    }
    let mut shipments = Table::new(
        "shipments",
        Place::Postgres,
        &[
            (
                "shipment_id",
                "Identifier of the shipment (a consignment of parcels).",
            ),
            ("carrier_id", "Carrier moving it."),
            ("origin_depot_id", "Depot it leaves from."),
            ("destination_depot_id", "Depot it goes to."),
            ("shipped_on", "Date it left the origin depot."),
            ("promised_on", "Delivery date promised to the customer."),
        ],
    );
    let mut events = Table::new(
        "delivery_events",
        Place::S3(Format::Parquet),
        &[
            ("event_id", "Identifier of the tracking event."),
            ("shipment_id", "Shipment tracked."),
            ("driver_id", "Driver who scanned it."),
            (
                "event_type",
                "picked_up, in_transit, failed_attempt or delivered.",
            ),
            ("event_at", "When the scan happened."),
        ],
    );
    for id in 1..=130 {
        let from = g.int(1, 6);
        let to = (from + g.int(1, 5) - 1) % 6 + 1;
        let shipped = g.date("2024-09-01", 90);
        let promised = add_days(&shipped, g.int(2, 5));
        let carrier = g.int(1, 6);
        shipments.push(row![id, carrier, from, to, shipped.clone(), promised]);
        let driver = g.int(1, 25);
        let mut push = |g: &mut Gen, kind: &str, day: i64| {
            let n = events.rows.len() + 1;
            let at = format!(
                "{} {:02}:{:02}:00",
                add_days(&shipped, day),
                g.int(7, 19),
                g.int(0, 59)
            );
            events.push(row![n, id, driver, kind, at]);
        };
        push(&mut g, "picked_up", 0);
        let transit = g.int(1, 7);
        push(&mut g, "in_transit", 1);
        match g.int(1, 10) {
            1 => {}
            2 => push(&mut g, "failed_attempt", transit),
            3 => {
                push(&mut g, "failed_attempt", transit);
                push(&mut g, "delivered", transit + 1);
            }
            _ => push(&mut g, "delivered", transit),
        }
    }
    let mut parcels = Table::new(
        "parcels",
        Place::CustomApi,
        &[
            ("parcel_id", "Identifier of the parcel."),
            ("shipment_id", "Shipment the parcel travels in."),
            ("weight_kg", "Weight in kilograms."),
            ("declared_value", "Declared value in euros."),
        ],
    );
    for id in 1..=320 {
        let w = format!("{}.{}", g.int(0, 30), g.int(0, 9));
        parcels.push(row![id, g.int(1, 130), w, g.money(500, 50000)]);
    }
    TaskSpec {
        db: "parcel_logistics",
        tables: vec![
            depots, carriers, drivers, routes, shipments, events, parcels,
        ],
    }
}
