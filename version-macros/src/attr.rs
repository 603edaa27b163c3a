//! Parsing the constraint literals of `#[versioned("1.0", "2.x", "2.1+")]`,
//! with the same rules as `problem_core::version::VersionConstraint`'s
//! `FromStr`.

use proc_macro2::{Span, TokenStream};
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, Lit, Token};

use crate::ast::{Constraint, Kind, Version};
use crate::valid::Errors;

const USAGE: &str = "write a version (\"1.0\"), a major with any minor (\"2.x\"), a minimum (\"2.1+\") or a range (\"1.0..=2.5\")";

/// How the attribute's list is written.
const LIST_USAGE: &str = "write the constraints as string literals separated by commas, e.g. #[versioned(\"1.0\", \"2.x\")]";

/// The constraints of the attribute arguments.
pub(crate) fn constraints(args: TokenStream) -> syn::Result<Vec<Constraint>> {
    if args.is_empty() {
        return Err(syn::Error::new(
            Span::call_site(),
            "#[versioned] needs at least one version constraint, e.g. #[versioned(\"1.0\", \"2.x\")]",
        ));
    }
    let parser = Punctuated::<Expr, Token![,]>::parse_terminated;
    let list = syn::parse::Parser::parse2(parser, args)
        .map_err(|e| syn::Error::new(e.span(), format!("{e}: {LIST_USAGE}")))?;
    // Every malformed constraint at once, not only the first.
    let mut errors = Errors::default();
    let mut out = Vec::new();
    for expr in &list {
        match constraint(expr) {
            Ok(c) => out.push(c),
            Err(err) => errors.push(err),
        }
    }
    errors.finish().map(|()| out)
}

/// The string literals of a constraint list written another way: the
/// right side of `key = "1.x"`, an array `["1.x", "2.x"]`, or literals
/// joined by an operator (`"1.x" | "2.x"`); `None` when anything else is
/// in it.
#[allow(
    clippy::wildcard_enum_match_arm,
    reason = "syn::Expr is #[non_exhaustive]: every other expression holds no constraint list"
)]
fn wrapped_literals(expr: &Expr) -> Option<Vec<String>> {
    #[allow(
        clippy::wildcard_enum_match_arm,
        reason = "syn::Expr is #[non_exhaustive]: every other expression holds no constraint list"
    )]
    fn leaves(expr: &Expr, out: &mut Vec<String>) -> Option<()> {
        match expr {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => out.push(s.value()),
            Expr::Binary(b) => {
                leaves(&b.left, out)?;
                leaves(&b.right, out)?;
            }
            Expr::Array(a) => {
                for e in &a.elems {
                    leaves(e, out)?;
                }
            }
            Expr::Paren(p) => leaves(&p.expr, out)?,
            Expr::Group(g) => leaves(&g.expr, out)?,
            _ => return None,
        }
        Some(())
    }
    let mut out = Vec::new();
    match expr {
        Expr::Assign(a) => leaves(&a.right, &mut out)?,
        Expr::Binary(_) | Expr::Array(_) | Expr::Paren(_) => leaves(expr, &mut out)?,
        _ => return None,
    }
    (!out.is_empty()).then_some(out)
}

#[allow(
    clippy::wildcard_enum_match_arm,
    reason = "syn::Expr is #[non_exhaustive]: every other expression is the mistake reported"
)]
fn constraint(mut expr: &Expr) -> syn::Result<Constraint> {
    // A literal passed through a `macro_rules!` fragment (`$v:literal`)
    // arrives in an invisible group, and is the literal all the same.
    while let Expr::Group(group) = expr {
        expr = &group.expr;
    }
    let lit = match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => s,
        Expr::Lit(ExprLit {
            lit: lit @ (Lit::Int(_) | Lit::Float(_)),
            ..
        }) => {
            let text = quote::ToTokens::to_token_stream(lit).to_string();
            return Err(syn::Error::new_spanned(
                expr,
                format!("write the version constraint as a string literal: \"{text}\""),
            ));
        }
        _ => {
            // The constraints are right, their wrapping is not
            // (`version = "1.x"`, `["1.x", "2.x"]`, `"1.x" | "2.x"`): the
            // attribute to write.
            if let Some(texts) = wrapped_literals(expr) {
                let list: Vec<String> = texts.iter().map(|t| format!("{t:?}")).collect();
                let what = if texts.len() == 1 {
                    "the constraint alone"
                } else {
                    "the constraints separated by commas"
                };
                return Err(syn::Error::new_spanned(
                    expr,
                    format!("write {what}: #[versioned({})]", list.join(", ")),
                ));
            }
            return Err(syn::Error::new_spanned(
                expr,
                format!("expected a version constraint string literal: {USAGE}"),
            ));
        }
    };
    let text = lit.value();
    match parse_constraint(&text) {
        Ok(kind) => Ok(Constraint {
            kind,
            text,
            span: lit.span(),
        }),
        Err(Reject::OutOfRange) => Err(syn::Error::new(
            lit.span(),
            format!(
                "version constraint \"{text}\" has a number over 65535: a major and a minor version are each at most 65535; write one such as \"2\", \"2.1\" or \"2.x\""
            ),
        )),
        Err(Reject::Malformed) => Err(syn::Error::new(
            lit.span(),
            format!(
                "malformed version constraint \"{text}\": {}",
                hint(&text).unwrap_or_else(|| USAGE.to_owned())
            ),
        )),
    }
}

