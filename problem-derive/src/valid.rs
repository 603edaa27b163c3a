//! Compile-time rules of `#[derive(Problem)]`: every mistake becomes a
//! `syn::Error` on the offending token, saying what to write instead.

use std::collections::BTreeSet;

use syn::ext::IdentExt;
use syn::{Ident, Member};

use crate::ast::{Case, Input, Role};
use crate::attr::{Attrs, Errors, Key, StrValue};
use crate::detail::{ArgRef, Piece, SpecPart};

/// Checks the whole input; all mistakes are reported together.
pub(crate) fn validate(input: &Input<'_>) -> syn::Result<()> {
    let mut errors = Errors::default();
    let defaults = input.defaults();
    check_attrs(defaults, &mut errors);
    if let Some(detail) = &defaults.detail {
        errors.push(syn::Error::new(
            detail.key.span,
            "`detail` names fields, so it belongs on each variant: move it to the `#[problem(...)]` of the variants",
        ));
    }
    check_thiserror(input, &mut errors);
    for case in input.cases() {
        check_attrs(&case.attrs, &mut errors);
        check_detail_empty(&case.attrs, &mut errors);
        check_status_present(input, case, &mut errors);
        check_detail(input.ident(), case, &mut errors);
        check_fields(case, &mut errors);
        check_serde(case, &mut errors);
        for field in &case.fields {
            check_dyn_without_send_sync(field.ty, &mut errors);
        }
    }
    errors.finish()
}

fn check_attrs(attrs: &Attrs, errors: &mut Errors) {
    if let Some(status) = &attrs.status {
        match status.value {
            Some(400..=599) => {}
            _ => errors.push(syn::Error::new(
                status.lit.span(),
                format!(
                    "status {} is not an error status: a problem's status must be 400 to 599 (4xx client error, 5xx server error)",
                    status.lit.base10_digits()
                ),
            )),
        }
    }
    if let Some(ty) = &attrs.problem_type
        && let Some(msg) = type_mistake(&ty.lit.value())
    {
        errors.push(syn::Error::new(ty.lit.span(), msg));
    }
    if let Some(title) = &attrs.title
        && title.lit.value().contains(['{', '}'])
    {
        // RFC 9457 §3.1.3: the title does not change from occurrence to
        // occurrence. Braces are refused as in `type` (`{{` too: the title
        // is no format string, it would be sent doubled).
        errors.push(syn::Error::new(
            title.lit.span(),
            "`title` is fixed text, the same for every occurrence of the problem type (RFC 9457 §3.1.3), so it cannot name fields: remove the braces and put the varying part in `detail` (placeholders work in `detail` only), e.g. `title = \"Book not found\", detail = \"Book {id} not found\"`",
        ));
    }
    if let Some(title) = &attrs.title
        && title.lit.value().trim().is_empty()
    {
        errors.push(syn::Error::new(
            title.lit.span(),
            "`title` is empty: write a short summary of the problem type, e.g. `title = \"Conflict\"`, or leave it out for the status's reason phrase",
        ));
    }
}

/// A field whose type holds a trait object without `Send + Sync`, such as
/// `Box<dyn std::error::Error>` (the first type a cause is given): one
/// error on the type, saying to add the bounds. rustc's own error would
/// name `dyn Error` twice, for `Send` and for `Sync`, without the fix.
fn check_dyn_without_send_sync(ty: &syn::Type, errors: &mut Errors) {
    struct Find<'a>(Option<&'a syn::TypeTraitObject>);
    impl<'a> syn::visit::Visit<'a> for Find<'a> {
        // A function pointer is `Send + Sync` whatever its argument types
        // (`fn(&dyn Any)`); a trait object's own bounds are not visited
        // either (`dyn Fn(&dyn Any) + Send + Sync`).
        fn visit_type_bare_fn(&mut self, _: &'a syn::TypeBareFn) {}

        fn visit_type_trait_object(&mut self, object: &'a syn::TypeTraitObject) {
            if self.0.is_none() && !(has_bound(object, "Send") && has_bound(object, "Sync")) {
                self.0 = Some(object);
            }
        }
    }
    let mut find = Find(None);
    syn::visit::Visit::visit_type(&mut find, ty);
    let Some(object) = find.0 else {
        return;
    };
    let written = quote::ToTokens::to_token_stream(object)
        .to_string()
        .replace(" :: ", "::");
    let missing = ["Send", "Sync"]
        .into_iter()
        .filter(|name| !has_bound(object, name))
        .collect::<Vec<_>>()
        .join(" + ");
    errors.push(syn::Error::new_spanned(
        ty,
        format!(
            "`{written}` is not `Send + Sync`, and every field of a problem type must be (a problem is sent between threads): write `{written} + {missing}`"
        ),
    ));
}

