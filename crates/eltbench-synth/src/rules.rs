//! The name heuristics: what a column holds ([`Flavor`]), read from its name
//! and, failing that, its description.
//!
//! The rules are two tables, tried top to bottom, first match wins. Names
//! are split into lower-case tokens (`orderNumber` → `order`, `number`;
//! `_fivetran_deleted` → `fivetran`, `deleted`). A declared type (DDL, JSON
//! Schema) always decides the storage kind; the flavor only shapes values
//! within it. This module never generates values.
//!
//! | pattern | matches when |
//! |---|---|
//! | `Name(s)` | the tokens joined by `_` equal `s` |
//! | `First(s)` / `Last(s)` | the first / last token is `s` |
//! | `Token(s)` | any token is `s` |
//! | `Desc(s)` | the lower-cased description contains `s` |

use crate::types::Kind;

/// What a column's values look like, within its storage kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Flavor {
    Plain,
    Flag,
    Id,
    Year,
    Month,
    Day,
    Hour,
    Date,
    Timestamp,
    Count,
    Amount,
    Percent,
    Rating,
    Age,
    Measure,
    Latitude,
    Longitude,
    Zip,
    Email,
    Phone,
    Url,
    FirstName,
    LastName,
    PersonName,
    Name,
    Title,
    Sentence,
    Address,
    City,
    State,
    Country,
    Currency,
    Status,
    Gender,
    Color,
    Category,
    Code,
}

impl Flavor {
    /// Whether a JSON `number` of this flavor is an integer.
    pub fn is_integral(self) -> bool {
        use Flavor::*;
        matches!(
            self,
            Id | Flag | Year | Month | Day | Hour | Count | Rating | Age | Zip
        )
    }

    /// Decimals for a decimal of this flavor with no declared scale.
    pub fn scale(self) -> u8 {
        match self {
            Flavor::Latitude | Flavor::Longitude => 6,
            _ => 2,
        }
    }

    /// The kind of a column of this flavor that no hint file describes.
    pub fn default_kind(self) -> Kind {
        use Flavor::*;
        match self {
            Flag => Kind::Bool,
            Id | Year | Month | Day | Hour | Count | Rating | Age => Kind::Int,
            Amount | Percent | Measure | Latitude | Longitude => Kind::Decimal {
                scale: self.scale(),
            },
            Date => Kind::Date,
            Timestamp => Kind::Timestamp,
            _ => Kind::Text { max_len: None },
        }
    }
}

