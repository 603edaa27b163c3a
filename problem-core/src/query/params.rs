//! The raw query: decoded `(name, value)` pairs, the reserved parameter
//! names and the limits (spec, "Collection request").

use std::borrow::Cow;

use smallvec::SmallVec;

use crate::problem::Issue;

use super::error::{QueryError, repeated_parameter, shorten};
use crate::spec::MAX_PARAMETERS;

/// The query parameter names with a meaning of their own: `page`,
/// `per_page`, `limit`, `cursor`, `sort`, `q`, `search`, `search_fields`,
/// `fields` and `exclude`; every other parameter is a filter (spec,
/// "Collection request", Query). `#[derive(CollectionQuery)]` refuses a
/// filterable field of one of these names, which could never be filtered
/// by its plain name.
///
/// ```
/// use problem_core::query::{RESERVED_PARAMETERS, is_reserved};
/// assert_eq!(
///     RESERVED_PARAMETERS,
///     ["page", "per_page", "limit", "cursor", "sort", "q", "search", "search_fields", "fields", "exclude"]
/// );
/// assert!(RESERVED_PARAMETERS.iter().all(|name| is_reserved(name)));
/// ```
// One list, in the operator table's crate, which the derive reads too.
pub const RESERVED_PARAMETERS: [&str; 10] = query_operators::RESERVED_PARAMETERS;

pub use crate::spec::{
    DEFAULT_MAX_FILTERS, DEFAULT_MAX_PAGE_SIZE, DEFAULT_MAX_VALUE_LENGTH, DEFAULT_PAGE_SIZE,
    MAX_LIST_VALUES, MAX_SEARCH_TERMS,
};

/// The size limits of a collection query, so that every request that
/// passes them is answered quickly and never trips a database's own
/// limits (expression depth, `LIKE` pattern length):
/// - more than `max_filters` filter conditions: issue `too_many_filters`
///   (member `max`), named by the first parameter over the limit. Only
///   parameters naming a filterable field are conditions, counted as sent:
///   a repeat counts again, equal value or not, except a repeat of an
///   exploded `__in`/`__not_in` list, which adds to its list; an unknown
///   parameter is reported as `unknown_parameter` whatever the count;
/// - a filter value, an `__in`/`__not_in` item or a search term longer
///   than `max_value_length` characters (Unicode scalar values): issue
///   `too_long` (member `max`).
///
/// Set on [`QueryConfig`](super::QueryConfig) with
/// [`max_filters`](super::QueryConfig::max_filters) and
/// [`max_value_length`](super::QueryConfig::max_value_length).
///
/// ```
/// use problem_core::query::QueryLimits;
/// let limits = QueryLimits::default();
/// assert_eq!((limits.max_filters, limits.max_value_length), (64, 256));
/// assert!(limits.too_long(&"é".repeat(257)));
/// assert!(!limits.too_long(&"é".repeat(256)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryLimits {
    /// At most this many filter conditions (default 64).
    pub max_filters: usize,
    /// Each filter value, list item and search term at most this many
    /// characters (default 256).
    pub max_value_length: usize,
}

impl Default for QueryLimits {
    fn default() -> Self {
        Self {
            max_filters: DEFAULT_MAX_FILTERS,
            max_value_length: DEFAULT_MAX_VALUE_LENGTH,
        }
    }
}

impl QueryLimits {
    /// Whether `value` has more than `max_value_length` characters.
    ///
    /// ```
    /// use problem_core::query::QueryLimits;
    /// let limits = QueryLimits { max_filters: 64, max_value_length: 3 };
    /// assert!(!limits.too_long("abc"));
    /// assert!(limits.too_long("abcd"));
    /// assert!(!limits.too_long("ééé"));
    /// ```
    pub fn too_long(&self, value: &str) -> bool {
        // A character is at least one byte: short texts need no count.
        value.len() > self.max_value_length && value.chars().nth(self.max_value_length).is_some()
    }

    /// The `too_long` issue of a value of parameter `name` (`what`:
    /// "the value", "an entry", "a term").
    pub(crate) fn too_long_issue(&self, name: &str, what: &str) -> Issue {
        let max = self.max_value_length;
        super::error::issue(
            name,
            super::error::code::TOO_LONG,
            format!(
                "{what} of `{}` is longer than {max} characters",
                shorten(name)
            ),
        )
        .with("max", max)
    }
}

/// The `invalid_value` issues of parameters whose name or value holds
/// U+0000 (raw or percent-encoded), one per parameter; checked before
/// anything else is parsed (hostile-input rule "NUL characters").
pub(crate) fn nul_issues(raw: &Pairs<'_>) -> Vec<Issue> {
    let mut out: Vec<Issue> = Vec::new();
    if !raw.nul {
        return out;
    }
    for (name, value, _) in raw.iter_marked() {
        if (name.contains('\0') || value.contains('\0')) && !out.iter().any(|i| i.name == name) {
            out.push(super::error::nul_issue(
                crate::problem::IssueLocation::Query,
                name,
            ));
        }
    }
    out
}

