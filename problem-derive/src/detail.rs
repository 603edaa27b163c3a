//! The `detail` format string: parsed into literal text and placeholders so
//! that every placeholder can be checked against the fields at compile time
//! and rewritten to name the generated field bindings.

use syn::LitStr;

/// A field a placeholder refers to: `{isbn}` or `{0}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ArgRef {
    Named(String),
    Index(usize),
}

impl ArgRef {
    pub(crate) fn display(&self) -> String {
        match self {
            ArgRef::Named(n) => n.clone(),
            ArgRef::Index(i) => i.to_string(),
        }
    }
}

/// Part of the format spec after `:`: text, or a `name$` / `0$` count argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SpecPart {
    Text(String),
    Count(ArgRef),
}

/// One piece of the format string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// Literal text, escaped (`{{` and `}}` kept as written).
    Text(String),
    /// A placeholder with its (possibly empty) format spec.
    Arg { arg: ArgRef, spec: Vec<SpecPart> },
}

/// The formatting trait a placeholder uses, for bounds on generic fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FmtTrait {
    Display,
    Debug,
    LowerHex,
    UpperHex,
    Octal,
    Binary,
    LowerExp,
    UpperExp,
    Pointer,
}

impl FmtTrait {
    pub(crate) fn name(self) -> &'static str {
        match self {
            FmtTrait::Display => "Display",
            FmtTrait::Debug => "Debug",
            FmtTrait::LowerHex => "LowerHex",
            FmtTrait::UpperHex => "UpperHex",
            FmtTrait::Octal => "Octal",
            FmtTrait::Binary => "Binary",
            FmtTrait::LowerExp => "LowerExp",
            FmtTrait::UpperExp => "UpperExp",
            FmtTrait::Pointer => "Pointer",
        }
    }
}

/// The trait a format spec asks for (its trailing type character).
pub(crate) fn fmt_trait(spec: &[SpecPart]) -> FmtTrait {
    let text: String = spec
        .iter()
        .map(|p| match p {
            SpecPart::Text(t) => t.as_str(),
            SpecPart::Count(_) => "0",
        })
        .collect();
    if text.ends_with('?') {
        return FmtTrait::Debug;
    }
    match text.chars().last() {
        Some('x') => FmtTrait::LowerHex,
        Some('X') => FmtTrait::UpperHex,
        Some('o') => FmtTrait::Octal,
        Some('b') => FmtTrait::Binary,
        Some('e') => FmtTrait::LowerExp,
        Some('E') => FmtTrait::UpperExp,
        Some('p') => FmtTrait::Pointer,
        _ => FmtTrait::Display,
    }
}

/// Parses a `detail` literal. Errors are spanned on the literal and say how
/// to write the placeholder.
pub(crate) fn parse(lit: &LitStr) -> syn::Result<Vec<Piece>> {
    parse_str(&lit.value()).map_err(|msg| syn::Error::new(lit.span(), msg))
}

fn parse_str(s: &str) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut chars = s.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        match c {
            '{' if chars.peek().map(|(_, c)| *c) == Some('{') => {
                chars.next();
                text.push_str("{{");
            }
            '}' if chars.peek().map(|(_, c)| *c) == Some('}') => {
                chars.next();
                text.push_str("}}");
            }
            '}' => {
                return Err("unmatched `}` in `detail`: write `}}` for a literal brace".to_owned());
            }
            '{' => {
                let mut inner = String::new();
                let mut closed = false;
                for (_, c) in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    if c == '{' {
                        return Err(format!(
                            "invalid placeholder `{{{inner}{{` in `detail`: write `{{{{` for a literal brace"
                        ));
                    }
                    inner.push(c);
                }
                if !closed {
                    return Err(format!(
                        "unclosed placeholder `{{{inner}` in `detail`: close it with `}}`, or write `{{{{` for a literal brace"
                    ));
                }
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                }
                pieces.push(placeholder(&inner)?);
            }
            c => text.push(c),
        }
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Ok(pieces)
}

