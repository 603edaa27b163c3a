//! [`VersionedHandler`]: a registry mapping versions to handlers
//! (spec, "Versioned handlers").

use super::api_version::ApiVersion;
use super::constraint::VersionConstraint;
use super::error::VersionError;
use crate::config::HttpConfigError;

/// One registration: the constraints a handler accepts.
#[derive(Debug, Clone)]
struct Entry<H> {
    constraints: Vec<VersionConstraint>,
    handler: H,
}

/// A registry mapping versions to handlers of any type `H`, with an
/// optional fallback (spec, "Versioned handlers").
///
/// | Operation | Rule |
/// |---|---|
/// | [`version(v, h)`](Self::version) | registers `h` for exactly `v` |
/// | [`constraint(c, h)`](Self::constraint), [`constraints`](Self::constraints) | registers `h` for every version a [`VersionConstraint`] accepts (`2.x`, `2.1+`, ranges) |
/// | [`fallback(h)`](Self::fallback) | the handler used when no registration applies |
/// | [`get(v)`](Self::get) | exact match only: the handler whose registration accepts `v` as it is (an exact registration of `v`, or a constraint `v` satisfies) |
/// | [`get_compatible(v)`](Self::get_compatible) | `get(v)`, else the registration with the highest minor not above `v` within `v`'s major (a range counts as its upper end) |
/// | [`dispatch(v)`](Self::dispatch) | `get_compatible(v)`, else the fallback, else [`VersionError::Unsupported`] |
///
/// Registrations must not overlap ([`validate`](Self::validate) says so);
/// until checked, the first matching registration wins, so lookups are
/// deterministic either way.
///
/// ```
/// use problem_core::version::{ApiVersion, VersionedHandler, VersionError};
///
/// let table = VersionedHandler::new()
///     .version(ApiVersion::V1, "v1.0")
///     .version(ApiVersion::new(1, 2), "v1.2")
///     .constraint("3.x".parse()?, "v3");
/// table.validate()?;
/// assert_eq!(table.get(ApiVersion::new(1, 1)), None);
/// assert_eq!(table.get_compatible(ApiVersion::new(1, 1)), Some(&"v1.0"));
/// assert_eq!(table.get_compatible(ApiVersion::new(1, 9)), Some(&"v1.2"));
/// assert_eq!(table.get_compatible(ApiVersion::new(3, 4)), Some(&"v3"));
/// assert!(matches!(table.dispatch(ApiVersion::V2), Err(VersionError::Unsupported { .. })));
/// let table = table.fallback("fallback");
/// assert_eq!(table.dispatch(ApiVersion::V2), Ok(&"fallback"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct VersionedHandler<H> {
    entries: Vec<Entry<H>>,
    fallback: Option<H>,
}

impl<H> Default for VersionedHandler<H> {
    fn default() -> Self {
        Self::new()
    }
}

impl<H> VersionedHandler<H> {
    /// An empty registry.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionedHandler};
    /// let table: VersionedHandler<&str> = VersionedHandler::new();
    /// assert!(table.registered_versions().is_empty());
    /// assert_eq!(table.get(ApiVersion::V1), None);
    /// ```
    pub fn new() -> Self {
        Self {
            entries: Vec::new(),
            fallback: None,
        }
    }

    /// Registers `handler` for exactly `version` (spec: `version(v, handler)`).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionedHandler};
    /// let table = VersionedHandler::new().version(ApiVersion::new(2, 1), "v2.1");
    /// assert_eq!(table.get(ApiVersion::new(2, 1)), Some(&"v2.1"));
    /// assert_eq!(table.get(ApiVersion::new(2, 2)), None);
    /// ```
    pub fn version(self, version: ApiVersion, handler: H) -> Self {
        self.constraints([VersionConstraint::Exact(version)], handler)
    }

    /// Registers `handler` for every version `constraint` accepts.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConstraint, VersionedHandler};
    /// let table = VersionedHandler::new().constraint(VersionConstraint::minimum(ApiVersion::V2), "v2+");
    /// assert_eq!(table.get(ApiVersion::new(7, 3)), Some(&"v2+"));
    /// assert_eq!(table.get(ApiVersion::V1), None);
    /// ```
    pub fn constraint(self, constraint: VersionConstraint, handler: H) -> Self {
        self.constraints([constraint], handler)
    }