/// [`nul_issues`] of a whole query string, for every route alike (the
/// error pipeline answers them before routing, as a route that never reads
/// its query would not): empty, after one scan for `%` and NUL, for a query
/// that holds no U+0000; also empty over the parameter limit, which is
/// answered first.
#[inline]
pub(crate) fn query_nul_issues(query: &str) -> Vec<Issue> {
    if query.is_empty() {
        return Vec::new();
    }
    let bytes = query.as_bytes();
    let encoded = memchr::memchr_iter(b'%', bytes).any(|i| bytes.get(i + 1..i + 3) == Some(b"00"));
    if !encoded && memchr::memchr(0, bytes).is_none() {
        return Vec::new();
    }
    parsed_nul_issues(query)
}

/// [`query_nul_issues`] of a query that may hold a NUL (the rare path).
#[cold]
#[inline(never)]
fn parsed_nul_issues(query: &str) -> Vec<Issue> {
    match Pairs::parse(query) {
        Ok(pairs) => nul_issues(&pairs),
        Err(_) => Vec::new(),
    }
}

/// Whether `name` is one of [`RESERVED_PARAMETERS`].
///
/// ```
/// use problem_core::query::is_reserved;
/// assert!(is_reserved("per_page") && is_reserved("search_fields"));
/// assert!(!is_reserved("title") && !is_reserved("Page"));
/// ```
pub fn is_reserved(name: &str) -> bool {
    reserved_slot(name) != 0
}

/// A query string decoded into `(name, value)` pairs, in order, repeated
/// names kept (`application/x-www-form-urlencoded` rules: `+` is a space,
/// percent-escapes decoded, invalid UTF-8 replaced by U+FFFD).
///
/// Parsing refuses more than [`MAX_PARAMETERS`] (1000) parameters with
/// [`QueryError::TooManyParameters`] before decoding anything.
///
/// ```
/// use problem_core::query::RawQuery;
/// let raw = RawQuery::parse("sort=-year,title&year__gte=2000&q=rust+book").unwrap();
/// assert_eq!(raw.get_all("q").collect::<Vec<_>>(), ["rust book"]);
/// assert_eq!(raw.len(), 3);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawQuery {
    pairs: Vec<(String, String)>,
}

impl RawQuery {
    /// Decodes a query string (without the leading `?`).
    ///
    /// ```
    /// use problem_core::query::RawQuery;
    /// let raw = RawQuery::parse("title=caf%C3%A9+au+lait&flag&=x").unwrap();
    /// assert_eq!(raw.pairs()[..2], [("title".into(), "café au lait".into()), ("flag".into(), "".into())]);
    /// ```
    ///
    /// # Errors
    /// [`QueryError::TooManyParameters`] for more than 1000 parameters.
    pub fn parse(query: &str) -> Result<Self, QueryError> {
        Ok(Self {
            pairs: Pairs::parse(query)?
                .pairs
                .into_iter()
                .map(|p| (p.name.into_owned(), p.value.into_owned()))
                .collect(),
        })
    }

    /// Takes already decoded pairs.
    ///
    /// ```
    /// use problem_core::query::{QueryError, RawQuery};
    /// let raw = RawQuery::from_pairs([("q", "a+b"), ("q", "c")]).unwrap();
    /// assert_eq!(raw.get_all("q").collect::<Vec<_>>(), ["a+b", "c"]);
    /// let many = (0..1001).map(|i| (format!("p{i}"), String::new()));
    /// assert_eq!(RawQuery::from_pairs(many), Err(QueryError::TooManyParameters));
    /// ```
    ///
    /// # Errors
    /// [`QueryError::TooManyParameters`] for more than 1000 pairs.
    pub fn from_pairs<I, K, V>(pairs: I) -> Result<Self, QueryError>
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        let mut out = Vec::new();
        for (k, v) in pairs {
            if out.len() == MAX_PARAMETERS {
                return Err(QueryError::TooManyParameters);
            }
            out.push((k.into(), v.into()));
        }
        Ok(Self { pairs: out })
    }

    /// The pairs, in order.
    ///
    /// ```
    /// use problem_core::query::RawQuery;
    /// let raw = RawQuery::parse("b=2&a=1").unwrap();
    /// assert_eq!(raw.pairs(), [("b".to_string(), "2".to_string()), ("a".to_string(), "1".to_string())]);
    /// ```
    pub fn pairs(&self) -> &[(String, String)] {
        &self.pairs
    }

    /// Number of pairs.
    ///
    /// ```
    /// use problem_core::query::RawQuery;
    /// assert_eq!(RawQuery::parse("a=1&a=2&b").unwrap().len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether there is no pair.
    ///
    /// ```
    /// use problem_core::query::RawQuery;
    /// assert!(RawQuery::parse("").unwrap().is_empty());
    /// assert!(!RawQuery::parse("a").unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Every value of `name`, in order.
    ///
    /// ```
    /// use problem_core::query::RawQuery;
    /// let raw = RawQuery::parse("tag=a&x=1&tag=b").unwrap();
    /// assert_eq!(raw.get_all("tag").collect::<Vec<_>>(), ["a", "b"]);
    /// assert_eq!(raw.get_all("none").count(), 0);
    /// ```
    pub fn get_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.pairs
            .iter()
            .filter(move |(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether `name` is present (even with an empty value).
    ///
    /// ```
    /// use problem_core::query::RawQuery;
    /// let raw = RawQuery::parse("draft=&q=x").unwrap();
    /// assert!(raw.contains("draft"));
    /// assert!(!raw.contains("Q"));
    /// ```
    pub fn contains(&self, name: &str) -> bool {
        self.pairs.iter().any(|(k, _)| k == name)
    }

    /// The pairs as the parsers read them (borrowed).
    pub(crate) fn borrowed(&self) -> Pairs<'_> {
        let mut pairs = Pairs::with_capacity(self.pairs.len());
        for (k, v) in &self.pairs {
            pairs.push(Cow::Borrowed(k.as_str()), Cow::Borrowed(v.as_str()));
        }
        pairs
    }
}