fn placeholder(inner: &str) -> Result<Piece, String> {
    let (arg, spec) = match inner.split_once(':') {
        Some((a, s)) => (a, Some(s)),
        None => (inner, None),
    };
    let arg = match arg_ref(arg) {
        Some(a) => a,
        None if arg.is_empty() => {
            return Err(format!(
                "`{{{inner}}}` in `detail` does not name a field: write `{{field}}` for a named field or `{{0}}` for a tuple field"
            ));
        }
        None => {
            return Err(format!(
                "`{{{inner}}}` in `detail`: `{arg}` is not a field name; write `{{field}}` for a named field or `{{0}}` for a tuple field"
            ));
        }
    };
    let spec = match spec {
        Some(s) => parse_spec(s, inner)?,
        None => Vec::new(),
    };
    Ok(Piece::Arg { arg, spec })
}

fn arg_ref(s: &str) -> Option<ArgRef> {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        return s.parse().ok().map(ArgRef::Index);
    }
    let ident = s.strip_prefix("r#").unwrap_or(s);
    let mut chars = ident.chars();
    let first = chars.next()?;
    if (first.is_alphabetic() || first == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
        && ident != "_"
    {
        Some(ArgRef::Named(ident.to_owned()))
    } else {
        None
    }
}

/// Checks `spec` against Rust's format spec grammar (`std::fmt`,
/// "Syntax"): `[[fill]align][sign]['#']['0'][width]['.' precision][type]`,
/// a width or precision being digits or a `name$` / `0$` argument, the
/// type one of `?`, `x?`, `X?`, `x`, `X`, `o`, `b`, `e`, `E`. rustc checks
/// it too, but its error would point into the generated code.
fn check_spec(spec: &str, inner: &str) -> Result<(), String> {
    let mut rest = spec;
    let mut chars = rest.chars();
    let is_align = |c: Option<char>| matches!(c, Some('<' | '^' | '>'));
    match (chars.next(), chars.next()) {
        (Some(fill), second) if is_align(second) => rest = &rest[fill.len_utf8() + 1..],
        (first, _) if is_align(first) => rest = &rest[1..],
        _ => {}
    }
    // A sign (`+` or `-`), then `#`, then `0`, each optional.
    for flag in [&['+', '-'][..], &['#'], &['0']] {
        if let Some(after) = rest.strip_prefix(flag) {
            rest = after;
        }
    }
    let count = |text: &str| -> usize {
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        let word = text
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(text.len());
        if word > 0 && text[word..].starts_with('$') {
            word + 1
        } else {
            digits
        }
    };
    rest = &rest[count(rest)..];
    if let Some(after) = rest.strip_prefix('.') {
        let n = count(after);
        if n == 0 {
            return Err(bad_spec(spec, inner));
        }
        rest = &after[n..];
    }
    match rest {
        "" | "?" | "x?" | "X?" | "x" | "X" | "o" | "b" | "e" | "E" => Ok(()),
        _ => Err(bad_spec(spec, inner)),
    }
}

/// The error of a spec that is not Rust's, with the fix for the specs of
/// Python and C (`.2f`, `d`, `s`).
fn bad_spec(spec: &str, inner: &str) -> String {
    let foreign = spec
        .strip_suffix(['f', 'd', 's', 'g', 'i', 'u'])
        .filter(|head| check_spec(head, inner).is_ok());
    match foreign {
        Some("") => format!(
            "`{{{inner}}}` in `detail`: `{spec}` is not a Rust format spec; a value is written with its `Display` as `{{field}}`: remove `:{spec}`"
        ),
        Some(head) => format!(
            "`{{{inner}}}` in `detail`: `{spec}` is not a Rust format spec; Rust writes it without the type letter: `:{head}`"
        ),
        None => format!(
            "`{{{inner}}}` in `detail`: `{spec}` is not a Rust format spec: write `[[fill]align][sign][#][0][width][.precision][type]`, the type one of `?`, `x`, `X`, `o`, `b`, `e`, `E` (std::fmt)"
        ),
    }
}