/// Whether a trait object names `name` (`Send`, `Sync`) among its bounds.
fn has_bound(object: &syn::TypeTraitObject, name: &str) -> bool {
    object.bounds.iter().any(|b| {
        matches!(b, syn::TypeParamBound::Trait(t)
            if t.path.segments.last().is_some_and(|s| s.ident == name))
    })
}

/// serde attributes that would change a member of the problem document,
/// which the derive writes itself (not through `Serialize`): `skip`, and a
/// `rename` or `rename_all` that names the member otherwise. Each is an
/// error naming the `#[problem(..)]` key that says it.
fn check_serde(case: &Case<'_>, errors: &mut Errors) {
    let mut by_rule: Vec<(String, String)> = Vec::new();
    for field in &case.fields {
        let Role::Extension(name) = case.role(field) else {
            continue;
        };
        let ident = field
            .original
            .ident
            .as_ref()
            .map_or_else(|| field.index.to_string(), |i| i.unraw().to_string());
        // `Option::is_none` agrees with the document only on a field the
        // derive sees as an `Option` (not behind a type alias).
        let not_option = field
            .serde
            .skip_if_none
            .filter(|_| field.option_inner().is_none())
            .map(|span| ("skip_serializing_if".to_owned(), span));
        for (key, span) in field.serde.shaping.iter().chain(not_option.as_ref()) {
            let instead = match key.as_str() {
                "skip_serializing_if" => {
                    "the document leaves an `Option` member out when it is `None` (`skip_serializing_if = \"Option::is_none\"` is accepted on a field written `Option<..>`); for another condition, add `#[problem(skip)]` and give the member its value in an `Option` field of its own"
                }
                // `serialize_with`, `with`, `flatten`: the value is the
                // field's own `Serialize`.
                _ => {
                    "add `#[problem(skip)]` and give the member its value in a field of its own (a masked or converted copy)"
                }
            };
            errors.push(syn::Error::new(
                *span,
                format!(
                    "`#[serde({key} ..)]` does not shape `{ident}` in the problem document, which `#[derive(Problem)]` writes itself with the field's own `Serialize`: {instead}"
                ),
            ));
        }
        if let Some(span) = field.serde.skip {
            errors.push(syn::Error::new(
                span,
                format!(
                    "`#[serde(skip)]` does not keep `{ident}` out of the problem document, which `#[derive(Problem)]` writes itself (not through `Serialize`): add `#[problem(skip)]` (the field stays usable in `detail`)"
                ),
            ));
        } else if let Some(lit) = &field.serde.rename {
            let serialized = lit.value();
            if serialized != name {
                errors.push(syn::Error::new(
                    lit.span(),
                    format!(
                        "`#[serde(rename = \"{serialized}\")]` does not rename the problem document's member, which `#[derive(Problem)]` writes itself and names `{name}`: write `#[problem(rename = \"{serialized}\")]` too, or remove the serde `rename`"
                    ),
                ));
            }
        } else if field.attrs.rename.is_none()
            && let Some(rule) = &case.serde_rename_all
            && let Some(serialized) = crate::serde::renamed_field(&rule.value(), &ident)
            && serialized != name
        {
            by_rule.push((name, serialized));
        }
    }
    let (Some(rule), false) = (&case.serde_rename_all, by_rule.is_empty()) else {
        return;
    };
    let renames = by_rule
        .iter()
        .map(|(name, ser)| format!("`#[problem(rename = \"{ser}\")]` on `{name}`"))
        .collect::<Vec<_>>()
        .join(", ");
    errors.push(syn::Error::new(
        rule.span(),
        format!(
            "`#[serde(rename_all = {:?})]` does not rename the problem document's members, which `#[derive(Problem)]` writes itself and names after the fields: add {renames}, or remove `rename_all`",
            rule.value()
        ),
    ));
}