/// Whether a reserved name starts with the byte (derived from
/// [`RESERVED_PARAMETERS`]).
const RESERVED_FIRST_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < RESERVED_PARAMETERS.len() {
        t[RESERVED_PARAMETERS[i].as_bytes()[0] as usize] = true;
        i += 1;
    }
    t
};

/// The slot of a reserved parameter name: its index in
/// [`RESERVED_PARAMETERS`] plus one; 0 for any other name. Always inlined:
/// the parsers ask for reserved names by literal, which the compiler then
/// resolves to their slot at build time.
#[inline(always)]
fn reserved_slot(name: &str) -> u8 {
    // Most names (the filters) start with a byte no reserved name starts
    // with: one table lookup answers them.
    let first = name.as_bytes().first().copied().unwrap_or(0);
    if !RESERVED_FIRST_BYTES[usize::from(first)] {
        return 0;
    }
    RESERVED_PARAMETERS
        .iter()
        .position(|reserved| *reserved == name)
        .and_then(|i| u8::try_from(i + 1).ok())
        .unwrap_or(0)
}

/// One decoded pair and the slot of its name ([`reserved_slot`]).
#[derive(Debug, Clone)]
pub(crate) struct Pair<'a> {
    name: Cow<'a, str>,
    value: Cow<'a, str>,
    slot: u8,
}

/// Decoded pairs that borrow from the query string where no decoding was
/// needed (no `%` or `+`): what the parsers of every part read, so that a
/// request's query is not copied before it is parsed.
///
/// Each pair's name is matched against the reserved names once, when it
/// is added: the parsers of the reserved parameters then find their pairs
/// by slot, without comparing names again.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pairs<'a> {
    /// Inline up to 16 pairs: a typical query costs no allocation here.
    pairs: SmallVec<[Pair<'a>; 16]>,
    /// Bit `slot` is set when a pair has that reserved slot.
    present: u16,
    /// Bit `slot` is set when more than one pair has that reserved slot.
    repeated: u16,
    /// The index of the first pair of each reserved slot (valid when its
    /// bit in `present` is set).
    first: [u16; RESERVED_PARAMETERS.len() + 1],
    /// Whether a name or a value holds a NUL character.
    nul: bool,
}

/// What a byte of a query string is to the pair splitter: [`PLAIN`] or
/// one of the classes below.
const SPLIT: [u8; 256] = {
    let mut t = [PLAIN; 256];
    t[b'&' as usize] = AMP;
    t[b'=' as usize] = EQ;
    t[b'%' as usize] = SPECIAL;
    t[b'+' as usize] = SPECIAL;
    t[0] = SPECIAL;
    t
};
const PLAIN: u8 = 0;
const AMP: u8 = 1;
const EQ: u8 = 2;
/// Decoded (`%`, `+`) or checked (NUL) by the slow path.
const SPECIAL: u8 = 3;

/// Queries up to this many bytes are parsed without counting their pairs
/// first.
const SHORT_QUERY: usize = 256;

/// The room the pairs of `query` need (its `&`-separated pieces), `None`
/// when it has more than [`MAX_PARAMETERS`] non-empty pairs: the one count
/// of that limit, for the pipeline's early check and the parser alike.
fn parameter_count(query: &str) -> Option<usize> {
    // 1001 non-empty parameters need at least 2001 bytes.
    if query.len() <= MAX_PARAMETERS * 2 {
        return Some(count_ampersands(query.as_bytes()) + 1);
    }
    let count = query
        .split('&')
        .filter(|s| !s.is_empty())
        .take(MAX_PARAMETERS + 1)
        .count();
    (count <= MAX_PARAMETERS).then_some(count)
}

