//! Checks on the parsed struct: every mistake is a spanned error saying
//! what to write instead.

use query_operators::Applies;
use syn::ext::IdentExt;
use syn::{Error, LitStr};

use crate::ast::{Input, KnownType, vec_inner};
use query_operators::derive_support::RenameRule;

/// Container settings after defaults and checks.
pub(crate) struct Resolved {
    pub key: String,
    /// `(field, descending)`.
    pub default_sort: Vec<(String, bool)>,
    pub max_page_size: u64,
    pub default_page_size: u64,
}

fn type_name(k: KnownType) -> &'static str {
    match k {
        KnownType::Integer => "an integer",
        KnownType::Float => "a float",
        KnownType::Bool => "`bool`",
        KnownType::Text => "`String`",
        KnownType::Date => "`Date`",
        KnownType::DateTime => "`OffsetDateTime`",
        KnownType::Other => "this type",
    }
}

pub(crate) fn check(input: &Input<'_>) -> syn::Result<Resolved> {
    let mut errors: Option<Error> = None;
    let mut push = |e: Error| match &mut errors {
        Some(all) => all.combine(e),
        None => errors = Some(e),
    };
    let struct_name = input.ident.unraw().to_string();
    let key_name = input
        .attrs
        .key
        .as_ref()
        .map_or("id".to_owned(), LitStr::value);

    for (i, f) in input.fields.iter().enumerate() {
        // A field only selected may have any type, nested options too.
        if let Some(inner) = f.nested_option
            && (f.is_queried() || f.name == key_name)
        {
            push(Error::new_spanned(
                inner,
                "`Option<Option<T>>` is not a queryable type: use `Option<T>` for a nullable field",
            ));
        }
        if input.fields[..i].iter().any(|g| g.name == f.name) {
            let span = f.attrs.rename.as_ref().map_or(f.ident.span(), |r| r.span());
            push(Error::new(
                span,
                format!(
                    "two fields are named `{}` in the query: give one a different `rename = \"..\"`",
                    f.name
                ),
            ));
        }
        if !f.attrs.filter.is_empty()
            && query_operators::RESERVED_PARAMETERS.contains(&f.name.as_str())
        {
            let span = f.attrs.rename.as_ref().map_or(f.ident.span(), |r| r.span());
            push(Error::new(
                span,
                format!(
                    "`{}` is a reserved query parameter (pagination, sorting, search or field selection), so `{}=..` could never filter this field: give the field another query name with `rename = \"..\"`",
                    f.name, f.name
                ),
            ));
        }
        if f.attrs.rename.is_none() && f.name.contains("__") {
            // `year__gte` would be read as the `gte` filter of `year`.
            push(Error::new(
                f.ident.span(),
                format!(
                    "the field `{}` names a query parameter, and `__` separates a field from its operator (`year__gte`): rename the field, or give it a query name without `__` with `rename = \"..\"`",
                    f.name
                ),
            ));
        }
        if let Some(r) = &f.attrs.rename
            && !valid_param_name(&r.value())
        {
            push(Error::new(r.span(), rename_advice(&r.value(), &f.name)));
        }
        if let Some(c) = &f.attrs.column {
            let v = c.value();
            let parts: Vec<&str> = v.split('.').collect();
            if parts.len() > 2 || parts.iter().any(|p| !valid_identifier(p)) {
                push(Error::new(
                    c.span(),
                    "`column` must be a SQL identifier (`published_at`) or `table.column`, made of letters, digits and `_`",
                ));
            } else if !f.is_queried() && f.name != key_name {
                // Only filters, sorts and search name the column in SQL.
                push(Error::new(
                    c.span(),
                    format!(
                        "`column` is the SQL column that filters, sorting and search read, and `{}` has none of them: remove `column`, or add `filter(..)`, `sort` or `search`",
                        f.name
                    ),
                ));
            }
        }
        if let Some(c) = &f.attrs.folded_column {
            let v = c.value();
            let parts: Vec<&str> = v.split('.').collect();
            if parts.len() > 2 || parts.iter().any(|p| !valid_identifier(p)) {
                push(Error::new(
                    c.span(),
                    "`folded_column` must be a SQL identifier (`title_folded`) or `table.column`, made of letters, digits and `_`",
                ));
            } else if !matches!(f.known_type(), KnownType::Text | KnownType::Other)
                // `search` or a case-folding operator on this field is
                // refused for its type below: that is the one mistake, and
                // the column it asked for follows from it.
                && f.attrs.search.is_none()
                && !f.attrs.filter.iter().any(|o| o.info.folded)
            {
                push(Error::new(
                    c.span(),
                    format!(
                        "`folded_column` is for text fields and `{}` is {}: remove `folded_column`",
                        f.name,
                        type_name(f.known_type())
                    ),
                ));
            } else if f.attrs.search.is_none() && !f.attrs.filter.iter().any(|o| o.info.folded) {
                push(Error::new(
                    c.span(),
                    "`folded_column` is the column that `search` and the case-folding operators (`icontains`, `iexact`, `istarts_with`) read: add `search` or one of them to this field, or remove `folded_column`",
                ));
            }
        }
        let known = f.known_type();
        // `filter(in)` on `Vec<i64>`: the list is the query's, not the field's.
        if let Some(elem) = vec_inner(f.value_ty)
            && let Some(op) = f
                .attrs
                .filter
                .iter()
                .find(|o| matches!(o.info.name, "in" | "not_in"))
        {
            let (n, name) = (op.info.name, &f.name);
            let elem = quote::ToTokens::to_token_stream(elem)
                .to_string()
                .replace(' ', "");
            let written = quote::ToTokens::to_token_stream(f.ty)
                .to_string()
                .replace(' ', "");
            let declare = if f.nullable {
                format!("Option<{elem}>")
            } else {
                elem.clone()
            };
            push(Error::new(
                op.span,
                format!(
                    "`{n}` takes a list of values of the field's own type (`{name}__{n}=x,y` lists two `{elem}` values), and `{name}` is written `{written}`: declare `{name}` as `{declare}`"
                ),
            ));
        }
        for op in &f.attrs.filter {
            let name = op.info.name;
            match op.info.applies {
                Applies::Any => {}
                Applies::Ordered => {
                    if known == KnownType::Bool {
                        push(Error::new(
                            op.span,
                            format!(
                                "`{name}` compares by order and `bool` has none: use `eq` or `ne` on `{}`",
                                f.name
                            ),
                        ));
                    }
                }
                Applies::Text => {
                    if !matches!(known, KnownType::Text | KnownType::Other) {
                        push(Error::new(
                            op.span,
                            format!(
                                "`{name}` matches text and `{}` is {}: use it on a `String` field, or use `eq`/`in` here",
                                f.name,
                                type_name(known)
                            ),
                        ));
                    }
                }
                Applies::Nullable => {
                    let written = quote::ToTokens::to_token_stream(f.ty)
                        .to_string()
                        .replace(' ', "");
                    if !f.nullable && known == KnownType::Other {
                        // Perhaps an alias of `Option<T>`: the derive sees
                        // only the spelling, so `Option<alias>` would be
                        // the nested option it refuses.
                        push(Error::new(
                            op.span,
                            format!(
                                "`{name}` needs a nullable field and `{}` is written `{written}`, not `Option<..>`: declare it as `Option<{written}>`, or, if `{written}` is an alias of an `Option`, write the `Option` out (nullability is read from the written type), or remove `{name}`",
                                f.name,
                            ),
                        ));
                    } else if !f.nullable {
                        push(Error::new(
                            op.span,
                            format!(
                                "`{name}` needs a nullable field and `{}` is not an `Option`: declare it as `Option<{written}>` or remove `{name}`",
                                f.name,
                            ),
                        ));
                    }
                }
            }
            // On a non-text field the operator's type is the one mistake,
            // reported above: no column to add.
            if op.info.folded
                && f.attrs.folded_column.is_none()
                && matches!(known, KnownType::Text | KnownType::Other)
            {
                push(Error::new(
                    op.span,
                    format!(
                        "`{name}` compares case-folded text and `{0}` has no folded column: add `folded_column = \"..\"` to `{0}`, naming a column that holds `problem_core::query::fold_case` of its text",
                        f.name
                    ),
                ));
            }
        }
        if let Some(span) = f.attrs.search
            && !matches!(known, KnownType::Text | KnownType::Other)
        {
            push(Error::new(
                span,
                format!(
                    "`search` matches text and `{}` is {}: remove `search`, or filter it with `eq`/`in`",
                    f.name,
                    type_name(known)
                ),
            ));
        }
    }

    // key
    let key = match &input.attrs.key {
        Some(lit) => {
            let k = lit.value();
            match input.field(&k) {
                None => {
                    let msg = match renamed(input, &k) {
                        Some(to) => format!(
                            "`{k}` is renamed to `{to}`: write `key = \"{to}\"` (the key is named by its query name)"
                        ),
                        None => format!(
                            "`key = \"{k}\"` names no field of `{struct_name}`: use one of: {}",
                            names(input)
                        ),
                    };
                    push(Error::new(lit.span(), msg));
                }
                Some(f) if f.nullable => push(Error::new(
                    lit.span(),
                    format!(
                        "the key `{k}` is an `Option`: the key must be unique and never null, so use a non-`Option` field"
                    ),
                )),
                Some(f) if f.known_type() == KnownType::Bool => push(Error::new(
                    lit.span(),
                    format!(
                        "the key `{k}` is a `bool`, which cannot be unique: use the primary key field"
                    ),
                )),
                Some(_) => {}
            }
            k
        }
        None => {
            if input.field("id").is_none()
                && let Some(to) = renamed(input, "id")
            {
                push(Error::new(
                    input.ident.span(),
                    format!(
                        "`id` is renamed to `{to}`: write `#[query(key = \"{to}\")]` above the struct (the key is named by its query name)"
                    ),
                ));
            } else if input.field("id").is_none() {
                push(Error::new(
                    input.ident.span(),
                    format!(
                        "`{struct_name}` has no field `id` to use as its key: add `#[query(key = \"..\")]` naming a unique, non-null field (one of: {})",
                        names(input)
                    ),
                ));
            } else if let Some(f) = input.field("id").filter(|f| f.nullable) {
                push(Error::new_spanned(
                    f.ty,
                    "the key `id` is an `Option`: the key must be unique and never null, so declare `id` without `Option`, or add `#[query(key = \"..\")]` above the struct naming another unique, non-null field",
                ));
            }
            "id".to_owned()
        }
    };

    // default_sort
    let mut default_sort = Vec::new();
    if let Some(lit) = &input.attrs.default_sort {
        let text = lit.value();
        if text.trim().is_empty() {
            push(Error::new(
                lit.span(),
                "`default_sort` is empty: write field names like `default_sort = \"-year,id\"`, or remove it to sort by the key",
            ));
        }
        let entries: Vec<&str> = text.split(',').map(str::trim).collect();
        if !text.trim().is_empty() && entries.iter().any(|e| e.is_empty()) {
            push(Error::new(
                lit.span(),
                format!(
                    "`default_sort` has an empty entry (a stray comma): separate field names by single commas, e.g. `default_sort = \"{}\"`",
                    sort_suggestion(&entries)
                ),
            ));
        }
        for entry in entries.iter().copied().filter(|e| !e.is_empty()) {
            let (desc, name) = match entry.strip_prefix('-') {
                Some(n) => (true, n),
                None => (false, entry.strip_prefix('+').unwrap_or(entry)),
            };
            if !looks_like_name(name) {
                let hint = if let Some((field, desc)) = spaced_sign(entry) {
                    let sign = if desc { "-" } else { "" };
                    format!(
                        "write `{sign}{field}` (no space after the sign; a `-` before a field sorts it descending)"
                    )
                } else if let Some((field, desc)) = repeated_sign(entry) {
                    let sign = if desc { "-" } else { "" };
                    format!(
                        "write `{sign}{field}` (one sign at most: a `-` before a field sorts it descending)"
                    )
                } else {
                    match spelled_direction(entry) {
                        Some((field, true)) => {
                            format!("write `-{field}` (a `-` before a field sorts it descending)")
                        }
                        Some((field, false)) => {
                            format!("write `{field}` (a field without `-` sorts ascending)")
                        }
                        None => "separate field names by commas, with a `-` before a field to sort it descending".to_owned(),
                    }
                };
                push(Error::new(
                    lit.span(),
                    format!(
                        "`default_sort` entry `{entry}` is not a field name: {hint}, e.g. `default_sort = \"{}\"`",
                        sort_suggestion(&entries)
                    ),
                ));
                continue;
            }
            match input.field(name) {
                Some(f) if f.attrs.sort.is_some() || f.name == key => {
                    if default_sort.iter().any(|(n, _)| n == name) {
                        push(Error::new(
                            lit.span(),
                            format!("`default_sort` names `{name}` twice: remove one"),
                        ));
                    }
                    default_sort.push((name.to_owned(), desc));
                }
                Some(_) => push(Error::new(
                    lit.span(),
                    format!(
                        "`default_sort` uses `{name}`, which is not sortable: add `sort` to `#[query(..)]` on `{name}`"
                    ),
                )),
                None => push(Error::new(
                    lit.span(),
                    format!(
                        "`default_sort` names `{}`, which is no field of `{struct_name}`: write `field` or `-field` with one of: {}",
                        if name.is_empty() { entry } else { name },
                        names(input)
                    ),
                )),
            }
        }
    }
    if default_sort.is_empty() {
        default_sort.push((key.clone(), false));
    }

    check_serde_skips(input, &key, &mut push);
    check_serde_names(input, &mut push);

    let max_page_size = page_size(&input.attrs.max_page_size, 100, "max_page_size", &mut push);
    let default_page_size = page_size(
        &input.attrs.default_page_size,
        20.min(max_page_size),
        "default_page_size",
        &mut push,
    );
    if default_page_size > max_page_size
        && let Some(lit) = &input.attrs.default_page_size
    {
        {
            push(Error::new(
                lit.span(),
                format!(
                    "`default_page_size` ({default_page_size}) is larger than `max_page_size` ({max_page_size}): lower it"
                ),
            ));
        }
    }

    match errors {
        Some(e) => Err(e),
        None => Ok(Resolved {
            key,
            default_sort,
            max_page_size,
            default_page_size,
        }),
    }
}