/// A pattern of the rule tables (see the module docs).
#[derive(Debug, Clone, Copy)]
enum Pat {
    Name(&'static str),
    First(&'static str),
    Last(&'static str),
    Token(&'static str),
    Desc(&'static str),
}

use Flavor as F;
use Pat::{Desc, First, Last, Name, Token};

/// Rules on column names, in the order they are tried.
const NAME_RULES: &[(Pat, Flavor)] = &[
    // flags
    (First("is"), F::Flag),
    (First("has"), F::Flag),
    (First("was"), F::Flag),
    (Last("flag"), F::Flag),
    (Name("fivetran_deleted"), F::Flag),
    (Name("fivetran_active"), F::Flag),
    // contact details and person names, before `name`, `number`, `id`
    (Token("email"), F::Email),
    (Token("phone"), F::Phone),
    (Token("fax"), F::Phone),
    (Token("url"), F::Url),
    (Token("website"), F::Url),
    (Token("homepage"), F::Url),
    (Name("first_name"), F::FirstName),
    (Name("given_name"), F::FirstName),
    (Name("last_name"), F::LastName),
    (Name("surname"), F::LastName),
    (Name("family_name"), F::LastName),
    (Name("full_name"), F::PersonName),
    // time
    (Token("timestamp"), F::Timestamp),
    (Token("datetime"), F::Timestamp),
    (Last("at"), F::Timestamp),
    (Last("time"), F::Timestamp),
    (Last("synced"), F::Timestamp),
    (Token("date"), F::Date),
    (Token("birthday"), F::Date),
    (Token("dob"), F::Date),
    (Token("year"), F::Year),
    (Token("yr"), F::Year),
    (Token("month"), F::Month),
    (Last("day"), F::Day),
    (Token("hour"), F::Hour),
    // keys and codes
    (Name("zip_code"), F::Zip),
    (Last("id"), F::Id),
    (Last("key"), F::Id),
    (Last("no"), F::Id),
    (Last("nbr"), F::Id),
    (Last("number"), F::Id),
    (Token("index"), F::Id),
    (Last("code"), F::Code),
    (Token("person"), F::PersonName),
    // geography
    (Token("latitude"), F::Latitude),
    (Token("lat"), F::Latitude),
    (Token("longitude"), F::Longitude),
    (Token("lng"), F::Longitude),
    (Token("lon"), F::Longitude),
    (Token("zip"), F::Zip),
    (Token("zipcode"), F::Zip),
    (Token("postal"), F::Zip),
    (Token("address"), F::Address),
    (Token("street"), F::Address),
    (Token("city"), F::City),
    (Token("state"), F::State),
    (Token("country"), F::Country),
    (Token("nation"), F::Country),
    // money and measures
    (Token("currency"), F::Currency),
    (Token("price"), F::Amount),
    (Token("cost"), F::Amount),
    (Token("amount"), F::Amount),
    (Token("revenue"), F::Amount),
    (Token("spend"), F::Amount),
    (Token("balance"), F::Amount),
    (Token("salary"), F::Amount),
    (Token("fee"), F::Amount),
    (Token("budget"), F::Amount),
    (Token("total"), F::Amount),
    (Token("tax"), F::Amount),
    (Token("discount"), F::Amount),
    (Token("payment"), F::Amount),
    (Token("income"), F::Amount),
    (Token("percent"), F::Percent),
    (Token("percentage"), F::Percent),
    (Token("pct"), F::Percent),
    (Token("rate"), F::Percent),
    (Token("ratio"), F::Percent),
    (Token("rating"), F::Rating),
    (Token("stars"), F::Rating),
    (Token("score"), F::Rating),
    (Token("age"), F::Age),
    (Token("count"), F::Count),
    (Token("num"), F::Count),
    (Token("quantity"), F::Count),
    (Token("qty"), F::Count),
    (Token("clicks"), F::Count),
    (Token("impressions"), F::Count),
    (Token("views"), F::Count),
    (Token("votes"), F::Count),
    (Token("likes"), F::Count),
    (Token("points"), F::Count),
    (Token("goals"), F::Count),
    (Token("wins"), F::Count),
    (Token("conversions"), F::Count),
    (Token("installs"), F::Count),
    (Token("downloads"), F::Count),
    (Token("sessions"), F::Count),
    (Token("rank"), F::Count),
    (Token("population"), F::Count),
    (Token("height"), F::Measure),
    (Token("weight"), F::Measure),
    (Token("length"), F::Measure),
    (Token("width"), F::Measure),
    (Token("duration"), F::Measure),
    (Token("distance"), F::Measure),
    (Token("area"), F::Measure),
    // categorical and free text
    (Token("status"), F::Status),
    (Token("gender"), F::Gender),
    (Token("sex"), F::Gender),
    (Token("color"), F::Color),
    (Token("colour"), F::Color),
    (Token("type"), F::Category),
    (Token("category"), F::Category),
    (Token("kind"), F::Category),
    (Token("class"), F::Category),
    (Token("level"), F::Category),
    (Token("tier"), F::Category),
    (Token("mode"), F::Category),
    (Token("region"), F::Category),
    (Token("division"), F::Category),
    (Token("genre"), F::Category),
    (Token("language"), F::Category),
    (Token("device"), F::Category),
    (Token("platform"), F::Category),
    (Token("network"), F::Category),
    (Token("abbreviation"), F::Code),
    (Token("abbr"), F::Code),
    (Token("symbol"), F::Code),
    (Token("sku"), F::Code),
    (Token("code"), F::Code),
    (Token("title"), F::Title),
    (Token("subject"), F::Title),
    (Token("headline"), F::Title),
    (Token("description"), F::Sentence),
    (Token("comment"), F::Sentence),
    (Token("comments"), F::Sentence),
    (Token("text"), F::Sentence),
    (Token("body"), F::Sentence),
    (Token("content"), F::Sentence),
    (Token("summary"), F::Sentence),
    (Token("note"), F::Sentence),
    (Token("notes"), F::Sentence),
    (Token("message"), F::Sentence),
    (Token("review"), F::Sentence),
    (Token("name"), F::Name),
];

/// Rules on descriptions, tried when no name rule matches.
const DESCRIPTION_RULES: &[(Pat, Flavor)] = &[
    (Desc("whether"), F::Flag),
    (Desc("email"), F::Email),
    (Desc("date"), F::Date),
    (Desc("year"), F::Year),
    (Desc("number of"), F::Count),
    (Desc("count"), F::Count),
    (Desc("price"), F::Amount),
    (Desc("amount"), F::Amount),
    (Desc("cost"), F::Amount),
    (Desc("percentage"), F::Percent),
    (Desc("identifier"), F::Id),
    (Desc("unique id"), F::Id),
    (Desc("code"), F::Code),
    (Desc("name"), F::Name),
];

/// The flavor of a column: the first name rule that matches, else the
/// first description rule, else [`Flavor::Plain`].
pub fn classify(name: &str, description: &str) -> Flavor {
    let tokens = tokens(name);
    let description = description.to_lowercase();
    let matches = |pat: &Pat| pat_matches(*pat, &tokens, &description);
    NAME_RULES
        .iter()
        .chain(DESCRIPTION_RULES)
        .find(|(pat, _)| matches(pat))
        .map_or(Flavor::Plain, |(_, flavor)| *flavor)
}

fn pat_matches(pat: Pat, tokens: &[String], description: &str) -> bool {
    match pat {
        Name(s) => tokens.join("_") == s,
        First(s) => tokens.first().is_some_and(|t| t == s),
        Last(s) => tokens.last().is_some_and(|t| t == s),
        Token(s) => tokens.iter().any(|t| t == s),
        Desc(s) => description.contains(s),
    }
}

/// Lower-case tokens of a column name: split at every character that is
/// not a letter or digit and at camel-case boundaries (`TransactionID` →
/// `transaction`, `id`; `HTMLParser` → `html`, `parser`).
pub fn tokens(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            flush(&mut current, &mut out);
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        if c.is_uppercase() && starts_word(prev, next) {
            flush(&mut current, &mut out);
        }
        current.extend(c.to_lowercase());
    }
    flush(&mut current, &mut out);
    out
}

/// Whether an upper-case letter between `prev` and `next` starts a word.
fn starts_word(prev: Option<char>, next: Option<char>) -> bool {
    match prev {
        Some(p) if p.is_lowercase() || p.is_ascii_digit() => true,
        Some(p) if p.is_uppercase() => next.is_some_and(char::is_lowercase),
        _ => false,
    }
}

fn flush(current: &mut String, out: &mut Vec<String>) {
    if !current.is_empty() {
        out.push(std::mem::take(current));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_names_into_tokens() {
        assert_eq!(tokens("orderNumber"), ["order", "number"]);
        assert_eq!(tokens("TransactionID"), ["transaction", "id"]);
        assert_eq!(tokens("HTMLParser"), ["html", "parser"]);
        assert_eq!(tokens("_fivetran_deleted"), ["fivetran", "deleted"]);
        assert_eq!(tokens("CBSA_name"), ["cbsa", "name"]);
        assert_eq!(tokens("Product Name"), ["product", "name"]);
    }

    #[test]
    fn name_rules_pick_flavors() {
        let cases = [
            ("is_active", F::Flag),
            ("isEnglish", F::Flag),
            ("_fivetran_deleted", F::Flag),
            ("email_address", F::Email),
            ("FirstName", F::FirstName),
            ("created_at", F::Timestamp),
            ("birth_date", F::Date),
            ("year", F::Year),
            ("customer_id", F::Id),
            ("orderNumber", F::Id),
            ("zip_code", F::Zip),
            ("country_code", F::Code),
            ("unit_price", F::Amount),
            ("num_votes", F::Count),
            ("latitude", F::Latitude),
            ("status", F::Status),
            ("title", F::Title),
            ("CBSA_name", F::Name),
            ("_fivetran_synced", F::Timestamp),
            ("person", F::PersonName),
            ("person_id", F::Id),
            ("xyzzy", F::Plain),
        ];
        for (name, flavor) in cases {
            assert_eq!(classify(name, ""), flavor, "{name}");
        }
    }

    #[test]
    fn descriptions_decide_only_when_names_say_nothing() {
        assert_eq!(classify("CBSA", "the code of the cbsa officer"), F::Code);
        assert_eq!(classify("vip", "whether the member is a VIP"), F::Flag);
        assert_eq!(classify("year", "the date of the year"), F::Year);
    }
}