/// `major.minor` as the constraint literals write it.
fn show((major, minor): Version) -> String {
    format!("{major}.{minor}")
}

/// What to write instead of a constraint in another notation (Cargo's
/// `>=2.1`, Rust's `1..2`, `2.*`, ...), when it is clear.
fn hint(text: &str) -> Option<String> {
    if text.contains(',') {
        let parts: Vec<String> = text
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| format!("\"{p}\""))
            .collect();
        return Some(format!(
            "one constraint per string: write #[versioned({})]",
            parts.join(", ")
        ));
    }
    let trimmed = text.trim();
    if trimmed != text && parse_constraint(trimmed).is_ok() {
        return Some(format!("write \"{trimmed}\", without spaces"));
    }
    let t = trimmed;
    if let Some(rest) = t.strip_prefix(">=") {
        let v = parse_version(rest.trim()).ok()?;
        return Some(format!(
            "a minimum is written with a trailing `+`: write \"{}+\" ({} and later)",
            show(v),
            show(v)
        ));
    }
    if let Some(rest) = t.strip_prefix("<=") {
        let v = parse_version(rest.trim()).ok()?;
        let first = if v >= (1, 0) { (1, 0) } else { (0, 0) };
        return Some(format!(
            "an upper bound is written as a range from the first version: write \"{}..={}\" (both ends included)",
            show(first),
            show(v)
        ));
    }
    if let Some(rest) = t.strip_prefix("==").or_else(|| t.strip_prefix('=')) {
        let v = parse_version(rest.trim()).ok()?;
        return Some(format!(
            "an exact version is written alone: write \"{}\"",
            show(v)
        ));
    }
    if let Some(major) = t.strip_suffix(".*") {
        let (m, _) = parse_version(major).ok()?;
        if !major.contains('.') {
            return Some(format!(
                "every minor of a major is written `.x`: write \"{m}.x\""
            ));
        }
    }
    if t == "*" || t.eq_ignore_ascii_case("x") {
        return Some(
            "every version is the minimum from the first: write \"0.0+\" (or list the majors served, e.g. \"1.x\", \"2.x\")"
                .to_owned(),
        );
    }
    if let Some(rest) = t.strip_prefix('>') {
        return greater_than(rest.trim());
    }
    if let Some(rest) = t.strip_prefix('<') {
        return less_than(rest.trim());
    }
    if let Some(rest) = t.strip_prefix('^') {
        return caret(rest.trim());
    }
    if let Some(rest) = t.strip_prefix('~') {
        return tilde(rest.trim());
    }
    if let Some(v) = semver(t) {
        return Some(format!(
            "an API version is `major.minor`, with no patch: write \"{}\"",
            show(v)
        ));
    }
    let range = t
        .split_once("..=")
        .or_else(|| t.split_once(".."))
        .or_else(|| t.split_once(" - "));
    if let Some((low, high)) = range {
        let (low_text, high_text) = (low.trim(), high.trim());
        let (low, high) = (range_end(low_text, false)?, range_end(high_text, true)?);
        let reversed = low > high;
        let (low, high) = if reversed { (high, low) } else { (low, high) };
        let whole_majors = low.1 == 0 && (high.1 == u16::MAX || is_major(high_text));
        let exclusive_whole_major = !reversed
            && !t.contains("..=")
            && !is_major(high_text)
            && low.1 == 0
            && high == (low.0.saturating_add(1), 0);
        let alternative = if exclusive_whole_major {
            format!(", or \"{}.x\" for every {}.* version", low.0, low.0)
        } else if whole_majors && high.0 > low.0 && high.0 - low.0 < 4 {
            let majors: Vec<String> = (low.0..=high.0).map(|m| format!("\"{m}.x\"")).collect();
            format!(", or list the majors: #[versioned({})]", majors.join(", "))
        } else {
            String::new()
        };
        let lower_first = if reversed { ", lower end first," } else { "" };
        return Some(format!(
            "a range is written with `..=`{lower_first} and includes both ends: write \"{}..={}\"{alternative}",
            show(low),
            show(high)
        ));
    }
    None
}