/// thiserror's `#[error(..)]`: with `thiserror::Error` derived too, both
/// derives would write `Display` and `Error`; without it, the attribute is
/// left over from a migration. One error, on the first.
fn check_thiserror(input: &Input<'_>, errors: &mut Errors) {
    let Some(attr) = std::iter::once(input.defaults())
        .chain(input.cases().iter().map(|c| &c.attrs))
        .find_map(|a| a.thiserror.as_ref())
    else {
        return;
    };
    let detail = match attr.parse_args::<syn::LitStr>() {
        Ok(lit) => quote::ToTokens::to_token_stream(&lit).to_string(),
        Err(_) => "\"...\"".to_owned(),
    };
    errors.push(syn::Error::new_spanned(
        attr,
        format!(
            "`#[error(..)]` is thiserror's, and `#[derive(Problem)]` writes `Display` (from `detail`) and `std::error::Error` itself: write the message as `#[problem(detail = {detail})]` instead of `#[error(..)]`, and remove `thiserror::Error` from the derive if it is there (a cause is `#[problem(source)]`)"
        ),
    ));
}

/// An empty `detail` of a struct or variant (on an enum, `detail` is
/// already the mistake reported).
fn check_detail_empty(attrs: &Attrs, errors: &mut Errors) {
    if let Some(detail) = &attrs.detail
        && detail.lit.value().trim().is_empty()
    {
        errors.push(syn::Error::new(
            detail.lit.span(),
            "`detail` is empty: write what went wrong this time, e.g. `detail = \"A book with ISBN {isbn} already exists\"`, or leave it out for no detail",
        ));
    }
}

/// What is wrong with a `type` value, if anything: it must be a URI
/// reference (RFC 3986), so only its characters and `%XX` escapes.
fn type_mistake(value: &str) -> Option<String> {
    const EXAMPLE: &str =
        "e.g. `type = \"/problems/duplicate-isbn\"` (leave it out for `about:blank`)";
    if value.is_empty() {
        return Some(format!(
            "`type` is empty: write the problem type's URI reference, {EXAMPLE}"
        ));
    }
    let bytes = value.as_bytes();
    for (i, c) in value.char_indices() {
        if c == '%' {
            let escaped = bytes
                .get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit));
            if !escaped {
                return Some(format!(
                    "`%` in `type` must start a percent-encoded byte such as `%20`: write `%25` for a literal `%`, {EXAMPLE}"
                ));
            }
            continue;
        }
        let allowed = c.is_ascii_alphanumeric() || "-._~:/?#[]@!$&'()*+,;=".contains(c);
        if allowed {
            continue;
        }
        let what = match c {
            ' ' => "a space".to_owned(),
            c if c.is_whitespace() || c.is_control() => format!("the character {c:?}"),
            c => format!("`{c}`"),
        };
        let encoded: String = c.to_string().bytes().map(|b| format!("%{b:02X}")).collect();
        if c == '{' || c == '}' {
            return Some(format!(
                "`type` is fixed text and cannot name fields: remove the braces (placeholders work in `detail` only), {EXAMPLE}"
            ));
        }
        let fix = if c == ' ' {
            "use `-` between words (or `%20`)".to_owned()
        } else {
            format!("percent-encode it as `{encoded}` or remove it")
        };
        return Some(format!(
            "`type` must be a URI reference, which cannot contain {what}: {fix}, {EXAMPLE}"
        ));
    }
    structure_mistake(value).map(|m| format!("`type` must be a URI reference (RFC 3986): {m}"))
}

