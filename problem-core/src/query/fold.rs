//! Case folding for case-insensitive matching: Unicode simple case folding
//! (the `C` and `S` mappings of the Unicode Character Database's
//! `CaseFolding.txt`), the same on every database and in memory
//! (hostile-input rule "Case-insensitive matching").

use std::borrow::Cow;

use icu_casemap::CaseMapper;

/// `text` with every character replaced by its Unicode simple case folding
/// (one character for one character: `MÁRQUEZ` folds to `márquez`, `Σ` and
/// `ς` to `σ`, `ẞ` to `ß`); borrowed when nothing changes.
///
/// Search (`q`) folds its terms with it and compares them with the folded
/// text of each searched field: in memory directly, and in SQL against a
/// field's `folded_column` (a column the application fills with
/// `fold_case` of the field's text), so SQLite, whose `LOWER` folds ASCII
/// only, and PostgreSQL find the same rows.
///
/// ```
/// use problem_core::query::fold_case;
/// assert_eq!(fold_case("MÁRQUEZ"), "márquez");
/// assert_eq!(fold_case("ΣΊΣΥΦΟΣ"), "σίσυφοσ");
/// assert_eq!(fold_case("Straße ẞ"), "straße ß");
/// assert!(matches!(fold_case("already folded"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn fold_case(text: &str) -> Cow<'_, str> {
    if text
        .bytes()
        .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
    {
        return Cow::Borrowed(text);
    }
    let mapper = CaseMapper::new();
    if text.chars().all(|c| mapper.simple_fold(c) == c) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(|c| mapper.simple_fold(c)).collect())
}