    /// Registers `handler` for every version any of `constraints` accepts
    /// (what `#[versioned("1.0", "2.x")]` records).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConstraint, VersionedHandler};
    /// let table = VersionedHandler::new()
    ///     .constraints([VersionConstraint::exact(ApiVersion::V1), VersionConstraint::major(3)], "old and new");
    /// assert_eq!(table.get(ApiVersion::V1), Some(&"old and new"));
    /// assert_eq!(table.get(ApiVersion::new(3, 4)), Some(&"old and new"));
    /// assert_eq!(table.get(ApiVersion::V2), None);
    /// assert_eq!(table.registered_versions(), [ApiVersion::V1, ApiVersion::V3]);
    /// ```
    pub fn constraints(
        mut self,
        constraints: impl IntoIterator<Item = VersionConstraint>,
        handler: H,
    ) -> Self {
        self.entries.push(Entry {
            constraints: constraints.into_iter().collect(),
            handler,
        });
        self
    }

    /// Registers the handler used when no registered version applies
    /// (replacing an earlier fallback).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionedHandler};
    /// let table = VersionedHandler::new()
    ///     .version(ApiVersion::V1, "v1")
    ///     .fallback("first")
    ///     .fallback("latest");
    /// assert_eq!(table.dispatch(ApiVersion::V1), Ok(&"v1"));
    /// assert_eq!(table.dispatch(ApiVersion::V3), Ok(&"latest"));
    /// ```
    pub fn fallback(mut self, handler: H) -> Self {
        self.fallback = Some(handler);
        self
    }

    /// The fallback, if any.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionedHandler};
    /// let table = VersionedHandler::new().version(ApiVersion::V1, "v1");
    /// assert_eq!(table.fallback_handler(), None);
    /// assert_eq!(table.fallback("other").fallback_handler(), Some(&"other"));
    /// ```
    pub fn fallback_handler(&self) -> Option<&H> {
        self.fallback.as_ref()
    }

    /// The handler of the first registration whose constraint accepts
    /// `version`: an exact version, or a range (`2.x`) or minimum (`2.1+`)
    /// that contains it; no compatibility step beyond the constraints
    /// (see [`get_compatible`](Self::get_compatible)).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionedHandler};
    /// let table = VersionedHandler::new()
    ///     .version(ApiVersion::V1, "v1")
    ///     .constraint("2.x".parse()?, "v2");
    /// assert_eq!(table.get(ApiVersion::V1), Some(&"v1"));
    /// assert_eq!(table.get(ApiVersion::new(2, 9)), Some(&"v2"));
    /// assert_eq!(table.get(ApiVersion::new(1, 1)), None);
    /// # Ok::<(), problem_core::version::ConstraintParseError>(())
    /// ```
    pub fn get(&self, version: ApiVersion) -> Option<&H> {
        self.entries
            .iter()
            .find(|e| e.constraints.iter().any(|c| c.matches(version)))
            .map(|e| &e.handler)
    }

    /// [`get`](Self::get), else the handler of the registration with the
    /// highest registered version not above `version` in `version.major`
    /// (the highest registered minor): an exact registration counts as its
    /// version, a range (`1.5..=1.6`) as its upper end; on a tie, the first
    /// registered. A minimum (`2.1+`) either contains `version` or lies
    /// above it.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionedHandler};
    /// let table = VersionedHandler::new()
    ///     .version(ApiVersion::V1, "v1.0")
    ///     .version(ApiVersion::new(1, 3), "v1.3")
    ///     .constraint("1.5..=1.6".parse()?, "v1.5-1.6");
    /// assert_eq!(table.get_compatible(ApiVersion::new(1, 2)), Some(&"v1.0"));
    /// assert_eq!(table.get_compatible(ApiVersion::new(1, 4)), Some(&"v1.3"));
    /// assert_eq!(table.get_compatible(ApiVersion::new(1, 8)), Some(&"v1.5-1.6"));
    /// assert_eq!(table.get_compatible(ApiVersion::V2), None);
    /// # Ok::<(), problem_core::version::ConstraintParseError>(())
    /// ```
    pub fn get_compatible(&self, version: ApiVersion) -> Option<&H> {
        if let Some(h) = self.get(version) {
            return Some(h);
        }
        let mut best: Option<(ApiVersion, &H)> = None;
        for entry in &self.entries {
            for c in &entry.constraints {
                let highest = match *c {
                    VersionConstraint::Exact(v) | VersionConstraint::Range(_, v) => v,
                    VersionConstraint::Minimum(_) => continue,
                };
                if highest.major == version.major
                    && highest <= version
                    && best.is_none_or(|(b, _)| highest > b)
                {
                    best = Some((highest, &entry.handler));
                }
            }
        }
        best.map(|(_, h)| h)
    }