/// What is wrong with the structure of `value` (made only of URI
/// characters): `scheme:` then `//authority`, path, `?query`, `#fragment`,
/// or a relative reference without the scheme.
fn structure_mistake(value: &str) -> Option<String> {
    let (before_fragment, fragment) = match value.split_once('#') {
        Some((b, f)) => (b, Some(f)),
        None => (value, None),
    };
    if fragment.is_some_and(|f| f.contains('#')) {
        return Some(
            "it has a second `#` (only the first starts the fragment); a second `#` must be written `%23`"
                .to_owned(),
        );
    }
    let (before_query, query) = match before_fragment.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (before_fragment, None),
    };
    // A `:` before any `/` ends the scheme; without a valid scheme it
    // would sit in the first segment of a relative reference.
    let first_segment = before_query.split('/').next().unwrap_or_default();
    let rest = match first_segment.split_once(':') {
        Some(("", _)) => {
            return Some(
                "it starts with `:`, an empty scheme: write the scheme before the colon (`https://example.com/problems/x`), or leave the colon out for a relative reference (`/problems/x`)"
                    .to_owned(),
            );
        }
        Some((scheme, _)) => {
            let mut chars = scheme.chars();
            let starts_with_letter = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
            if !starts_with_letter || !chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            {
                return Some(format!(
                    "`{scheme}` before the `:` is not a scheme (a scheme starts with a letter, then only letters, digits, `+`, `-` and `.`), and a relative reference cannot have a `:` in its first segment: fix the scheme (`https:`), or write the colon `%3A` (or start with `./`)"
                ));
            }
            &before_query[scheme.len() + 1..]
        }
        None => before_query,
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(r) => match r.find('/') {
            Some(i) => (Some(&r[..i]), &r[i..]),
            None => (Some(r), ""),
        },
        None => (None, rest),
    };
    if let Some(authority) = authority {
        let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        if let Some(literal) = host.strip_prefix('[') {
            match literal.split_once(']') {
                None => {
                    return Some(
                        "the `[` of the IP literal host is never closed: write `]` after the address (`https://[::1]/problems/x`)"
                            .to_owned(),
                    );
                }
                Some((_, after))
                    if after.contains(['[', ']'])
                        || !after.is_empty() && !after.starts_with(':') =>
                {
                    return Some(
                        "only a port (`:8080`) may follow the `]` of an IP literal host (`https://[::1]:8080/problems/x`)"
                            .to_owned(),
                    );
                }
                Some(_) => {}
            }
        } else if host.contains(['[', ']']) {
            return Some(
                "`[` and `]` enclose a whole IP literal host (`https://[::1]/problems/x`): elsewhere write them `%5B` and `%5D`"
                    .to_owned(),
            );
        }
    }
    let others = [Some(path), query, fragment];
    if others.into_iter().flatten().any(|p| p.contains(['[', ']'])) {
        return Some(
            "`[` and `]` are allowed only around an IP literal host (`https://[::1]/problems/x`): in a path, query or fragment write them `%5B` and `%5D`"
                .to_owned(),
        );
    }
    None
}

fn check_status_present(input: &Input<'_>, case: &Case<'_>, errors: &mut Errors) {
    if case.attrs.status.is_some() || input.defaults().status.is_some() {
        return;
    }
    let msg = match case.variant {
        Some(v) => format!(
            "missing `status` for variant `{}`: add `#[problem(status = 404)]` (400 to 599) to the variant, or to the enum for every variant",
            v.unraw()
        ),
        None => format!(
            "missing `status` for `{}`: add `#[problem(status = 404)]` (400 to 599) above the struct",
            case.ident.unraw()
        ),
    };
    errors.push(syn::Error::new(case.ident.span(), msg));
}

fn check_detail(ty: &Ident, case: &Case<'_>, errors: &mut Errors) {
    let (Some(pieces), Some(StrValue { lit, .. })) = (&case.detail, &case.attrs.detail) else {
        return;
    };
    for piece in pieces {
        let Piece::Arg { arg, spec } = piece else {
            continue;
        };
        let counts = spec.iter().filter_map(|p| match p {
            SpecPart::Count(a) => Some(a),
            SpecPart::Text(_) => None,
        });
        for a in std::iter::once(arg).chain(counts) {
            if case.field_for(a).is_none() {
                errors.push(syn::Error::new(
                    lit.span(),
                    no_such_field(a, &case.describe(ty), case),
                ));
            }
        }
    }
}

fn no_such_field(arg: &ArgRef, owner: &str, case: &Case<'_>) -> String {
    let names: Vec<String> = case
        .fields
        .iter()
        .map(|f| match &f.member {
            Member::Named(i) => format!("`{{{}}}`", i.unraw()),
            Member::Unnamed(i) => format!("`{{{}}}`", i.index),
        })
        .collect();
    let hint = if names.is_empty() {
        format!(
            "`{owner}` has no fields; remove the placeholder, or write `{{{{` and `}}}}` for literal braces"
        )
    } else {
        format!("use one of {}", names.join(", "))
    };
    format!(
        "`{{{}}}` in `detail` names no field of `{owner}`: {hint}",
        arg.display()
    )
}