/// The number of `&` in `bytes`, counted in chunks of at most 255 with a
/// byte-wide sum, which the compiler turns into 16 bytes per instruction
/// (a long query, such as one with a cursor, is counted in a few steps).
fn count_ampersands(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|chunk| {
            let n = chunk
                .iter()
                .fold(0u8, |n, &b| n.wrapping_add(u8::from(b == b'&')));
            usize::from(n)
        })
        .sum()
}

/// Whether `query` has more than [`MAX_PARAMETERS`] non-empty pairs (spec,
/// "Limits"); cheap for the short queries that cannot.
pub(crate) fn over_parameter_limit(query: &str) -> bool {
    query.len() > MAX_PARAMETERS * 2 && parameter_count(query).is_none()
}

/// The piece of a query being split: where it starts, its first `=` and
/// whether it holds a byte to decode or check (`%`, `+`, NUL).
struct Cut {
    start: usize,
    eq: Option<usize>,
    special: bool,
}

/// The name of the cursor parameter, whose value is a long token.
const CURSOR_NAME: &[u8] = b"cursor";

impl Cut {
    /// Reads the value that starts at `from` (a cursor token, tens of
    /// bytes without a byte to decode) by searching for its end with
    /// `memchr` rather than looking up each byte: the piece is then marked
    /// special if it holds `%`, `+` or NUL, as the byte loop would have
    /// marked it. Returns where the byte loop goes on: the `&` that ends
    /// the value, or the end of the query.
    fn skip_token(&mut self, bytes: &[u8], from: usize) -> usize {
        let rest = bytes.get(from..).unwrap_or_default();
        let len = memchr::memchr(b'&', rest).unwrap_or(rest.len());
        let value = rest.get(..len).unwrap_or_default();
        self.special |= memchr::memchr3(b'%', b'+', 0, value).is_some();
        from + len
    }

    /// Takes the byte at `at`, one that is not [`PLAIN`] (its [`SPLIT`]
    /// class is `class`): an `&` ends the piece (an empty one is dropped),
    /// the first `=` splits it, any other marks the piece special. The `=`
    /// of a cursor returns where its token ends, to go on from there.
    fn at<'a>(
        &mut self,
        pairs: &mut Pairs<'a>,
        query: &'a str,
        at: usize,
        class: u8,
    ) -> Option<usize> {
        if class == AMP {
            if at > self.start {
                pairs.push_piece(query, self.start, at, self.eq, self.special);
            }
            (self.start, self.eq, self.special) = (at + 1, None, false);
        } else if class == EQ {
            if self.eq.is_none() {
                self.eq = Some(at);
                if at == self.start + CURSOR_NAME.len()
                    && query.as_bytes().get(self.start..at) == Some(CURSOR_NAME)
                {
                    return Some(self.skip_token(query.as_bytes(), at + 1));
                }
            }
        } else {
            self.special = true;
        }
        None
    }
}

impl<'a> Pairs<'a> {
    fn with_capacity(n: usize) -> Self {
        Self {
            pairs: SmallVec::with_capacity(n),
            present: 0,
            repeated: 0,
            first: [0; RESERVED_PARAMETERS.len() + 1],
            nul: false,
        }
    }

    fn push(&mut self, name: Cow<'a, str>, value: Cow<'a, str>) {
        // `[u8]::contains` of one byte is a memchr.
        self.nul |= name.as_bytes().contains(&0) || value.as_bytes().contains(&0);
        self.push_plain(name, value);
    }

    /// [`push`](Self::push) of a pair known to hold no NUL.
    #[inline(always)]
    fn push_plain(&mut self, name: Cow<'a, str>, value: Cow<'a, str>) {
        let slot = reserved_slot(&name);
        if slot != 0 {
            let bit = 1 << slot;
            match (
                self.present & bit == 0,
                self.first.get_mut(usize::from(slot)),
                u16::try_from(self.pairs.len()),
            ) {
                (true, Some(first), Ok(at)) => *first = at,
                // A repeat (or a position that does not fit): `single`
                // reads every pair of the slot.
                _ => self.repeated |= bit,
            }
        }
        self.present |= 1 << slot;
        self.pairs.push(Pair { name, value, slot });
    }

