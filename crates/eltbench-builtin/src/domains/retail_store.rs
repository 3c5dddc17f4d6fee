//! `retail_store`: a small chain of homeware shops — customers, product
//! categories, products, stores, orders, order lines and returns.

use crate::row;
use crate::seeded::{Gen, add_days};
use crate::spec::{Format, Place, Table, TaskSpec};

const CATEGORIES: &[(&str, &str)] = &[
    ("Kitchen", "home"),
    ("Bedding", "home"),
    ("Lighting", "home"),
    ("Garden", "outdoor"),
    ("Camping", "outdoor"),
    ("Stationery", "office"),
    ("Desk Storage", "office"),
    ("Toys", "kids"),
];

pub fn task() -> TaskSpec {
    let mut g = Gen::new("retail_store");
    let mut customers = Table::new(
        "customers",
        Place::Mongodb,
        &[
            ("customer_id", "Identifier of the customer."),
            ("first_name", "Customer's first name."),
            ("last_name", "Customer's last name."),
            ("email", "Contact e-mail address."),
            ("city", "City of the billing address."),
            ("joined_on", "Date the customer registered."),
        ],
    );
    for id in 1..=50 {
        let (first, last) = (g.first_name(), g.last_name());
        let email = format!(
            "{}.{}{id}@example.com",
            first.to_lowercase(),
            last.to_lowercase()
        );
        customers.push(row![
            id,
            first,
            last,
            email,
            g.pick(&["Lyon", "Porto", "Leeds", "Graz", "Turku"]),
            g.date("2021-01-01", 1000)
        ]);
    }
    let mut categories = Table::new(
        "categories",
        Place::FlatFile(Format::Jsonl),
        &[
            ("category_id", "Identifier of the product category."),
            ("category_name", "Name of the category."),
            ("department", "Store department the category belongs to."),
        ],
    );
    for (i, (name, dept)) in CATEGORIES.iter().enumerate() {
        categories.push(row![i + 1, name, dept]);
    }
    let mut products = Table::new(
        "products",
        Place::Postgres,
        &[
            ("product_id", "Identifier of the product."),
            ("product_name", "Name on the shelf label."),
            ("category_id", "Category of the product."),
            ("list_price", "Current list price in euros."),
        ],
    );
    for id in 1..=40 {
        let name = format!(
            "{} {}",
            g.pick(&["Classic", "Nordic", "Compact", "Deluxe", "Eco"]),
            g.pick(&["Set", "Lamp", "Box", "Kit", "Tray", "Cover"])
        );
        products.push(row![id, name, g.int(1, 8), g.money(299, 12999)]);
    }
    let prices: Vec<String> = products.rows.iter().map(|r| r[3].clone()).collect();
    let mut stores = Table::new(
        "stores",
        Place::CustomApi,
        &[
            (
                "store_id",
                "Identifier of the shop (store 1 is the web shop).",
            ),
            ("store_name", "Name of the shop."),
            ("city", "City of the shop."),
            ("opened_on", "Opening date."),
        ],
    );
    for (i, (name, city)) in [
        ("Web Shop", "online"),
        ("Lyon Centre", "Lyon"),
        ("Porto Ribeira", "Porto"),
        ("Leeds Arcade", "Leeds"),
        ("Graz Platz", "Graz"),
    ]
    .iter()
    .enumerate()
    {
        stores.push(row![i + 1, name, city, g.date("2015-01-01", 2500)]);
    }
    let mut orders = Table::new(
        "orders",
        Place::Postgres,
        &[
            ("order_id", "Identifier of the order."),
            ("customer_id", "Customer who ordered."),
            ("store_id", "Shop where the order was placed."),
            ("ordered_at", "When the order was placed."),
            ("channel", "online or in_store."),
        ],
    );
    let mut lines = Table::new(
        "order_lines",
        Place::Postgres,
        &[
            ("order_id", "Order the line belongs to."),
            ("line_number", "Position of the line within the order."),
            ("product_id", "Product sold."),
            ("quantity", "Units sold."),
            ("unit_price", "Price per unit charged, in euros."),
            ("discount_pct", "Discount on the line in percent."),
        ],
    );
    let mut returns = Table::new(
        "returns",
        Place::S3(Format::Jsonl),
        &[
            ("return_id", "Identifier of the return."),
            ("order_id", "Order of the returned line."),
            ("line_number", "Line returned."),
            ("returned_on", "Date the goods came back."),
            ("quantity_returned", "Units returned."),
            ("reason", "Reason the customer gave, if any."),
        ],
    );
    for id in 1..=200 {
        let store = g.int(1, 5);
        let at = g.timestamp("2024-01-01", 330);
        let customer = if g.chance(50) {
            g.int(1, 15)
        } else {
            g.int(1, 50)
        };
        orders.push(row![
            id,
            customer,
            store,
            at.clone(),
            if store == 1 { "online" } else { "in_store" }
        ]);
        for line in 1..=g.int(1, 4) {
            let product = g.int(1, 40);
            let qty = g.int(1, 5);
            let price = &prices[usize::try_from(product - 1).unwrap_or(0)];
            let discount = g.pick(&[0, 0, 0, 5, 10, 25]);
            lines.push(row![id, line, product, qty, price, discount]);
            if g.chance(8) {
                let n = returns.rows.len() + 1;
                let reason = if g.chance(70) {
                    g.pick(&["damaged", "wrong size", "changed mind", "late delivery"])
                        .to_string()
                } else {
                    String::new()
                };
                returns.push(row![
                    n,
                    id,
                    line,
                    add_days(&at[..10], g.int(2, 30)),
                    g.int(1, qty),
                    reason
                ]);
            }
        }
    }
    TaskSpec {
        db: "retail_store",
        tables: vec![
            customers, categories, products, stores, orders, lines, returns,
        ],
    }
}