/// The in-memory filters, sorts and pages read the members of each
/// serialized item: a `#[serde(skip)]` or `skip_serializing` on the key or
/// on a field with `filter`, `sort` or `search` leaves out a member they
/// read, so every in-memory request would fail (with `skip_serializing_if`
/// on a field that is not an `Option`, those whose member is left out).
/// One error on each `skip`.
fn check_serde_skips(input: &Input<'_>, key: &str, push: &mut impl FnMut(Error)) {
    for f in &input.fields {
        // `skip_serializing_if` leaves the member out only sometimes, and an
        // absent `Option` member reads as `null`: a concern only for a
        // field that is not an `Option`.
        let skipped_if = f.serde.skipped_if.as_ref().filter(|_| !f.nullable);
        let (skip, leaves) = match (&f.serde.skipped, skipped_if) {
            (Some(skip), _) => (skip, "leaves"),
            (None, Some(skip)) => (skip, "can leave"),
            (None, None) => continue,
        };
        let name = &f.name;
        let mut uses = Vec::new();
        if !f.attrs.filter.is_empty() {
            uses.push("`filter`");
        }
        if f.attrs.sort.is_some() {
            uses.push("`sort`");
        }
        if f.attrs.search.is_some() {
            uses.push("`search`");
        }
        let msg = if f.name == key {
            format!(
                "`#[serde({skip})]` {leaves} the key `{name}` out of the serialized item, but every in-memory page reads the key from each item (every sort ends with it): remove `#[serde({skip})]`, or make a serialized field the key with `#[query(key = \"..\")]` above the struct"
            )
        } else if !uses.is_empty() {
            let uses = join_and(&uses);
            format!(
                "`#[serde({skip})]` {leaves} `{name}` out of the serialized item, but the in-memory pages read it from each item for its {uses}: remove `#[serde({skip})]`, or remove {uses} from `{name}`"
            )
        } else {
            // Only selected: a member never serialized is simply absent.
            continue;
        };
        push(Error::new(skip.span(), msg));
    }
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The in-memory filters and sorts read each serialized item's member by
/// the field's query name: serde must serialize the field under it, so a
/// `#[serde(rename_all)]` or `#[serde(rename)]` that names it otherwise is
/// refused (one error on the `rename_all` rule, one on each `rename`).
fn check_serde_names(input: &Input<'_>, push: &mut impl FnMut(Error)) {
    // An unknown rule is serde's derive's to report.
    let rule = input
        .serde_rename_all
        .as_ref()
        .and_then(|lit| RenameRule::from_name(&lit.value()).map(|rule| (lit, rule)));
    let mut by_rule: Vec<(&str, String)> = Vec::new();
    for f in input.fields.iter().filter(|f| f.serde.skipped.is_none()) {
        if let Some(lit) = &f.serde.rename {
            let serialized = lit.value();
            if serialized != f.name {
                let fix = if valid_param_name(&serialized) {
                    format!(
                        "give the query the same name with `#[query(rename = \"{serialized}\")]`, or remove the serde `rename`"
                    )
                } else {
                    "remove the serde `rename` (a query name is letters, digits and `_` without `__`)".to_owned()
                };
                push(Error::new(
                    lit.span(),
                    format!(
                        "`#[serde(rename = \"{serialized}\")]` renames this field to `{serialized}` in serde, but its query parameter and the item member the in-memory filters and sorts read (its serialized name) are both its query name `{}`: {fix}",
                        f.name
                    ),
                ));
            }
        } else if let Some((_, rule)) = rule {
            let serialized = rule.apply_to_field(&f.ident.unraw().to_string());
            if serialized != f.name {
                by_rule.push((&f.name, serialized));
            }
        }
    }
    let (Some((lit, _)), false) = (rule, by_rule.is_empty()) else {
        return;
    };
    let list = |f: &dyn Fn(&(&str, String)) -> String| {
        by_rule.iter().map(f).collect::<Vec<_>>().join(", ")
    };
    let renamed = list(&|(name, ser)| format!("`{name}` to `{ser}`"));
    let fix = if by_rule.iter().all(|(_, ser)| valid_param_name(ser)) {
        let renames = list(&|(name, ser)| format!("`#[query(rename = \"{ser}\")]` on `{name}`"));
        format!("add {renames}, or remove `rename_all`")
    } else {
        "remove `rename_all` (a query name is letters, digits and `_` without `__`)".to_owned()
    };
    push(Error::new(
        lit.span(),
        format!(
            "`#[serde(rename_all = \"{}\")]` renames {renamed} in serde, but a field's query parameter and the item member the in-memory filters and sorts read (its serialized name) are both its query name (the field's name, or `#[query(rename = \"..\")]`): {fix}",
            lit.value()
        ),
    ));
}

fn page_size(
    lit: &Option<syn::LitInt>,
    default: u64,
    what: &str,
    push: &mut impl FnMut(Error),
) -> u64 {
    match lit {
        None => default,
        Some(l) => match l.base10_parse::<u64>() {
            Ok(0) | Err(_) => {
                push(Error::new(
                    l.span(),
                    format!("`{what}` must be a whole number of at least 1, like `{what} = 100`"),
                ));
                default
            }
            Ok(n) => n,
        },
    }
}

/// `year desc`, `year:DESC`, `year asc`: the field and whether the
/// entry asks for a descending sort.
fn spelled_direction(entry: &str) -> Option<(&str, bool)> {
    let (field, dir) = entry
        .split_once(|c: char| c.is_whitespace() || c == ':')
        .map(|(f, d)| (f.trim(), d.trim()))?;
    let field = field.strip_prefix('+').unwrap_or(field);
    if !looks_like_name(field) {
        return None;
    }
    match dir.to_ascii_lowercase().as_str() {
        "desc" | "descending" => Some((field, true)),
        "asc" | "ascending" => Some((field, false)),
        _ => None,
    }
}

/// `- year` or `+ year`: a sign set apart from its field by spaces; the
/// field and whether the entry asks for a descending sort.
fn spaced_sign(entry: &str) -> Option<(&str, bool)> {
    let (desc, rest) = match entry.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, entry.strip_prefix('+')?),
    };
    let field = rest.trim_start();
    (field.len() < rest.len() && looks_like_name(field)).then_some((field, desc))
}