/// Splits a format spec into text and `name$` / `0$` count arguments.
fn parse_spec(spec: &str, inner: &str) -> Result<Vec<SpecPart>, String> {
    check_spec(spec, inner)?;
    if spec.contains(".*") {
        return Err(format!(
            "`{{{inner}}}` in `detail`: `.*` precision is not supported; write a fixed precision such as `.2` or name a field: `.field$`"
        ));
    }
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut rest = spec;
    while let Some(c) = rest.chars().next() {
        if c.is_alphanumeric() || c == '_' {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let (word, after) = rest.split_at(end);
            if let Some(after_dollar) = after.strip_prefix('$') {
                match arg_ref(word) {
                    Some(a) => {
                        if !text.is_empty() {
                            parts.push(SpecPart::Text(std::mem::take(&mut text)));
                        }
                        parts.push(SpecPart::Count(a));
                    }
                    None => {
                        return Err(format!(
                            "`{{{inner}}}` in `detail`: `{word}$` does not name a field"
                        ));
                    }
                }
                rest = after_dollar;
            } else {
                text.push_str(word);
                rest = after;
            }
        } else {
            text.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    if !text.is_empty() {
        parts.push(SpecPart::Text(text));
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(n: &str) -> ArgRef {
        ArgRef::Named(n.to_owned())
    }

    #[test]
    fn text_and_named_placeholders() {
        assert_eq!(
            parse_str("A book with ISBN {isbn} already exists").unwrap(),
            vec![
                Piece::Text("A book with ISBN ".into()),
                Piece::Arg {
                    arg: named("isbn"),
                    spec: vec![]
                },
                Piece::Text(" already exists".into()),
            ]
        );
    }

    /// Rust's format specs pass; Python's and C's are refused with the
    /// spec to write instead.
    #[test]
    fn format_specs() {
        for ok in [
            "", "?", "#?", ">8", "<", "^10", "-^10", "─^20", "+.3e", "08.3", "#x", "#010b", "x?",
            "X?", ">width$", ".prec$", "w$.p$", "1$", "+", "0", ".0", "E", "o",
        ] {
            assert_eq!(check_spec(ok, "v"), Ok(()), "{ok}");
        }
        for (bad, message) in [
            (
                ".2f",
                "`{v}` in `detail`: `.2f` is not a Rust format spec; Rust writes it without the type letter: `:.2`",
            ),
            (
                "d",
                "`{v}` in `detail`: `d` is not a Rust format spec; a value is written with its `Display` as `{field}`: remove `:d`",
            ),
            (
                "z",
                "`{v}` in `detail`: `z` is not a Rust format spec: write `[[fill]align][sign][#][0][width][.precision][type]`, the type one of `?`, `x`, `X`, `o`, `b`, `e`, `E` (std::fmt)",
            ),
        ] {
            assert_eq!(check_spec(bad, "v"), Err(message.to_owned()), "{bad}");
        }
        for bad in [".", "8.", "+-", "??", ">>>", "x#", ",", "5,"] {
            assert!(check_spec(bad, "v").is_err(), "{bad}");
        }
    }

    #[test]
    fn escapes_index_and_specs() {
        assert_eq!(
            parse_str("{{x}} {0:?} {r#type:>width$}").unwrap(),
            vec![
                Piece::Text("{{x}} ".into()),
                Piece::Arg {
                    arg: ArgRef::Index(0),
                    spec: vec![SpecPart::Text("?".into())]
                },
                Piece::Text(" ".into()),
                Piece::Arg {
                    arg: named("type"),
                    spec: vec![SpecPart::Text(">".into()), SpecPart::Count(named("width"))],
                },
            ]
        );
    }

    #[test]
    fn spec_traits() {
        let t = |s: &str| match &parse_str(s).unwrap()[0] {
            Piece::Arg { spec, .. } => fmt_trait(spec),
            Piece::Text(_) => unreachable!(),
        };
        assert_eq!(t("{a}"), FmtTrait::Display);
        assert_eq!(t("{a:?}"), FmtTrait::Debug);
        assert_eq!(t("{a:#x?}"), FmtTrait::Debug);
        assert_eq!(t("{a:08x}"), FmtTrait::LowerHex);
        assert_eq!(t("{a:>5}"), FmtTrait::Display);
        assert_eq!(t("{a:.2e}"), FmtTrait::LowerExp);
    }

    #[test]
    fn errors() {
        for bad in ["{}", "{:?}", "{a", "a}", "{a-b}", "{a:.*}", "{a{b}", "{_}"] {
            assert!(parse_str(bad).is_err(), "{bad}");
        }
    }
}