/// Headers a problem field can never send, each with the reason the
/// error gives: the problem response sets the first three itself (spec,
/// "Response format") and drops the fourth (its body is plain JSON; a
/// compression layer outside writes `Content-Encoding` when it encodes);
/// the server writes the connection's own framing (RFC 9112 §6, RFC 9110
/// §7.6.1), and actix-web drops the last two from any response.
const UNSENDABLE_HEADERS: [(&str, &str); 6] = [
    ("content-type", "is set by the problem response itself"),
    ("content-length", "is set by the problem response itself"),
    (
        "x-content-type-options",
        "is set by the problem response itself",
    ),
    (
        "content-encoding",
        "is dropped by the problem response (its body is plain JSON; a compression middleware sets it when it compresses)",
    ),
    (
        "transfer-encoding",
        "belongs to the connection (RFC 9112 §6): the server frames each response itself",
    ),
    (
        "connection",
        "belongs to the connection (RFC 9110 §7.6.1): the server manages it",
    ),
];

fn check_fields(case: &Case<'_>, errors: &mut Errors) {
    let mut explicit_source: Option<&Key> = None;
    let mut extension_names: BTreeSet<String> = BTreeSet::new();
    let mut header_names: BTreeSet<String> = BTreeSet::new();
    for field in &case.fields {
        let a = &field.attrs;
        let skip = ("skip", a.skip.as_ref());
        let source = ("source", a.source.as_ref());
        let rename = ("rename", a.rename.as_ref().map(|r| &r.key));
        let header = ("header", a.header.as_ref().map(|h| &h.key));
        conflict(
            errors,
            skip,
            source,
            "a skipped field is not the cause; remove one of them",
        );
        conflict(
            errors,
            skip,
            rename,
            "a skipped field is not an extension member, so it has no name",
        );
        conflict(
            errors,
            skip,
            header,
            "a skipped field is not sent; remove `skip` to send it as a header",
        );
        conflict(
            errors,
            source,
            rename,
            "the cause is never serialized, so it has no member name",
        );
        conflict(
            errors,
            source,
            header,
            "the cause is never sent to the client",
        );
        if let (Some(_), Some(h)) = (&a.rename, &a.header) {
            errors.push(syn::Error::new(
                h.key.span,
                "`rename` and `header` cannot be combined on one field: a header field is not an extension member; name the header with `header = \"...\"` alone",
            ));
        }
        if let Some(src) = &a.source {
            if explicit_source.is_some() {
                errors.push(syn::Error::new(
                    src.span,
                    "only one field can be the `source` (the cause): remove `#[problem(source)]` from all fields but one",
                ));
            } else {
                explicit_source = Some(src);
            }
        }
        if let Some(h) = &a.header {
            check_header_name(h, errors);
            let name = h.lit.value().to_ascii_lowercase();
            if let Some((_, why)) = UNSENDABLE_HEADERS.iter().find(|(n, _)| *n == name) {
                errors.push(syn::Error::new(
                    h.lit.span(),
                    format!(
                        "header `{}` {why}, so this field would never be sent: choose another header name",
                        h.lit.value()
                    ),
                ));
            } else if !header_names.insert(name) {
                errors.push(syn::Error::new(
                    h.lit.span(),
                    format!(
                        "two fields are the header `{}` (header names are case-insensitive): remove `header` from one of them, or name another header",
                        h.lit.value()
                    ),
                ));
            }
        }
        if let Some(r) = &a.rename
            && r.lit.value().is_empty()
        {
            errors.push(syn::Error::new(
                r.lit.span(),
                "`rename` needs a non-empty member name, e.g. `rename = \"bookId\"`",
            ));
        }
        if let Some(r) = &a.rename
            && let Some(msg) = standard_member(&r.lit.value())
        {
            errors.push(syn::Error::new(r.lit.span(), msg));
        }
        // A field named `stack` or `correlationId` would be replaced by
        // the pipeline's own member where it sets one (`stack` in
        // development, `correlationId` on a 5xx) and sent elsewhere:
        // refused as its `rename` is. (`type`, `title`, `status`,
        // `instance` and `detail` so named follow the spec's rules for
        // extension members, the same everywhere.)
        if a.rename.is_none()
            && let Role::Extension(name) = case.role(field)
            && matches!(name.as_str(), "stack" | "correlationId")
            && let (Some(msg), Some(ident)) = (standard_member(&name), &field.original.ident)
        {
            errors.push(syn::Error::new(
                ident.span(),
                msg.replace(
                    "choose another name",
                    "name the member otherwise with `#[problem(rename = \"...\")]`",
                ),
            ));
        }
        if let Role::Extension(name) = case.role(field)
            && !extension_names.insert(name.clone())
        {
            let span = a
                .rename
                .as_ref()
                .map_or_else(|| field.span(), |r| r.lit.span());
            errors.push(syn::Error::new(
                span,
                format!(
                    "two fields are the extension member `{name}`: give this one another name with `#[problem(rename = \"...\")]`, or `#[problem(skip)]` it"
                ),
            ));
        }
    }
}