/// `2.x` as the end of a range: its first minor at the low end, its last at
/// the high end; or a version.
fn range_end(text: &str, high: bool) -> Option<Version> {
    match text.strip_suffix(".x").or_else(|| text.strip_suffix(".X")) {
        Some(major) if !major.contains('.') => {
            let (m, _) = parse_version(major).ok()?;
            Some((m, if high { u16::MAX } else { 0 }))
        }
        Some(_) => None,
        None => parse_version(text).ok(),
    }
}

/// `2.x` (a major with any minor).
fn is_major(text: &str) -> bool {
    text.ends_with(".x") || text.ends_with(".X")
}

/// `>2.0`: the versions after it, from the next one on.
fn greater_than(rest: &str) -> Option<String> {
    let v = parse_version(rest).ok()?;
    let next = match v {
        (major, u16::MAX) => (major.checked_add(1)?, 0),
        (major, minor) => (major, minor + 1),
    };
    // Cargo reads `>2` as "after every 2.*".
    let after_major = match (rest.contains('.'), v.0.checked_add(1)) {
        (false, Some(m)) => format!(", or \"{m}.0+\" for the majors after {}", v.0),
        (true, _) | (false, None) => String::new(),
    };
    Some(format!(
        "a minimum is written with a trailing `+` and includes its version: write \"{}+\" (the versions after {}){after_major}",
        show(next),
        show(v)
    ))
}

/// `<3`: the versions before it, as a range from the first version.
fn less_than(rest: &str) -> Option<String> {
    let v = parse_version(rest).ok()?;
    let last = match v {
        (0, 0) => return None,
        (major, 0) => (major - 1, u16::MAX),
        (major, minor) => (major, minor - 1),
    };
    let first = if last >= (1, 0) { (1, 0) } else { (0, 0) };
    let majors = if v.1 == 0 && v.0 - first.0 <= 3 {
        let majors: Vec<String> = (first.0..v.0).map(|m| format!("\"{m}.x\"")).collect();
        format!(", or list the majors: #[versioned({})]", majors.join(", "))
    } else {
        String::new()
    };
    Some(format!(
        "an upper bound is written as a range from the first version, both ends included: write \"{}..={}\"{majors}",
        show(first),
        show(last)
    ))
}

/// Cargo's `^2.1`: up to the next major (the next minor below 1.0).
fn caret(rest: &str) -> Option<String> {
    let (major, minor) = parse_version(rest).ok()?;
    let has_minor = rest.contains('.');
    let write = match (major, has_minor) {
        (0, true) => format!("\"0.{minor}\" (0.{minor} only, as Cargo reads it)"),
        (_, false) => format!("\"{major}.x\" (every {major}.*)"),
        (_, true) if minor == 0 => format!("\"{major}.x\" (every {major}.*)"),
        (_, true) => {
            format!("\"{major}.{minor}..={major}.65535\" ({major}.{minor} and the later {major}.*)")
        }
    };
    Some(format!(
        "Cargo's `^` requirement is not a version constraint: write {write}"
    ))
}

/// Cargo's `~2.1`: the patches of one version, which API versions have not.
fn tilde(rest: &str) -> Option<String> {
    let (major, minor) = parse_version(rest).ok()?;
    let write = if rest.contains('.') {
        format!("\"{major}.{minor}\" (an API version has no patches)")
    } else {
        format!("\"{major}.x\" (every {major}.*)")
    };
    Some(format!(
        "Cargo's `~` requirement is not a version constraint: write {write}"
    ))
}

/// `1.2.3`, `1.2.x`, `1.2.*`: a semantic version, as `major.minor`.
fn semver(text: &str) -> Option<Version> {
    let (version, patch) = text.rsplit_once('.')?;
    let patch_ok = matches!(patch, "x" | "X" | "*")
        || (!patch.is_empty() && patch.bytes().all(|b| b.is_ascii_digit()));
    if !patch_ok || !version.contains('.') {
        return None;
    }
    parse_version(version).ok()
}

/// Why a version did not parse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reject {
    /// Not `[v]MAJOR[.MINOR]`.
    Malformed,
    /// A number over 65535.
    OutOfRange,
}

fn number(text: &str) -> Result<u16, Reject> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Reject::Malformed);
    }
    text.parse::<u16>().map_err(|_| Reject::OutOfRange)
}

/// `[v|V]MAJOR[.MINOR]`.
pub(crate) fn parse_version(text: &str) -> Result<Version, Reject> {
    let body = text
        .strip_prefix('v')
        .or_else(|| text.strip_prefix('V'))
        .unwrap_or(text);
    let mut parts = body.split('.');
    let major = number(parts.next().unwrap_or(""))?;
    let minor = match parts.next() {
        Some(m) => number(m)?,
        None => 0,
    };
    if parts.next().is_some() {
        return Err(Reject::Malformed);
    }
    Ok((major, minor))
}