    /// A copy without the non-reserved pairs that `drop` matches, given
    /// each pair's position (from 0, among all pairs) and name. A pair
    /// holding a NUL character is kept whatever its name, so that the NUL
    /// rule ([`nul_issues`]) holds for every parameter, tolerated ones
    /// included.
    pub(crate) fn without_unreserved(&self, drop: impl Fn(usize, &str) -> bool) -> Pairs<'a> {
        let mut out = Self::with_capacity(self.pairs.len());
        for (at, p) in self.pairs.iter().enumerate() {
            let nul = self.nul && (p.name.contains('\0') || p.value.contains('\0'));
            if p.slot != 0 || nul || !drop(at, &p.name) {
                out.push(p.name.clone(), p.value.clone());
            }
        }
        out
    }

    /// Decodes a query string, refusing more than [`MAX_PARAMETERS`]
    /// parameters before decoding anything.
    pub(crate) fn parse(query: &'a str) -> Result<Self, QueryError> {
        let mut pairs = Self::with_capacity(0);
        pairs.parse_into(query)?;
        Ok(pairs)
    }

    /// [`parse`](Self::parse) into `self` (empty), which is not moved
    /// afterwards: the inline room is large.
    pub(crate) fn parse_into(&mut self, query: &'a str) -> Result<(), QueryError> {
        // A short query can neither pass the limit nor outgrow the inline
        // room by much: it is not counted first.
        if query.len() > SHORT_QUERY {
            let count = parameter_count(query).ok_or(QueryError::TooManyParameters)?;
            self.pairs.reserve(count);
        }
        // One pass over the bytes, each looked up in [`SPLIT`]: only `&`,
        // `=` and `%`, `+` or NUL (which make a piece one to decode or
        // check) stop it. (A search for the next such byte per piece, by
        // `memchr` or eight bytes at a time, cost more on the short pieces
        // of a typical query than it saved on a long cursor token.) The
        // one value known to be long, the cursor token, is searched
        // instead: see [`Cut::skip_token`].
        let bytes = query.as_bytes();
        let mut cut = Cut {
            start: 0,
            eq: None,
            special: false,
        };
        let mut from = 0;
        'split: loop {
            let rest = bytes.get(from..).unwrap_or_default();
            for (i, &b) in rest.iter().enumerate() {
                let class = SPLIT[usize::from(b)];
                if class != PLAIN
                    && let Some(end) = cut.at(self, query, from + i, class)
                {
                    from = end;
                    continue 'split;
                }
            }
            break;
        }
        if query.len() > cut.start {
            self.push_piece(query, cut.start, query.len(), cut.eq, cut.special);
        }
        Ok(())
    }

    /// Adds the pair of `query[start..end]` (`=` at `eq`, if any; `special`:
    /// it holds `%`, `+` or NUL).
    fn push_piece(
        &mut self,
        query: &'a str,
        start: usize,
        end: usize,
        eq: Option<usize>,
        special: bool,
    ) {
        let piece = query.get(start..end).unwrap_or("");
        if special {
            // Exactly one pair: `form_urlencoded` decodes it, and the
            // decoded text is checked for NUL.
            for (name, value) in form_urlencoded::parse(piece.as_bytes()) {
                self.push(name, value);
            }
            return;
        }
        // Nothing to decode, no NUL, and the text is already UTF-8 (split
        // on ASCII bytes): borrow it, as `form_urlencoded` would yield it.
        let split = eq
            .and_then(|at| at.checked_sub(start))
            .and_then(|i| piece.split_at_checked(i));
        let (name, value) = match split {
            Some((name, rest)) => (name, rest.get(1..).unwrap_or("")),
            None => (piece, ""),
        };
        self.push_plain(Cow::Borrowed(name), Cow::Borrowed(value));
    }

    /// The pairs, in order.
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs
            .iter()
            .map(|p| (p.name.as_ref(), p.value.as_ref()))
    }

    /// The pairs, in order, with whether the name is reserved.
    pub(crate) fn iter_marked(&self) -> impl Iterator<Item = (&str, &str, bool)> {
        self.pairs
            .iter()
            .map(|p| (p.name.as_ref(), p.value.as_ref(), p.slot != 0))
    }

    /// Every value of `name`, in order.
    #[cfg(test)]
    pub(crate) fn get_all<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s str> + 's {
        self.get_all_in(reserved_slot(name), name)
    }

    /// [`get_all`](Self::get_all) of `name`, whose slot is `slot`.
    fn get_all_in<'s>(&'s self, slot: u8, name: &'s str) -> impl Iterator<Item = &'s str> + 's {
        let absent = slot != 0 && self.present & (1 << slot) == 0;
        self.pairs
            .iter()
            .filter(move |p| {
                !absent
                    && if slot != 0 {
                        p.slot == slot
                    } else {
                        p.name == name
                    }
            })
            .map(|p| p.value.as_ref())
    }

    /// Whether `name` is present (even with an empty value).
    #[inline(always)]
    pub(crate) fn contains(&self, name: &str) -> bool {
        match reserved_slot(name) {
            0 => self.pairs.iter().any(|p| p.name == name),
            slot => self.present & (1 << slot) != 0,
        }
    }

    /// The value of a list-valued parameter (`sort`, `fields`, `exclude`,
    /// `search_fields`, `<field>__in`, `<field>__not_in`): repeats in the
    /// exploded form (`k=a&k=b`, OpenAPI `style: form, explode: true`) are
    /// joined with commas, so they mean `k=a,b`.
    #[inline(always)]
    pub(crate) fn joined<'s>(&'s self, name: &'s str) -> Option<Cow<'s, str>> {
        self.joined_in(reserved_slot(name), name)
    }

    /// [`joined`](Self::joined) of `name`, whose slot is `slot`.
    fn joined_in<'s>(&'s self, slot: u8, name: &'s str) -> Option<Cow<'s, str>> {
        match self.sent_once(slot) {
            Once::Absent => None,
            Once::Value(v) => Some(Cow::Borrowed(v)),
            Once::Unknown => join_values(
                self.get_all_in(slot, name)
                    .filter(|v| !absent_when_blank(name, v)),
            ),
        }
    }

    /// The value of a reserved parameter sent once, read from its slot's
    /// first pair; [`Once::Unknown`] for a repeated or unreserved name.
    fn sent_once(&self, slot: u8) -> Once<'_> {
        if slot == 0 {
            return Once::Unknown;
        }
        let bit = 1 << slot;
        if self.present & bit == 0 {
            return Once::Absent;
        }
        if self.repeated & bit != 0 {
            return Once::Unknown;
        }
        let at = self.first.get(usize::from(slot)).copied().unwrap_or(0);
        match self.pairs.get(usize::from(at)) {
            Some(p) => Once::Value(p.value.as_ref()),
            None => Once::Unknown,
        }
    }

    /// The single value of a reserved parameter. A repeated parameter is
    /// accepted when every value is the same; different values are a
    /// `conflicting_parameters` issue.
    #[inline(always)]
    pub(crate) fn single<'s>(&'s self, name: &'s str, issues: &mut Vec<Issue>) -> Option<&'s str> {
        self.single_in(reserved_slot(name), name, issues)
    }

    /// [`single`](Self::single) of `name`, whose slot is `slot`.
    fn single_in<'s>(
        &'s self,
        slot: u8,
        name: &'s str,
        issues: &mut Vec<Issue>,
    ) -> Option<&'s str> {
        match self.sent_once(slot) {
            Once::Absent => return None,
            Once::Value(v) => return Some(v),
            Once::Unknown => {}
        }
        let mut values = self
            .get_all_in(slot, name)
            .filter(|v| !absent_when_blank(name, v));
        let Some(first) = values.next() else {
            // Every value blank: not given, as one blank value is.
            return Some("");
        };
        if values.any(|v| v != first) {
            issues.push(repeated_parameter(name));
            return None;
        }
        Some(first)
    }
}