/// `--year`, `-+year`: the field and whether a `-` is among the signs.
fn repeated_sign(entry: &str) -> Option<(&str, bool)> {
    let field = entry.trim_start_matches(['-', '+']);
    let signs = entry.len() - field.len();
    (signs > 1 && looks_like_name(field)).then(|| (field, entry[..signs].contains('-')))
}

/// The `default_sort` text as it should be written: empty entries left
/// out and `field desc` / `field asc` spelled `-field` / `field`.
fn sort_suggestion(entries: &[&str]) -> String {
    let fixed: Vec<String> = entries
        .iter()
        .filter(|e| !e.is_empty())
        .flat_map(|e| match spelled_direction(e) {
            Some((field, true)) => vec![format!("-{field}")],
            Some((field, false)) => vec![field.to_owned()],
            // `year;id`, `year id`: the names, each once; a `-` standing
            // apart (`- year`) goes to the name after it.
            None => {
                let mut names = Vec::new();
                let mut sign = "";
                let words = e
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                    .filter(|n| !n.is_empty());
                for word in words {
                    // `--id`: one sign however many dashes; `-` inside a
                    // word (`publication-year`) cannot be in a field name.
                    let name = word.trim_start_matches('-');
                    if name.len() < word.len() {
                        sign = "-";
                    }
                    let name = name.trim_end_matches('-').replace('-', "_");
                    if !name.is_empty() {
                        names.push(format!("{sign}{name}"));
                        sign = "";
                    }
                }
                names
            }
        })
        .collect();
    if fixed.is_empty() {
        "-year,id".to_owned()
    } else {
        fixed.join(",")
    }
}