/// The constraint forms: `1.0`, `2.x`, `2.1+`, `1.0..=2.5`.
pub(crate) fn parse_constraint(text: &str) -> Result<Kind, Reject> {
    if let Some((low, high)) = text.split_once("..=") {
        return Ok(Kind::Range(parse_version(low)?, parse_version(high)?));
    }
    if let Some(min) = text.strip_suffix('+') {
        return Ok(Kind::Minimum(parse_version(min)?));
    }
    if let Some(major) = text.strip_suffix(".x").or_else(|| text.strip_suffix(".X")) {
        let (m, _) = parse_version(major)?;
        if major.contains('.') {
            return Err(Reject::Malformed);
        }
        return Ok(Kind::Range((m, 0), (m, u16::MAX)));
    }
    Ok(Kind::Exact(parse_version(text)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        assert_eq!(parse_constraint("1.0"), Ok(Kind::Exact((1, 0))));
        assert_eq!(parse_constraint("v2"), Ok(Kind::Exact((2, 0))));
        assert_eq!(parse_constraint("2.x"), Ok(Kind::Range((2, 0), (2, 65535))));
        assert_eq!(parse_constraint("2.1+"), Ok(Kind::Minimum((2, 1))));
        assert_eq!(
            parse_constraint("1.2..=2.5"),
            Ok(Kind::Range((1, 2), (2, 5)))
        );
        for bad in [
            "", "x", "2.1.x", "2.x+", "1.2.3", "-1", "+1", "1.", "v", " 1",
        ] {
            assert_eq!(parse_constraint(bad), Err(Reject::Malformed), "{bad:?}");
        }
        assert_eq!(parse_constraint("70000"), Err(Reject::OutOfRange));
    }

    #[test]
    fn hints() {
        let h = |s: &str| hint(s).unwrap_or_default();
        assert!(h(">=2.1").contains("write \"2.1+\""));
        assert!(h(">= 2").contains("write \"2.0+\""));
        assert!(h("<=2.1").contains("write \"1.0..=2.1\""));
        assert!(h("<=0.9").contains("write \"0.0..=0.9\""));
        assert!(h("=1.0").contains("write \"1.0\""));
        assert!(h("2.*").contains("write \"2.x\""));
        assert!(h("1..2").contains("write \"1.0..=2.0\", or \"1.x\""));
        assert!(h("1.2..2.5").contains("write \"1.2..=2.5\""));
        assert!(!h("1.2..2.5").contains(".x"));
        assert!(h("1.0 - 2.0").contains("write \"1.0..=2.0\""));
        assert!(h(" 1.0").contains("without spaces"));
        assert!(h("1.0.0").contains("no patch: write \"1.0\""));
        assert!(h("1.2.x").contains("write \"1.2\""));
        assert!(h(">2.0").contains("write \"2.1+\""));
        assert!(h(">2").contains("write \"2.1+\" (the versions after 2.0), or \"3.0+\""));
        assert!(h(">1.65535").contains("write \"2.0+\""));
        assert!(h("<3").contains(
            "write \"1.0..=2.65535\", or list the majors: #[versioned(\"1.x\", \"2.x\")]"
        ));
        assert!(h("<2.5").contains("write \"1.0..=2.4\""));
        assert!(!h("<2.5").contains("majors"));
        assert!(
            h("<1").contains("write \"0.0..=0.65535\", or list the majors: #[versioned(\"0.x\")]")
        );
        assert_eq!(hint("<0"), None);
        assert!(h("^2").contains("write \"2.x\""));
        assert!(h("^2.0").contains("write \"2.x\""));
        assert!(h("^2.1").contains("write \"2.1..=2.65535\""));
        assert!(h("^0.3").contains("write \"0.3\""));
        assert!(h("~2.1").contains("write \"2.1\""));
        assert!(h("~2").contains("write \"2.x\""));
        assert!(h("2.x..=3.x").contains(
            "write \"2.0..=3.65535\", or list the majors: #[versioned(\"2.x\", \"3.x\")]"
        ));
        assert!(
            h("5.0..4.0").contains("lower end first, and includes both ends: write \"4.0..=5.0\"")
        );
        assert!(h("*").contains("write \"0.0+\""));
        assert_eq!(hint("1.2.3.4"), None);
        assert_eq!(hint(">=x"), None);
        assert_eq!(hint("1..=x"), None);
    }

    #[test]
    fn overlaps() {
        let c = |s| parse_constraint(s).unwrap();
        assert!(c("2.x").overlaps(c("2.1")));
        assert!(!c("2.x").overlaps(c("3.0")));
        assert!(c("2.1+").overlaps(c("5.x")));
        assert!(!c("1.0").overlaps(c("1.1")));
    }
}
