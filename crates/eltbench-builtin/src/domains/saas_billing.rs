//! `saas_billing`: a software-as-a-service vendor — plans, customer accounts,
//! subscriptions, monthly invoices, payments, product usage and support tickets.

use crate::row;
use crate::seeded::{Gen, add_days, cents};
use crate::spec::{Format, Place, Table, TaskSpec};

const PLANS: &[(&str, i64, i64)] = &[
    ("Starter", 2900, 3),
    ("Team", 9900, 15),
    ("Business", 24900, 50),
    ("Enterprise", 79900, 500),
];

pub fn task() -> TaskSpec {
    let mut g = Gen::new("saas_billing");
    let mut plans = Table::new(
        "plans",
        Place::FlatFile(Format::Csv),
        &[
            ("plan_id", "Identifier of the price plan."),
            ("plan_name", "Name of the plan."),
            ("monthly_price", "List price per month in dollars."),
            ("seat_limit", "Maximum number of users."),
        ],
    );
    for (i, (name, price, seats)) in PLANS.iter().enumerate() {
        plans.push(row![i + 1, name, cents(*price), seats]);
    }
    let mut accounts = Table::new(
        "accounts",
        Place::Postgres,
        &[
            ("account_id", "Identifier of the customer account."),
            ("company_name", "Customer company."),
            ("industry", "Customer's industry."),
            ("country", "Billing country code."),
            ("created_on", "Date the account signed up."),
        ],
    );
    for id in 1..=40 {
        let company = format!(
            "{} {}",
            g.last_name(),
            g.pick(&["Labs", "Logistics", "Studio", "Health", "Foods", "Systems"])
        );
        accounts.push(row![
            id,
            company,
            g.pick(&["retail", "software", "health", "media", "manufacturing"]),
            g.pick(&["US", "DE", "FR", "BR", "JP", "CA"]),
            g.date("2022-01-01", 700)
        ]);
    }
    let mut subs = Table::new(
        "subscriptions",
        Place::Postgres,
        &[
            ("subscription_id", "Identifier of the subscription."),
            ("account_id", "Subscribing account."),
            ("plan_id", "Plan subscribed to."),
            (
                "started_on",
                "First day of service (always the 1st of a month).",
            ),
            ("cancelled_on", "Last day of service; empty while active."),
            ("seats", "Seats purchased."),
        ],
    );
    let mut invoices = Table::new(
        "invoices",
        Place::Mongodb,
        &[
            ("invoice_id", "Identifier of the invoice."),
            ("subscription_id", "Subscription billed."),
            ("period_month", "First day of the month billed."),
            ("amount", "Amount billed in dollars."),
            ("status", "paid, open or void."),
        ],
    );
    let mut payments = Table::new(
        "payments",
        Place::CustomApi,
        &[
            ("payment_id", "Identifier of the payment."),
            ("invoice_id", "Invoice paid."),
            ("paid_on", "Date the money arrived."),
            ("amount", "Amount received in dollars."),
            ("method", "card, transfer or paypal."),
        ],
    );
    for id in 1..=60 {
        let plan = g.int(1, 4);
        let start_month = g.int(1, 12);
        let months = g.int(1, 12 - start_month + 1);
        let cancelled =
            (start_month + months <= 12 && g.chance(50)).then_some(start_month + months);
        let started = format!("2024-{start_month:02}-01");
        let cancel_text = cancelled
            .map(|m| add_days(&format!("2024-{m:02}-01"), -1))
            .unwrap_or_default();
        let price = PLANS[usize::try_from(plan - 1).unwrap_or(0)].1;
        subs.push(row![
            id,
            g.int(1, 40),
            plan,
            started,
            cancel_text,
            g.int(1, 20)
        ]);
        let last = cancelled.map_or(12, |m| m - 1);
        for month in start_month..=last {
            let inv = invoices.rows.len() + 1;
            let status = g.pick(&["paid", "paid", "paid", "paid", "open", "void"]);
            invoices.push(row![
                inv,
                id,
                format!("2024-{month:02}-01"),
                cents(price),
                status
            ]);
            if status == "paid" {
                let pay = payments.rows.len() + 1;
                let on = add_days(&format!("2024-{month:02}-01"), g.int(0, 20));
                payments.push(row![
                    pay,
                    inv,
                    on,
                    cents(price),
                    g.pick(&["card", "card", "transfer", "paypal"])
                ]);
            }
        }
    }
    let mut usage = Table::new(
        "usage_events",
        Place::S3(Format::Csv),
        &[
            ("event_id", "Identifier of the usage record."),
            ("account_id", "Account that used the product."),
            ("event_date", "Day of use."),
            ("feature", "Feature used."),
            (
                "quantity",
                "Units consumed (API calls in thousands, reports, exports).",
            ),
        ],
    );
    for id in 1..=320 {
        usage.push(row![
            id,
            g.int(1, 40),
            g.date("2024-07-01", 180),
            g.pick(&["api", "reports", "exports", "dashboards"]),
            g.int(1, 40)
        ]);
    }
    let mut tickets = Table::new(
        "support_tickets",
        Place::FlatFile(Format::Jsonl),
        &[
            ("ticket_id", "Identifier of the support ticket."),
            ("account_id", "Account that opened it."),
            ("opened_on", "Date it was opened."),
            ("priority", "low, normal or high."),
            ("resolved_on", "Date it was resolved; empty while open."),
        ],
    );
    for id in 1..=90 {
        let opened = g.date("2024-06-01", 200);
        let resolved = if g.chance(75) {
            add_days(&opened, g.int(0, 12))
        } else {
            String::new()
        };
        tickets.push(row![
            id,
            g.int(1, 40),
            opened,
            g.pick(&["low", "normal", "normal", "high"]),
            resolved
        ]);
    }
    TaskSpec {
        db: "saas_billing",
        tables: vec![plans, accounts, subs, invoices, payments, usage, tickets],
    }
}
