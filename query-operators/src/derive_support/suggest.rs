//! "Did you mean" hints for a misspelt key or operator, one rule for the
//! three derive crates.

/// The known name `name` is most likely a slip of: one within two edits
/// (Levenshtein) and fewer edits than `name` has characters (`x` is no
/// slip of `eq`), or one `name` starts with that has at least four
/// characters (`sortable` → `sort`, `filters` → `filter`). The closest
/// wins; among equals, the first in alphabetical order.
#[must_use]
pub fn closest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (edit_distance(name, k), *k))
        .filter(|(d, k)| {
            (*d <= 2 && *d < name.chars().count()) || (name.starts_with(k) && k.len() >= 4)
        })
        .min()
        .map(|(_, k)| k)
}

/// Levenshtein distance in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            let best = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
            cur.push(best);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::{closest, edit_distance};

    #[test]
    fn distances() {
        assert_eq!(edit_distance("titel", "title"), 2);
        assert_eq!(edit_distance("stats", "status"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("skip", "skip"), 0);
    }

    #[test]
    fn suggestions() {
        let field = ["filter", "sort", "search", "select", "column", "rename"];
        assert_eq!(closest("sortable", &field), Some("sort"));
        assert_eq!(closest("searchable", &field), Some("search"));
        assert_eq!(closest("filters", &field), Some("filter"));
        assert_eq!(closest("colum", &field), Some("column"));
        assert_eq!(closest("tags", &field), None);
        let ops = ["eq", "ne", "gt", "in", "contains", "starts_with"];
        assert_eq!(closest("contain", &ops), Some("contains"));
        assert_eq!(closest("eqq", &ops), Some("eq"));
        assert_eq!(closest("startswith", &ops), Some("starts_with"));
        assert_eq!(closest("x", &ops), None);
        let keys = ["type", "title", "status", "detail"];
        assert_eq!(closest("titel", &keys), Some("title"));
        assert_eq!(closest("stats", &keys), Some("status"));
    }
}