/// The parameters whose empty value means "not given": `sort`, `fields`,
/// `exclude`, `search_fields`, `q`, `search` and `cursor` (a search of
/// whitespace only has no terms, so a blank `q` or `search` too). Sent more
/// than once, such values are dropped before the others are compared or
/// joined, so `sort=&sort=id` is `sort=id`, as `sort=` alone is no sort.
const ABSENT_WHEN_BLANK: [&str; 7] = [
    "sort",
    "fields",
    "exclude",
    "search_fields",
    "q",
    "search",
    "cursor",
];

/// Whether `value` of `name` means "not given" ([`ABSENT_WHEN_BLANK`]):
/// empty, or for `q` and `search` whitespace only. A blank cursor (`\n`)
/// is a malformed token, never "not given".
pub(crate) fn absent_when_blank(name: &str, value: &str) -> bool {
    let blank = match name {
        "q" | "search" => value.trim().is_empty(),
        _ => value.is_empty(),
    };
    blank && ABSENT_WHEN_BLANK.contains(&name)
}

/// What [`Pairs::sent_once`] knows of a parameter from its slot alone.
enum Once<'s> {
    /// A reserved parameter that was not sent.
    Absent,
    /// The value of a reserved parameter sent once.
    Value(&'s str),
    /// Repeated, or not reserved: its pairs must be read.
    Unknown,
}

/// One `application/x-www-form-urlencoded` name or value, decoded as
/// `form_urlencoded::parse` decodes it: `+` is a space, then percent
/// decoding, then UTF-8 with replacement characters.
pub(crate) fn form_decode(raw: &[u8]) -> Cow<'_, str> {
    if !raw.iter().any(|&b| b == b'%' || b == b'+') {
        return String::from_utf8_lossy(raw);
    }
    let spaced: Vec<u8> = raw
        .iter()
        .map(|&b| if b == b'+' { b' ' } else { b })
        .collect();
    let decoded: Vec<u8> = percent_encoding::percent_decode(&spaced).collect();
    Cow::Owned(String::from_utf8_lossy(&decoded).into_owned())
}