/// Why a `rename` to the name of a standard member of the problem body
/// (RFC 9457 and the pipeline's own members) is a mistake: the real member
/// wins, so the renamed field would never be sent. (A field whose own name
/// is `type`, `title`, `status`, `instance` or `detail`, with no `rename`,
/// is allowed: it follows the spec's rules for extension members so named,
/// as one added at run time does; one named `stack` or `correlationId` is
/// not.)
fn standard_member(name: &str) -> Option<String> {
    let why = match name {
        _ if crate::attr::ALWAYS_OVERWRITTEN.contains(&name) => "and always wins",
        "detail" => "(a problem's own detail replaces it)",
        "correlationId" => "(the pipeline sets it on every 5xx, replacing this one)",
        "stack" => "(the pipeline sets it in development, replacing this one)",
        _ => return None,
    };
    Some(format!(
        "`{name}` is a standard member {why}: choose another name, or `#[problem(skip)]`"
    ))
}

/// Two field keys that exclude each other: the error is on the second.
fn conflict(
    errors: &mut Errors,
    (first, k1): (&str, Option<&Key>),
    (second, k2): (&str, Option<&Key>),
    why: &str,
) {
    if let (Some(_), Some(k2)) = (k1, k2) {
        errors.push(syn::Error::new(
            k2.span,
            format!("`{first}` and `{second}` cannot be combined on one field: {why}"),
        ));
    }
}

/// A header name is an RFC 9110 token.
fn check_header_name(h: &StrValue, errors: &mut Errors) {
    let name = h.lit.value();
    let is_tchar = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if name.is_empty() || !name.chars().all(is_tchar) {
        errors.push(syn::Error::new(
            h.lit.span(),
            format!(
                "invalid header name {name:?}: a header name is a token of letters, digits and !#$%&'*+-.^_`|~ (no spaces or colons), e.g. `header = \"Retry-After\"`"
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::type_mistake;

    #[test]
    fn problem_type_is_a_uri_reference() {
        for ok in [
            "/problems/duplicate-isbn",
            "https://example.com/probs/out-of-credit",
            "urn:problem:a;b=c",
            "/problems/caf%C3%A9",
            "tag:example.com,2024:x?y=1#z",
        ] {
            assert_eq!(type_mistake(ok), None, "{ok}");
        }
        let msg = |s: &str| type_mistake(s).unwrap_or_default();
        assert!(msg("").contains("is empty"));
        assert!(msg("/problems/a b").contains("a space"));
        assert!(msg("/problems/<isbn>").contains("`<`: percent-encode it as `%3C`"));
        assert!(msg("/problems/a|b").contains("`%7C`"));
        assert!(msg("/problems/{isbn}").contains("cannot name fields"));
        assert!(msg("/problems/café").contains("`%C3%A9`"));
        assert!(msg("/problems/100%").contains("`%25`"));
        assert!(msg("/problems/%zz").contains("`%25`"));
        assert!(msg("/a\tb").contains("'\\t'"));
        for ok in [
            "https://[::1]/problems/x",
            "https://[::1]:8080/problems/x",
            "https://user@[v1.x]/p",
            "./a:b",
            "/a:b?c:d#e:f?/g",
            "mailto:a@example.com",
            "a+b-c.d:x",
            "#frag",
            "?q=1",
        ] {
            assert_eq!(type_mistake(ok), None, "{ok}");
        }
        assert!(msg("/problems/x#a#b").contains("`%23`"));
        assert!(msg("1http://example.com/x").contains("`1http` before the `:` is not a scheme"));
        assert!(msg("my_type:x").contains("`my_type` before the `:`"));
        assert!(msg("://example.com/x").contains("empty scheme"));
        assert!(msg("https://[::1/problems/x").contains("never closed"));
        assert!(msg("https://[::1]x/p").contains("only a port"));
        assert!(msg("/problems/[x]").contains("`%5B`"));
        assert!(msg("https://a[b]/p").contains("`%5B`"));
    }
}