    /// The handler for `version`: [`get_compatible`](Self::get_compatible),
    /// else the fallback.
    ///
    /// # Errors
    /// [`VersionError::Unsupported`] when neither applies; its `supported`
    /// list is [`registered_versions`](Self::registered_versions).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionError, VersionedHandler};
    /// let table = VersionedHandler::new()
    ///     .version(ApiVersion::V1, "v1")
    ///     .version(ApiVersion::V3, "v3");
    /// assert_eq!(table.dispatch(ApiVersion::new(3, 2)), Ok(&"v3"));
    /// assert_eq!(
    ///     table.dispatch(ApiVersion::V2),
    ///     Err(VersionError::Unsupported { version: ApiVersion::V2, supported: vec![ApiVersion::V1, ApiVersion::V3] })
    /// );
    /// ```
    pub fn dispatch(&self, version: ApiVersion) -> Result<&H, VersionError> {
        self.get_compatible(version)
            .or(self.fallback.as_ref())
            .ok_or_else(|| VersionError::Unsupported {
                version,
                supported: self.registered_versions(),
            })
    }

    /// Every registered constraint, in registration order.
    pub(crate) fn registered_constraints(&self) -> impl Iterator<Item = &VersionConstraint> {
        self.entries.iter().flat_map(|e| e.constraints.iter())
    }