/// The values of an exploded list parameter joined with commas: borrowed
/// when there is one.
pub(crate) fn join_values<'v>(mut values: impl Iterator<Item = &'v str>) -> Option<Cow<'v, str>> {
    let first = values.next()?;
    let Some(second) = values.next() else {
        return Some(Cow::Borrowed(first));
    };
    let mut out = String::with_capacity(first.len() + second.len() + 1);
    out.push_str(first);
    for v in std::iter::once(second).chain(values) {
        out.push(',');
        out.push_str(v);
    }
    Some(Cow::Owned(out))
}

/// Result of reading an integer parameter.
pub(crate) enum Int {
    Value(i128),
    NotInteger,
}

/// Parses an optionally signed decimal integer; very long numbers saturate.
pub(crate) fn parse_int(s: &str) -> Int {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Int::NotInteger;
    }
    let trimmed = digits.trim_start_matches('0');
    let magnitude: i128 = if trimmed.len() <= 19 {
        // At most 19 digits fit a `u64`: summed without `i128` arithmetic.
        i128::from(
            trimmed
                .bytes()
                .fold(0u64, |n, b| n * 10 + u64::from(b - b'0')),
        )
    } else if trimmed.len() > 30 {
        i128::from(u64::MAX) * 1_000
    } else {
        trimmed.parse().unwrap_or(0)
    };
    Int::Value(if neg { -magnitude } else { magnitude })
}

/// `str::trim`, answered without a character search when both ends are
/// visible ASCII (the usual case).
fn trim(s: &str) -> &str {
    match (s.as_bytes().first(), s.as_bytes().last()) {
        (Some(a), Some(b)) if a.is_ascii_graphic() && b.is_ascii_graphic() => s,
        _ => s.trim(),
    }
}

/// The pieces of `value` between commas, as `str::split(',')` yields them
/// (a byte search: `,` is ASCII, so every cut is a character boundary).
pub(crate) fn commas(value: &str) -> Commas<'_> {
    Commas { rest: Some(value) }
}

/// The iterator of [`commas`].
#[derive(Debug, Clone)]
pub(crate) struct Commas<'a> {
    rest: Option<&'a str>,
}

impl<'a> Iterator for Commas<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let s = self.rest?;
        match s.bytes().position(|b| b == b',') {
            Some(i) => {
                self.rest = s.get(i + 1..);
                s.get(..i)
            }
            None => {
                self.rest = None;
                Some(s)
            }
        }
    }
}

