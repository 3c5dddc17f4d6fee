//! `bike_rental`: a city bike-share scheme — stations, bikes, riders, trips,
//! workshop logs, daily weather and fare rules.

use crate::row;
use crate::seeded::{Gen, add_minutes};
use crate::spec::{Format, Place, Table, TaskSpec};

const DISTRICTS: &[&str] = &["Harbour", "Old Town", "University", "Riverside"];
const ISSUES: &[&str] = &["flat tyre", "brake pads", "chain", "battery", "lights"];

pub fn task() -> TaskSpec {
    let mut g = Gen::new("bike_rental");
    let mut stations = Table::new(
        "stations",
        Place::Postgres,
        &[
            ("station_id", "Identifier of the docking station."),
            ("station_name", "Name shown on the station's sign."),
            ("district", "City district the station is in."),
            ("capacity", "Number of docks at the station."),
            ("opened_on", "Date the station opened."),
        ],
    );
    for id in 1..=12 {
        let name = format!(
            "{} Dock {id}",
            g.pick(&["North", "South", "Central", "Park", "Bridge"])
        );
        stations.push(row![
            id,
            name,
            g.pick(DISTRICTS),
            g.int(8, 30),
            g.date("2019-03-01", 1500)
        ]);
    }
    let mut bikes = Table::new(
        "bikes",
        Place::Postgres,
        &[
            ("bike_id", "Identifier of the bike."),
            ("model_name", "Manufacturer model of the bike."),
            ("bike_type", "classic or electric."),
            ("home_station_id", "Station the bike is assigned to."),
            ("commissioned_on", "Date the bike entered service."),
        ],
    );
    for id in 1..=30 {
        let kind = if g.chance(35) { "electric" } else { "classic" };
        bikes.push(row![
            id,
            g.pick(&["Urbano 3", "Volt S", "Commuter X"]),
            kind,
            g.int(1, 12),
            g.date("2020-01-01", 1200)
        ]);
    }
    let mut riders = Table::new(
        "riders",
        Place::Mongodb,
        &[
            ("rider_id", "Identifier of the rider account."),
            ("first_name", "Rider's first name."),
            ("last_name", "Rider's last name."),
            (
                "membership",
                "member (annual pass) or casual (pay per ride).",
            ),
            ("signup_date", "Date the account was created."),
            ("birth_year", "Year of birth the rider gave, if any."),
        ],
    );
    for id in 1..=40 {
        let plan = if g.chance(55) { "member" } else { "casual" };
        let birth = if g.chance(85) {
            g.int(1950, 2006).to_string()
        } else {
            String::new()
        };
        riders.push(row![
            id,
            g.first_name(),
            g.last_name(),
            plan,
            g.date("2021-01-01", 1000),
            birth
        ]);
    }
    let mut trips = Table::new(
        "trips",
        Place::CustomApi,
        &[
            ("trip_id", "Identifier of the trip."),
            ("bike_id", "Bike ridden."),
            ("rider_id", "Rider who took the trip."),
            ("start_station_id", "Station the trip started at."),
            ("end_station_id", "Station the bike was docked at."),
            ("started_at", "When the bike was unlocked."),
            ("ended_at", "When the bike was docked."),
            ("distance_km", "Distance ridden in kilometres."),
        ],
    );
    for id in 1..=220 {
        let start = g.timestamp("2024-05-01", 60);
        let end = add_minutes(&start, g.int(3, 95));
        let km = format!("{}.{}", g.int(0, 14), g.int(0, 9));
        let rider = if g.chance(70) {
            g.int(1, 20)
        } else {
            g.int(1, 40)
        };
        trips.push(row![
            id,
            g.int(1, 30),
            rider,
            g.int(1, 12),
            g.int(1, 12),
            start,
            end,
            km
        ]);
    }
    let mut logs = Table::new(
        "maintenance_logs",
        Place::S3(Format::Csv),
        &[
            ("log_id", "Identifier of the workshop visit."),
            ("bike_id", "Bike serviced."),
            ("serviced_on", "Date of the visit."),
            ("issue", "What was repaired."),
            ("cost", "Cost of the repair in euros."),
        ],
    );
    for id in 1..=45 {
        logs.push(row![
            id,
            g.int(1, 30),
            g.date("2024-01-01", 200),
            g.pick(ISSUES),
            g.money(500, 9000)
        ]);
    }
    let mut weather = Table::new(
        "weather_days",
        Place::FlatFile(Format::Csv),
        &[
            ("weather_date", "Calendar day."),
            ("temp_c", "Mean temperature in degrees Celsius."),
            ("precipitation_mm", "Rainfall in millimetres."),
        ],
    );
    for day in 0..61 {
        let rain = if g.chance(30) { g.int(1, 25) } else { 0 };
        weather.push(row![
            crate::seeded::add_days("2024-05-01", day),
            g.int(9, 27),
            rain
        ]);
    }
    let mut fares = Table::new(
        "fare_rules",
        Place::FlatFile(Format::Jsonl),
        &[
            ("membership", "Membership the rule applies to."),
            ("unlock_fee", "Fee charged per trip, in euros."),
            ("per_minute_fee", "Fee per started minute, in euros."),
        ],
    );
    fares.push(row!["casual", "1.00", "0.25"]);
    fares.push(row!["member", "0.00", "0.10"]);
    TaskSpec {
        db: "bike_rental",
        tables: vec![stations, bikes, riders, trips, logs, weather, fares],
    }
}