    /// The lowest version of each registration, ascending, without
    /// duplicates (`2.x` counts as `2`).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionedHandler};
    /// let table = VersionedHandler::new()
    ///     .constraint("3.x".parse()?, 'c')
    ///     .constraint("2.1+".parse()?, 'b')
    ///     .version(ApiVersion::V1, 'a')
    ///     .constraint("1.0".parse()?, 'd');
    /// assert_eq!(table.registered_versions(), [ApiVersion::V1, ApiVersion::new(2, 1), ApiVersion::V3]);
    /// # Ok::<(), problem_core::version::ConstraintParseError>(())
    /// ```
    pub fn registered_versions(&self) -> Vec<ApiVersion> {
        let mut out: Vec<ApiVersion> = self
            .entries
            .iter()
            .flat_map(|e| {
                e.constraints
                    .iter()
                    .filter(|c| !c.is_empty())
                    .map(|c| c.low())
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Checks that no two registrations accept a common version and that
    /// no constraint is empty.
    ///
    /// # Errors
    /// [`HttpConfigError::InvalidVersionConfig`] naming the constraints.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionedHandler};
    /// let table = VersionedHandler::new()
    ///     .constraint("2.x".parse().unwrap(), 'a')
    ///     .version(ApiVersion::new(2, 1), 'b');
    /// assert_eq!(
    ///     table.validate().unwrap_err().to_string(),
    ///     "invalid version configuration: versioned handlers overlap: 2.x and 2.1 both accept some version"
    /// );
    /// ```
    pub fn validate(&self) -> Result<(), HttpConfigError> {
        let all: Vec<&VersionConstraint> = self
            .entries
            .iter()
            .flat_map(|e| e.constraints.iter())
            .collect();
        if let Some(c) = all.iter().find(|c| c.is_empty()) {
            return Err(HttpConfigError::InvalidVersionConfig(format!(
                "version constraint {c} accepts no version"
            )));
        }
        for (n, a) in all.iter().enumerate() {
            for b in &all[n + 1..] {
                if a.overlaps(b) {
                    return Err(HttpConfigError::InvalidVersionConfig(format!(
                        "versioned handlers overlap: {a} and {b} both accept some version"
                    )));
                }
            }
        }
        Ok(())
    }

    /// Applies `f` to every handler (the fallback included), keeping the
    /// registrations.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionedHandler};
    /// let table = VersionedHandler::new()
    ///     .version(ApiVersion::V1, "one")
    ///     .fallback("other")
    ///     .map(str::len);
    /// assert_eq!(table.get(ApiVersion::V1), Some(&3));
    /// assert_eq!(table.fallback_handler(), Some(&5));
    /// ```
    pub fn map<T>(self, mut f: impl FnMut(H) -> T) -> VersionedHandler<T> {
        VersionedHandler {
            entries: self
                .entries
                .into_iter()
                .map(|e| Entry {
                    constraints: e.constraints,
                    handler: f(e.handler),
                })
                .collect(),
            fallback: self.fallback.map(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(major: u16, minor: u16) -> ApiVersion {
        ApiVersion::new(major, minor)
    }
    fn c(s: &str) -> VersionConstraint {
        s.parse().unwrap()
    }

    #[test]
    fn get_is_exact_only() {
        let t = VersionedHandler::new()
            .version(v(1, 0), 1)
            .version(v(2, 0), 2);
        assert_eq!(t.get(v(1, 0)), Some(&1));
        assert_eq!(t.get(v(2, 0)), Some(&2));
        assert_eq!(t.get(v(1, 1)), None);
        assert_eq!(t.get(v(3, 0)), None);
    }

    #[test]
    fn get_compatible_takes_the_highest_minor_not_above() {
        let t = VersionedHandler::new()
            .version(v(1, 0), "1.0")
            .version(v(1, 3), "1.3")
            .version(v(1, 1), "1.1")
            .version(v(2, 5), "2.5");
        assert_eq!(t.get_compatible(v(1, 0)), Some(&"1.0"));
        assert_eq!(t.get_compatible(v(1, 2)), Some(&"1.1"));
        assert_eq!(t.get_compatible(v(1, 3)), Some(&"1.3"));
        assert_eq!(t.get_compatible(v(1, 65535)), Some(&"1.3"));
        assert_eq!(t.get_compatible(v(2, 4)), None);
        assert_eq!(t.get_compatible(v(2, 9)), Some(&"2.5"));
        assert_eq!(t.get_compatible(v(3, 0)), None);
        assert_eq!(t.get_compatible(v(0, 9)), None);
    }

    #[test]
    fn get_compatible_counts_a_range_as_its_upper_end() {
        let t = VersionedHandler::new().constraint(VersionConstraint::range(v(1, 0), v(1, 5)), 'r');
        assert_eq!(t.get_compatible(v(1, 5)), Some(&'r'));
        assert_eq!(t.get_compatible(v(1, 6)), Some(&'r'));
        assert_eq!(t.get_compatible(v(2, 0)), None);
        // The highest registered minor wins, whatever the registration order;
        // on a tie, the first registered.
        let t = VersionedHandler::new()
            .version(v(1, 0), "1.0")
            .constraint(VersionConstraint::range(v(1, 5), v(1, 6)), "1.5-1.6")
            .version(v(1, 6), "1.6")
            .version(v(1, 3), "1.3");
        assert_eq!(t.get_compatible(v(1, 4)), Some(&"1.3"));
        assert_eq!(t.get_compatible(v(1, 8)), Some(&"1.5-1.6"));
        // A range reaching into the next major counts in that major.
        let t = VersionedHandler::new()
            .version(v(2, 0), "2.0")
            .constraint(VersionConstraint::range(v(1, 5), v(2, 3)), "1.5-2.3");
        assert_eq!(t.get_compatible(v(2, 7)), Some(&"1.5-2.3"));
        assert_eq!(t.get_compatible(v(1, 2)), None);
        // A minimum above the version is not a candidate.
        let t = VersionedHandler::new().constraint(VersionConstraint::minimum(v(1, 4)), "1.4+");
        assert_eq!(t.get_compatible(v(1, 3)), None);
    }

    #[test]
    fn dispatch_with_and_without_fallback() {
        let t = VersionedHandler::new()
            .constraints([c("1.0"), c("2.x")], "old")
            .constraint(c("3.x"), "new");
        assert_eq!(t.dispatch(v(1, 0)), Ok(&"old"));
        assert_eq!(t.dispatch(v(1, 4)), Ok(&"old"));
        assert_eq!(t.dispatch(v(2, 7)), Ok(&"old"));
        assert_eq!(t.dispatch(v(3, 0)), Ok(&"new"));
        assert_eq!(
            t.dispatch(v(4, 0)),
            Err(VersionError::Unsupported {
                version: v(4, 0),
                supported: vec![v(1, 0), v(2, 0), v(3, 0)]
            })
        );
        let t = t.fallback("fb");
        assert_eq!(t.dispatch(v(4, 0)), Ok(&"fb"));
        assert_eq!(t.dispatch(v(3, 1)), Ok(&"new"));
        assert_eq!(t.fallback_handler(), Some(&"fb"));
    }

    #[test]
    fn validate() {
        let ok = VersionedHandler::new()
            .constraint(c("2.x"), 1)
            .constraint(c("3.0"), 2);
        assert_eq!(ok.validate(), Ok(()));
        let dup = VersionedHandler::new()
            .version(v(1, 0), 1)
            .version(v(1, 0), 2);
        assert_eq!(
            dup.validate().unwrap_err().to_string(),
            "invalid version configuration: versioned handlers overlap: 1.0 and 1.0 both accept some version"
        );
        let inside = VersionedHandler::new().constraints([c("1.0"), c("1.x")], 1);
        assert!(inside.validate().is_err());
        let empty =
            VersionedHandler::new().constraint(VersionConstraint::range(v(2, 0), v(1, 0)), 1);
        assert_eq!(
            empty.validate().unwrap_err().to_string(),
            "invalid version configuration: version constraint 2.0..=1.0 accepts no version"
        );
    }

    #[test]
    fn map_keeps_registrations() {
        let t = VersionedHandler::new()
            .version(v(1, 0), 1)
            .fallback(9)
            .map(|n| n * 10);
        assert_eq!(t.get(v(1, 0)), Some(&10));
        assert_eq!(t.dispatch(v(5, 0)), Ok(&90));
    }
}