/// The query name of the field whose Rust name is `rust_name`, when it is
/// renamed to another name.
fn renamed(input: &Input<'_>, rust_name: &str) -> Option<String> {
    input
        .fields
        .iter()
        .find(|f| f.ident.to_string().trim_start_matches("r#") == rust_name)
        .filter(|f| f.name != rust_name)
        .map(|f| f.name.clone())
}

fn names(input: &Input<'_>) -> String {
    input
        .fields
        .iter()
        .map(|f| format!("`{}`", f.name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn valid_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A name as `default_sort` could name a field: letters, digits and `_`.
fn looks_like_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

fn valid_param_name(s: &str) -> bool {
    !s.is_empty() && !s.contains("__") && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The message for a `rename` that is no query parameter name, with one
/// to write: a sign dropped (a sort direction belongs to `default_sort`),
/// every other character not allowed made `_`, `__` made `_`.
fn rename_advice(value: &str, field: &str) -> String {
    let rule = "a query parameter name is letters, digits and `_`, without `__`";
    let unsigned = value.trim_start_matches(['-', '+']);
    let mut name = String::new();
    for c in unsigned.chars() {
        let c = if c.is_ascii_alphanumeric() { c } else { '_' };
        if !(c == '_' && name.ends_with('_')) {
            name.push(c);
        }
    }
    let name = name.trim_matches('_');
    let name = if name.is_empty() { field } else { name };
    if unsigned.len() < value.len() {
        format!(
            "`rename = {value:?}` is not a query parameter name ({rule}): write `rename = {name:?}`; a `-` sorts descending in `default_sort = \"-{name}\"` on the struct, or in the request's `sort=-{name}`"
        )
    } else {
        format!(
            "`rename = {value:?}` is not a query parameter name ({rule}): write e.g. `rename = {name:?}`"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{repeated_sign, sort_suggestion, spaced_sign, spelled_direction};

    #[test]
    fn rename_suggestions() {
        use super::rename_advice;
        let rule = "a query parameter name is letters, digits and `_`, without `__`";
        assert_eq!(
            rename_advice("api-version", "v"),
            format!(
                "`rename = \"api-version\"` is not a query parameter name ({rule}): write e.g. `rename = \"api_version\"`"
            )
        );
        assert_eq!(
            rename_advice("book  id", "id"),
            format!(
                "`rename = \"book  id\"` is not a query parameter name ({rule}): write e.g. `rename = \"book_id\"`"
            )
        );
        assert_eq!(
            rename_advice("", "year"),
            format!(
                "`rename = \"\"` is not a query parameter name ({rule}): write e.g. `rename = \"year\"`"
            )
        );
        assert_eq!(
            rename_advice("-year", "published"),
            format!(
                "`rename = \"-year\"` is not a query parameter name ({rule}): write `rename = \"year\"`; a `-` sorts descending in `default_sort = \"-year\"` on the struct, or in the request's `sort=-year`"
            )
        );
    }

    #[test]
    fn default_sort_suggestions() {
        assert_eq!(spelled_direction("year desc"), Some(("year", true)));
        assert_eq!(spelled_direction("year:ASC"), Some(("year", false)));
        assert_eq!(spelled_direction("year"), None);
        assert_eq!(spelled_direction("year sideways"), None);
        assert_eq!(sort_suggestion(&["title", ""]), "title");
        assert_eq!(sort_suggestion(&["year desc", "id"]), "-year,id");
        assert_eq!(sort_suggestion(&["", ""]), "-year,id");
        assert_eq!(sort_suggestion(&["year;-id"]), "year,-id");
        assert_eq!(sort_suggestion(&["- year"]), "-year");
        assert_eq!(sort_suggestion(&["+ year", "-  id"]), "year,-id");
        // Never the mistake itself.
        assert_eq!(sort_suggestion(&["--id"]), "-id");
        assert_eq!(sort_suggestion(&["-+id", "year-"]), "-id,year");
        assert_eq!(sort_suggestion(&["publication-year"]), "publication_year");
        assert_eq!(sort_suggestion(&["---"]), "-year,id");
        assert_eq!(spaced_sign("- year"), Some(("year", true)));
        assert_eq!(spaced_sign("-year"), None);
        assert_eq!(repeated_sign("--year"), Some(("year", true)));
        assert_eq!(repeated_sign("++year"), Some(("year", false)));
        assert_eq!(repeated_sign("-year"), None);
    }
}
