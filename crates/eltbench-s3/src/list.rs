//! One page of a bucket listing: prefix filter, delimiter grouping into common prefixes,
//! resuming after a continuation token or marker, and the `max-keys` cut.
//!
//! Pure: it pages over entries already read from disk and sorted by key, and must never
//! touch the file system itself.

use std::path::PathBuf;
use std::time::SystemTime;

/// The most keys one page holds, as in S3.
pub(crate) const MAX_KEYS: usize = 1000;

/// One object found in a bucket directory.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub key: String,
    pub size: u64,
    pub modified: SystemTime,
    pub path: PathBuf,
}

/// What a client asked to list.
#[derive(Debug, Default)]
pub(crate) struct ListRequest<'a> {
    pub prefix: &'a str,
    pub delimiter: Option<&'a str>,
    /// Resume strictly after this key or common prefix (continuation token, marker or
    /// start-after).
    pub after: Option<&'a str>,
    pub max_keys: usize,
}

/// One page of results.
#[derive(Debug, Default)]
pub(crate) struct ListPage {
    pub objects: Vec<Entry>,
    pub common_prefixes: Vec<String>,
    /// The last key or common prefix returned, when more follow: the next page's `after`.
    pub next_after: Option<String>,
}

impl ListRequest<'_> {
    /// The common prefix `key` rolls up into, or `None` when it is listed by itself.
    fn common_prefix(&self, key: &str) -> Option<String> {
        let delimiter = self.delimiter.filter(|d| !d.is_empty())?;
        let rest = key.get(self.prefix.len()..)?;
        let at = rest.find(delimiter)?;
        Some(key[..self.prefix.len() + at + delimiter.len()].to_owned())
    }
}

/// Pages over `entries` (sorted by key) as S3 ListObjects would.
pub(crate) fn page(entries: &[Entry], req: &ListRequest<'_>) -> ListPage {
    let mut out = ListPage::default();
    let mut returned = 0;
    for entry in entries.iter().filter(|e| e.key.starts_with(req.prefix)) {
        let group = req.common_prefix(&entry.key);
        let rank = group.as_deref().unwrap_or(&entry.key);
        if req.after.is_some_and(|after| rank <= after) {
            continue;
        }
        if out.common_prefixes.last().map(String::as_str) == Some(rank) {
            continue;
        }
        if returned == req.max_keys {
            out.next_after = last_rank(&out);
            return out;
        }
        match group {
            Some(prefix) => out.common_prefixes.push(prefix),
            None => out.objects.push(entry.clone()),
        }
        returned += 1;
    }
    out
}

/// The greatest key or common prefix in `page`.
fn last_rank(page: &ListPage) -> Option<String> {
    let key = page.objects.last().map(|e| e.key.as_str());
    let prefix = page.common_prefixes.last().map(String::as_str);
    key.max(prefix).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(keys: &[&str]) -> Vec<Entry> {
        let mut v: Vec<Entry> = keys
            .iter()
            .map(|k| Entry {
                key: (*k).to_owned(),
                size: 1,
                modified: SystemTime::UNIX_EPOCH,
                path: PathBuf::from(k),
            })
            .collect();
        v.sort_by(|a, b| a.key.cmp(&b.key));
        v
    }

    fn keys(page: &ListPage) -> Vec<&str> {
        page.objects.iter().map(|e| e.key.as_str()).collect()
    }

    const KEYS: &[&str] = &[
        "a.csv",
        "data/x/1.csv",
        "data/x/2.csv",
        "data/y.csv",
        "data/z/3.csv",
        "z.csv",
    ];

    #[test]
    fn prefix_filters_keys() {
        let req = ListRequest {
            prefix: "data/x/",
            max_keys: MAX_KEYS,
            ..Default::default()
        };
        let p = page(&entries(KEYS), &req);
        assert_eq!(keys(&p), ["data/x/1.csv", "data/x/2.csv"]);
        assert!(p.next_after.is_none());
    }

    #[test]
    fn delimiter_groups_common_prefixes() {
        let req = ListRequest {
            prefix: "data/",
            delimiter: Some("/"),
            max_keys: MAX_KEYS,
            ..Default::default()
        };
        let p = page(&entries(KEYS), &req);
        assert_eq!(keys(&p), ["data/y.csv"]);
        assert_eq!(p.common_prefixes, ["data/x/", "data/z/"]);
    }

    #[test]
    fn pages_resume_after_token_without_repeats() {
        let all = entries(KEYS);
        let mut after: Option<String> = None;
        let mut seen = Vec::new();
        loop {
            let req = ListRequest {
                delimiter: Some("/"),
                after: after.as_deref(),
                max_keys: 1,
                ..Default::default()
            };
            let p = page(&all, &req);
            seen.extend(keys(&p).into_iter().map(str::to_owned));
            seen.extend(p.common_prefixes.iter().cloned());
            match p.next_after {
                Some(next) => after = Some(next),
                None => break,
            }
        }
        assert_eq!(seen, ["a.csv", "data/", "z.csv"]);
    }

    #[test]
    fn zero_max_keys_returns_nothing() {
        let req = ListRequest {
            max_keys: 0,
            ..Default::default()
        };
        let p = page(&entries(KEYS), &req);
        assert!(p.objects.is_empty() && p.common_prefixes.is_empty());
    }
}