/// A comma-separated list (`sort`, `fields`, `exclude`, `search_fields`):
/// `None` for an empty value, else the entries trimmed (read lazily,
/// without collecting them); an empty entry (`a,,b`) is an `invalid_value`
/// issue, and more than [`MAX_LIST_VALUES`] entries a `too_many_values`
/// issue (as for `__in` lists), counted before anything is read: each
/// entry could be an issue of its own, and a 60 KB query of 30,000 unknown
/// names made an answer of 6 MB.
pub(crate) fn comma_list<'a>(
    name: &str,
    value: &'a str,
    issues: &mut Vec<Issue>,
) -> Option<impl Iterator<Item = &'a str> + Clone + use<'a>> {
    if trim(value).is_empty() {
        return None;
    }
    if memchr::memchr_iter(b',', value.as_bytes()).count() >= MAX_LIST_VALUES {
        issues.push(super::error::too_many_values(
            name,
            MAX_LIST_VALUES,
            "values",
        ));
        return None;
    }
    let entries = commas(value).map(trim);
    if entries.clone().any(str::is_empty) {
        issues.push(
            super::error::issue(
                name,
                super::error::code::INVALID_VALUE,
                format!("`{}` has an empty entry", shorten(value)),
            )
            .with("expected", "comma-separated list of field names"),
        );
        return None;
    }
    Some(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ampersands_are_counted_across_chunks() {
        let naive = |b: &[u8]| b.iter().filter(|&&c| c == b'&').count();
        let mut cases: Vec<Vec<u8>> = vec![Vec::new(), b"&".to_vec(), b"a=1&b=2&&c".to_vec()];
        cases.push(vec![b'&'; 255]);
        cases.push(vec![b'&'; 256]);
        cases.push(vec![b'&'; 2001]);
        cases.push(
            (0..3000u32)
                .map(|i| if i % 7 == 0 { b'&' } else { b'x' })
                .collect(),
        );
        for c in cases {
            assert_eq!(count_ampersands(&c), naive(&c), "{}", c.len());
        }
    }

    #[test]
    fn reserved_slots_follow_the_reserved_list() {
        for (i, name) in RESERVED_PARAMETERS.iter().enumerate() {
            assert_eq!(usize::from(reserved_slot(name)), i + 1, "{name}");
            assert!(is_reserved(name));
        }
        for name in ["", "pag", "pages", "Page", "sort_", "title", "api-version"] {
            assert_eq!(reserved_slot(name), 0, "{name}");
            assert!(!is_reserved(name));
        }
        let pairs = Pairs::parse("sort=a&x=1&sort=a&q=&page%3D=2&x=2").unwrap();
        let mut issues = Vec::new();
        assert_eq!(pairs.single("sort", &mut issues), Some("a"));
        assert_eq!(pairs.single("q", &mut issues), Some(""));
        assert_eq!(
            pairs.single("page", &mut issues),
            None,
            "`page=` decodes to the name `page=`"
        );
        assert_eq!(pairs.get_all("page=").collect::<Vec<_>>(), ["2"]);
        assert_eq!(pairs.get_all("x").collect::<Vec<_>>(), ["1", "2"]);
        assert!(pairs.contains("q") && pairs.contains("x") && !pairs.contains("cursor"));
        assert!(issues.is_empty());
        let marked: Vec<bool> = pairs.iter_marked().map(|(_, _, r)| r).collect();
        assert_eq!(marked, [true, false, true, true, false, false]);
        let pairs = Pairs::parse("per_page=1&per_page=2").unwrap();
        assert_eq!(pairs.single("per_page", &mut issues), None);
        assert_eq!(issues.len(), 1);
    }

    #[test]
    fn commas_split_as_str_split_does() {
        for value in ["", ",", "a", "a,b", ",a,,b,", "é,€,𝄞", "a, b ,c"] {
            assert_eq!(
                commas(value).collect::<Vec<_>>(),
                value.split(',').collect::<Vec<_>>(),
                "{value}"
            );
        }
    }

    #[test]
    fn pairs_decode_as_form_urlencoded_does() {
        for query in [
            "",
            "a=1&b=2",
            "&&a&=x&b=&c==d&",
            "q=rust+book&sort=-year%2Ctitle&x%3D=%E2%82%AC&bad=%ff%fe&%",
            "title__contains=Night&page=2",
        ] {
            let (ours, theirs) = ours_and_form_urlencoded(query);
            assert_eq!(ours, theirs, "{query}");
        }
    }

    /// Decoded pairs, owned.
    type Decoded = Vec<(String, String)>;

    /// The pairs of `query` as [`Pairs::parse`] and as `form_urlencoded`
    /// decode it.
    fn ours_and_form_urlencoded(query: &str) -> (Decoded, Decoded) {
        let ours = Pairs::parse(query)
            .unwrap()
            .iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        let theirs = form_urlencoded::parse(query.as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        (ours, theirs)
    }

    #[test]
    fn trim_is_str_trim() {
        for s in [
            "",
            " ",
            "a",
            " a",
            "a ",
            " a ",
            "\ta\n",
            "\u{3000}a\u{3000}",
            "é",
            " é",
            "é ",
            "-x",
            "\u{85}a",
            "a\u{a0}",
        ] {
            assert_eq!(trim(s), s.trim(), "{s:?}");
        }
    }

    #[test]
    fn integers_of_every_length_read_as_i128_reads_them() {
        let value = |s: &str| match parse_int(s) {
            Int::Value(v) => Some(v),
            Int::NotInteger => None,
        };
        for digits in 1..=30 {
            for lead in ["", "0", "000"] {
                for sign in ["", "-", "+"] {
                    let nines = "9".repeat(digits);
                    let text = format!("{sign}{lead}{nines}");
                    let expected: i128 = format!("{sign}{nines}").parse().unwrap();
                    assert_eq!(value(&text), Some(expected), "{text}");
                }
            }
        }
        // u64::MAX and one more need the i128 path.
        assert_eq!(value("18446744073709551615"), Some(i128::from(u64::MAX)));
        assert_eq!(
            value("18446744073709551616"),
            Some(i128::from(u64::MAX) + 1)
        );
        // Over 30 significant digits saturate; zeros in front do not count.
        assert_eq!(value(&"9".repeat(31)), Some(i128::from(u64::MAX) * 1_000));
        assert_eq!(value(&format!("{}1", "0".repeat(40))), Some(1));
        for bad in ["", "-", "+", "1a", " 1", "1.0", "--1", "+-1", "١"] {
            assert_eq!(value(bad), None, "{bad}");
        }
    }

    proptest::proptest! {
        /// Any query, with pieces to decode (`%`, `+`), NUL, empty pieces,
        /// long plain runs and cursor values (searched, not looked up byte
        /// by byte), splits into `form_urlencoded`'s pairs.
        #[test]
        fn any_query_splits_as_form_urlencoded_does(
            query in "([a-c&=%+\\x00é]|%[0-9a-fA-F]{2}|[a-z]{20,40}|&?cursor=?){0,24}"
        ) {
            let (ours, theirs) = ours_and_form_urlencoded(&query);
            proptest::prop_assert_eq!(ours, theirs);
        }
    }
}
