//! New names for a task's tables, columns and models: deterministic
//! pronounceable words drawn from a hash of (seed, old name), unique
//! ignoring case and never equal to any name of the source suite.
//! [`Renames`] is one task's old (lower-cased) => new map. Never reads files.

use std::collections::{BTreeMap, BTreeSet};

const CONSONANTS: &[u8] = b"bdfgklmnprstvz";
const VOWELS: &[u8] = b"aeiou";

/// FNV-1a over the seed and a text.
pub fn hash(seed: u64, text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// A step of xorshift64*.
pub fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

/// A word of `syllables` consonant-vowel pairs.
pub fn word(state: &mut u64, syllables: usize) -> String {
    let mut out = String::new();
    for _ in 0..syllables {
        let r = next(state);
        out.push(char::from(
            CONSONANTS[(r % CONSONANTS.len() as u64) as usize],
        ));
        out.push(char::from(
            VOWELS[((r >> 8) % VOWELS.len() as u64) as usize],
        ));
    }
    out
}

/// One task's renames: lower-cased old name => new name.
#[derive(Debug, Clone, Default)]
pub struct Renames {
    map: BTreeMap<String, String>,
}

impl Renames {
    /// Names every identifier of `old` (tables, columns, models) anew;
    /// `taken` holds every name of the source suite (lower case) and grows
    /// with the names given.
    pub fn new<'a>(
        seed: u64,
        old: impl Iterator<Item = &'a str>,
        taken: &mut BTreeSet<String>,
    ) -> Self {
        let mut map = BTreeMap::new();
        let wanted: BTreeSet<String> = old.map(str::to_ascii_lowercase).collect();
        for name in wanted {
            let mut state = hash(seed, &name) | 1;
            let new = loop {
                let candidate = format!("{}_{}", word(&mut state, 2), word(&mut state, 2));
                if taken.insert(candidate.clone()) {
                    break candidate;
                }
            };
            map.insert(name, new);
        }
        Self { map }
    }

    /// The new name of `old` (any case), if it is renamed.
    pub fn get(&self, old: &str) -> Option<&str> {
        self.map.get(&old.to_ascii_lowercase()).map(String::as_str)
    }

    /// The new name, or `old` unchanged.
    pub fn apply(&self, old: &str) -> String {
        self.get(old).map_or_else(|| old.to_owned(), str::to_owned)
    }

    /// Every new name.
    pub fn new_names(&self) -> impl Iterator<Item = &str> {
        self.map.values().map(String::as_str)
    }

    /// Renames whole words of free text (descriptions).
    pub fn apply_words(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut word = String::new();
        for c in text.chars() {
            if c.is_ascii_alphanumeric() || c == '_' {
                word.push(c);
            } else {
                out.push_str(&self.apply(&word));
                word.clear();
                out.push(c);
            }
        }
        out.push_str(&self.apply(&word));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_deterministic_unique_and_new() {
        let old = ["orders", "Orders", "id", "customer_id"];
        let mut taken: BTreeSet<String> = old.iter().map(|s| s.to_ascii_lowercase()).collect();
        let a = Renames::new(7, old.iter().copied(), &mut taken.clone());
        let b = Renames::new(7, old.iter().copied(), &mut taken);
        assert_eq!(a.get("ORDERS"), b.get("orders"));
        let names: BTreeSet<&str> = a.new_names().collect();
        assert_eq!(names.len(), 3);
        assert!(names.iter().all(|n| !old.contains(n)));
        let other = Renames::new(8, old.iter().copied(), &mut BTreeSet::new());
        assert_ne!(a.get("id"), other.get("id"));
    }

    #[test]
    fn words_of_descriptions_are_renamed() {
        let r = Renames::new(1, ["id"].into_iter(), &mut BTreeSet::new());
        let new = r.get("id").unwrap().to_owned();
        assert_eq!(
            r.apply_words("The id (see id_x)."),
            format!("The {new} (see id_x).")
        );
    }
}
