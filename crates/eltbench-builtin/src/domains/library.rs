//! `library`: a municipal library network — branches, books, authors,
//! members, loans, holds and overdue fines.

use crate::row;
use crate::seeded::{Gen, add_days, cents};
use crate::spec::{Format, Place, Table, TaskSpec};

const GENRES: &[&str] = &[
    "fiction", "history", "science", "children", "travel", "poetry",
];
const WORDS: &[&str] = &[
    "River", "Silent", "Atlas", "Garden", "Winter", "Echo", "Lantern", "Harbour", "Copper",
    "Orchard", "Signal", "Meadow",
];

pub fn task() -> TaskSpec {
    let mut g = Gen::new("library");
    let mut branches = Table::new(
        "branches",
        Place::Postgres,
        &[
            ("branch_id", "Identifier of the branch library."),
            ("branch_name", "Name of the branch."),
            ("city", "City the branch is in."),
        ],
    );
    for (i, (name, city)) in [
        ("Central", "Arden"),
        ("Eastgate", "Arden"),
        ("Millbrook", "Millbrook"),
        ("Quayside", "Port Ellis"),
        ("Hillcrest", "Arden"),
    ]
    .iter()
    .enumerate()
    {
        branches.push(row![i + 1, name, city]);
    }
    let mut authors = Table::new(
        "authors",
        Place::Mongodb,
        &[
            ("author_id", "Identifier of the author."),
            ("author_name", "Author's full name as catalogued."),
            ("country", "Author's country of origin."),
        ],
    );
    for id in 1..=20 {
        let name = format!("{} {}", g.first_name(), g.last_name());
        authors.push(row![
            id,
            name,
            g.pick(&["UK", "Nigeria", "Japan", "Brazil", "Sweden", "India"])
        ]);
    }
    let mut books = Table::new(
        "books",
        Place::Postgres,
        &[
            ("book_id", "Identifier of the copy's title record."),
            ("title", "Title of the book."),
            ("author_id", "Author of the book."),
            ("genre", "Shelf genre."),
            ("published_year", "Year of first publication."),
            ("branch_id", "Branch that owns the copy."),
        ],
    );
    for id in 1..=60 {
        let title = format!(
            "The {} {}",
            g.pick(WORDS),
            g.pick(&["Road", "Letters", "Years", "Map", "Song", "House"])
        );
        books.push(row![
            id,
            title,
            g.int(1, 20),
            g.pick(GENRES),
            g.int(1950, 2023),
            g.int(1, 5)
        ]);
    }
    let mut members = Table::new(
        "members",
        Place::CustomApi,
        &[
            ("member_id", "Library card number."),
            ("first_name", "Member's first name."),
            ("last_name", "Member's last name."),
            ("home_branch_id", "Branch where the card was issued."),
            ("joined_on", "Date the card was issued."),
        ],
    );
    for id in 1..=50 {
        members.push(row![
            id,
            g.first_name(),
            g.last_name(),
            g.int(1, 5),
            g.date("2015-01-01", 3000)
        ]);
    }
    let mut loans = Table::new(
        "loans",
        Place::Postgres,
        &[
            ("loan_id", "Identifier of the loan."),
            ("book_id", "Book lent."),
            ("member_id", "Member who borrowed it."),
            ("loaned_on", "Date it was checked out."),
            ("due_on", "Date it was due back (21 days later)."),
            ("returned_on", "Date it came back; empty while still out."),
        ],
    );
    let mut fines = Table::new(
        "fines",
        Place::FlatFile(Format::Parquet),
        &[
            ("fine_id", "Identifier of the fine."),
            ("loan_id", "Overdue loan fined."),
            ("amount", "Fine in euros (0.20 per late day)."),
            ("paid", "true once the fine was paid."),
        ],
    );
    for id in 1..=260 {
        let book = if g.chance(40) {
            g.int(1, 15)
        } else {
            g.int(1, 60)
        };
        let out = g.date("2024-06-01", 200);
        let due = add_days(&out, 21);
        let back = match g.int(1, 10) {
            1 => String::new(),
            2 | 3 => add_days(&out, g.int(22, 50)),
            _ => add_days(&out, g.int(1, 21)),
        };
        let late = late_days(&out, &back);
        if late > 0 {
            let n = fines.rows.len() + 1;
            fines.push(row![
                n,
                id,
                cents(late * 20),
                if g.chance(50) { "true" } else { "false" }
            ]);
        }
        loans.push(row![id, book, g.int(1, 50), out, due, back]);
    }
    let mut holds = Table::new(
        "holds",
        Place::S3(Format::Jsonl),
        &[
            ("hold_id", "Identifier of the reservation."),
            ("book_id", "Book reserved."),
            ("member_id", "Member who reserved it."),
            ("placed_on", "Date the reservation was placed."),
        ],
    );
    for id in 1..=70 {
        holds.push(row![
            id,
            g.int(1, 25),
            g.int(1, 50),
            g.date("2024-06-01", 200)
        ]);
    }
    TaskSpec {
        db: "library",
        tables: vec![branches, authors, books, members, loans, fines, holds],
    }
}

/// Days a returned loan was late (21-day term); 0 when on time or not back.
fn late_days(out: &str, back: &str) -> i64 {
    (22..=60)
        .find(|d| add_days(out, *d) == back)
        .map_or(0, |d| d - 21)
}
