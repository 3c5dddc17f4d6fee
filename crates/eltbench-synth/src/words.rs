//! Small word lists for generated text. Plain data: nothing here is random.

pub const FIRST_NAMES: &[&str] = &[
    "Alice", "Bruno", "Chen", "Dana", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jamal", "Keiko",
    "Liam", "Maya", "Nikos", "Olga", "Pedro", "Quinn", "Rosa", "Sven", "Tara", "Umar", "Vera",
    "Wei", "Ximena", "Yusuf", "Zoe",
];

pub const LAST_NAMES: &[&str] = &[
    "Anderson", "Becker", "Costa", "Dubois", "Evans", "Fischer", "Garcia", "Hansen", "Ito",
    "Jensen", "Kowalski", "Lopez", "Moreau", "Nakamura", "Okafor", "Patel", "Quispe", "Rossi",
    "Silva", "Tanaka", "Ueda", "Varga", "Weber", "Xu", "Yilmaz", "Zhang",
];

pub const WORDS: &[&str] = &[
    "amber", "anchor", "arrow", "beacon", "birch", "breeze", "canyon", "cedar", "comet", "coral",
    "delta", "ember", "falcon", "fern", "frost", "glacier", "harbor", "hazel", "horizon", "island",
    "jade", "juniper", "lagoon", "lantern", "maple", "meadow", "mesa", "nova", "oak", "orbit",
    "pebble", "pine", "prairie", "quartz", "raven", "ridge", "river", "sage", "summit", "thistle",
    "tide", "timber", "valley", "willow", "zephyr",
];

pub const CITIES: &[&str] = &[
    "Springfield",
    "Riverside",
    "Franklin",
    "Greenville",
    "Bristol",
    "Clinton",
    "Fairview",
    "Salem",
    "Madison",
    "Georgetown",
    "Arlington",
    "Ashland",
    "Dover",
    "Oxford",
    "Jackson",
    "Burlington",
    "Manchester",
    "Milton",
    "Newport",
    "Auburn",
];

pub const STATES: &[&str] = &[
    "AL", "AK", "AZ", "CA", "CO", "CT", "FL", "GA", "IL", "IN", "MA", "MD", "MI", "MN", "NC", "NJ",
    "NY", "OH", "OR", "PA", "TX", "VA", "WA", "WI",
];

pub const COUNTRIES: &[&str] = &[
    "Argentina",
    "Australia",
    "Brazil",
    "Canada",
    "Egypt",
    "France",
    "Germany",
    "India",
    "Italy",
    "Japan",
    "Kenya",
    "Mexico",
    "Netherlands",
    "Nigeria",
    "Norway",
    "Peru",
    "Spain",
    "Sweden",
    "United Kingdom",
    "United States",
];

pub const CURRENCIES: &[&str] = &["USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF", "BRL"];

pub const STATUSES: &[&str] = &[
    "active",
    "inactive",
    "pending",
    "completed",
    "cancelled",
    "archived",
];

pub const CATEGORIES: &[&str] = &[
    "standard",
    "premium",
    "basic",
    "enterprise",
    "retail",
    "wholesale",
    "online",
    "direct",
];

pub const COLORS: &[&str] = &[
    "red", "blue", "green", "black", "white", "silver", "yellow", "orange",
];

pub const GENDERS: &[&str] = &["M", "F"];

pub const STREETS: &[&str] = &["St", "Ave", "Rd", "Blvd", "Ln", "Way"];
