//! [`VersionConstraint`]: which versions a handler accepts
//! (spec, "VersionConstraint").

use std::fmt;
use std::str::FromStr;

use super::api_version::{ApiVersion, VersionParseError, clip};

/// The versions a handler accepts: one version, every version from a
/// minimum on, or an inclusive range (spec, "VersionConstraint").
///
/// Range ends are inclusive at both ends. A range whose
/// lower end is above its upper end matches nothing
/// ([`VersionedHandler::validate`](super::VersionedHandler::validate)
/// rejects it).
///
/// Text forms ([`FromStr`], also the literals of `#[versioned(...)]`):
///
/// | Text | Constraint |
/// |---|---|
/// | `1.0`, `1`, `v1` | `Exact(1.0)` |
/// | `2.x` (or `2.X`, `v2.x`) | `Range(2.0, 2.65535)`: every `2.*` |
/// | `2.1+` (or `2+`) | `Minimum(2.1)`: 2.1 and every later version |
/// | `1.2..=2.5` | `Range(1.2, 2.5)` |
///
/// [`Display`](fmt::Display) writes the same forms, so display and parse
/// round-trip.
///
/// ```
/// use problem_core::version::{ApiVersion, VersionConstraint};
///
/// let any_2: VersionConstraint = "2.x".parse()?;
/// assert!(any_2.matches(ApiVersion::new(2, 0)));
/// assert!(any_2.matches(ApiVersion::new(2, 7)));
/// assert!(!any_2.matches(ApiVersion::V3));
///
/// let from_2_1: VersionConstraint = "2.1+".parse()?;
/// assert!(!from_2_1.matches(ApiVersion::V2));
/// assert!(from_2_1.matches(ApiVersion::new(7, 0)));
///
/// let range = VersionConstraint::range(ApiVersion::new(2, 0), ApiVersion::new(2, 99));
/// assert!(range.matches(ApiVersion::new(2, 99)));
/// assert!(!range.matches(ApiVersion::new(2, 100)));
/// # Ok::<(), problem_core::version::ConstraintParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum VersionConstraint {
    /// Exactly this version.
    Exact(ApiVersion),
    /// This version and every later one.
    Minimum(ApiVersion),
    /// Every version from the first to the second, both included.
    Range(ApiVersion, ApiVersion),
}

impl VersionConstraint {
    /// Exactly `v`.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConstraint};
    /// let c = VersionConstraint::exact(ApiVersion::new(2, 1));
    /// assert_eq!(c.to_string(), "2.1");
    /// assert!(c.matches(ApiVersion::new(2, 1)));
    /// assert!(!c.matches(ApiVersion::new(2, 2)));
    /// ```
    pub const fn exact(v: ApiVersion) -> Self {
        Self::Exact(v)
    }

    /// `v` and every later version.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConstraint};
    /// let c = VersionConstraint::minimum(ApiVersion::new(2, 1));
    /// assert_eq!(c.to_string(), "2.1+");
    /// assert!(c.matches(ApiVersion::new(9, 0)));
    /// assert!(!c.matches(ApiVersion::V2));
    /// ```
    pub const fn minimum(v: ApiVersion) -> Self {
        Self::Minimum(v)
    }

    /// Parses the text form of a constraint, as [`ApiVersion::parse`] parses
    /// a version (the same as `text.parse::<VersionConstraint>()`; forms in
    /// the table above: `2.1`, `2.x`, `2.1+`, `1.0..=2.5`).
    ///
    /// # Errors
    /// [`ConstraintParseError`]: not one of those forms, or a number over
    /// `u16`.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConstraint};
    /// let c = VersionConstraint::parse("2.x")?;
    /// assert_eq!(c, VersionConstraint::major(2));
    /// assert!(c.matches(ApiVersion::new(2, 9)) && !c.matches(ApiVersion::V3));
    /// assert_eq!(VersionConstraint::parse("2.1+")?, VersionConstraint::minimum(ApiVersion::new(2, 1)));
    /// assert!(VersionConstraint::parse("2.y").is_err());
    /// # Ok::<(), problem_core::version::ConstraintParseError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Self, ConstraintParseError> {
        text.parse()
    }

    /// Every version from `low` to `high`, both included.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConstraint};
    /// let c = VersionConstraint::range(ApiVersion::new(1, 2), ApiVersion::new(2, 5));
    /// assert_eq!(c.to_string(), "1.2..=2.5");
    /// assert!(c.matches(ApiVersion::new(2, 5)));
    /// assert!(!c.matches(ApiVersion::new(1, 1)));
    /// ```
    pub const fn range(low: ApiVersion, high: ApiVersion) -> Self {
        Self::Range(low, high)
    }

    /// Every `major.*` version (the text form `major.x`).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConstraint};
    /// assert_eq!(VersionConstraint::major(2).to_string(), "2.x");
    /// assert!(VersionConstraint::major(2).matches(ApiVersion::new(2, 65535)));
    /// ```
    pub const fn major(major: u16) -> Self {
        Self::Range(ApiVersion::new(major, 0), ApiVersion::new(major, u16::MAX))
    }

    /// The lowest version the constraint accepts.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConstraint};
    /// assert_eq!(VersionConstraint::major(2).low(), ApiVersion::V2);
    /// assert_eq!(VersionConstraint::minimum(ApiVersion::new(2, 1)).low(), ApiVersion::new(2, 1));
    /// ```
    pub const fn low(&self) -> ApiVersion {
        match *self {
            Self::Exact(v) | Self::Minimum(v) | Self::Range(v, _) => v,
        }
    }

    /// The highest version the constraint accepts (`65535.65535` for a
    /// minimum).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConstraint};
    /// assert_eq!(VersionConstraint::major(2).high(), ApiVersion::new(2, 65535));
    /// assert_eq!(VersionConstraint::minimum(ApiVersion::V2).high(), ApiVersion::new(65535, 65535));
    /// assert_eq!(VersionConstraint::exact(ApiVersion::V1).high(), ApiVersion::V1);
    /// ```
    pub const fn high(&self) -> ApiVersion {
        match *self {
            Self::Exact(v) | Self::Range(_, v) => v,
            Self::Minimum(_) => ApiVersion::new(u16::MAX, u16::MAX),
        }
    }

    /// Whether `version` satisfies the constraint (spec: `matches(version)`).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConstraint};
    /// let c: VersionConstraint = "1.0..=2.0".parse()?;
    /// assert!(c.matches(ApiVersion::V1));
    /// assert!(c.matches(ApiVersion::new(1, 9)));
    /// assert!(c.matches(ApiVersion::V2));
    /// assert!(!c.matches(ApiVersion::new(2, 1)));
    /// # Ok::<(), problem_core::version::ConstraintParseError>(())
    /// ```
    pub const fn matches(&self, version: ApiVersion) -> bool {
        le(self.low(), version) && le(version, self.high())
    }

    /// Whether the constraint matches no version at all (an inverted range).
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConstraint};
    /// let inverted = VersionConstraint::range(ApiVersion::V3, ApiVersion::V2);
    /// assert!(inverted.is_empty());
    /// assert!(!inverted.matches(ApiVersion::V2));
    /// assert!(!VersionConstraint::range(ApiVersion::V2, ApiVersion::V2).is_empty());
    /// ```
    pub const fn is_empty(&self) -> bool {
        !le(self.low(), self.high())
    }

    /// Whether some version satisfies both constraints.
    ///
    /// ```
    /// use problem_core::version::VersionConstraint;
    /// let c = |s: &str| s.parse::<VersionConstraint>().unwrap();
    /// assert!(c("2.x").overlaps(&c("2.1")));
    /// assert!(!c("2.x").overlaps(&c("3.0")));
    /// assert!(c("2.1+").overlaps(&c("3.x")));
    /// ```
    pub const fn overlaps(&self, other: &VersionConstraint) -> bool {
        !self.is_empty()
            && !other.is_empty()
            && le(self.low(), other.high())
            && le(other.low(), self.high())
    }

    /// Whether any constraint of `a` overlaps any constraint of `b`; used by
    /// `versioned!` to reject overlapping handlers at compile time.
    ///
    /// ```
    /// use problem_core::version::{ApiVersion, VersionConstraint};
    /// const A: &[VersionConstraint] = &[VersionConstraint::exact(ApiVersion::V1), VersionConstraint::major(2)];
    /// const B: &[VersionConstraint] = &[VersionConstraint::minimum(ApiVersion::new(2, 5))];
    /// const C: &[VersionConstraint] = &[VersionConstraint::minimum(ApiVersion::V3)];
    /// const CLASH: bool = VersionConstraint::any_overlap(A, B);
    /// assert!(CLASH);
    /// assert!(!VersionConstraint::any_overlap(A, C));
    /// ```
    pub const fn any_overlap(a: &[VersionConstraint], b: &[VersionConstraint]) -> bool {
        let mut i = 0;
        while i < a.len() {
            let mut j = 0;
            while j < b.len() {
                if a[i].overlaps(&b[j]) {
                    return true;
                }
                j += 1;
            }
            i += 1;
        }
        false
    }
}

/// `a <= b` in a `const` context.
const fn le(a: ApiVersion, b: ApiVersion) -> bool {
    a.major < b.major || (a.major == b.major && a.minor <= b.minor)
}

impl fmt::Display for VersionConstraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Exact(v) => write!(f, "{v}"),
            Self::Minimum(v) => write!(f, "{v}+"),
            Self::Range(low, high)
                if low.minor == 0 && high.major == low.major && high.minor == u16::MAX =>
            {
                write!(f, "{}.x", low.major)
            }
            Self::Range(low, high) => write!(f, "{low}..={high}"),
        }
    }
}

/// A constraint string was rejected by [`VersionConstraint`]'s [`FromStr`].
///
/// ```
/// use problem_core::version::VersionConstraint;
/// assert_eq!(
///     "2.y".parse::<VersionConstraint>().unwrap_err().to_string(),
///     r#"malformed version constraint "2.y": expected a version (1.0), a major with any minor (2.x), a minimum (2.1+) or a range (1.0..=2.5)"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConstraintParseError {
    /// The text is none of the constraint forms.
    #[error(
        "malformed version constraint \"{0}\": expected a version (1.0), a major with any minor (2.x), a minimum (2.1+) or a range (1.0..=2.5)"
    )]
    Malformed(String),
    /// A version inside the constraint is out of range.
    #[error(transparent)]
    Version(#[from] VersionParseError),
}

impl FromStr for VersionConstraint {
    type Err = ConstraintParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let malformed = || ConstraintParseError::Malformed(clip(s));
        let version = |text: &str| -> Result<ApiVersion, ConstraintParseError> {
            match text.parse::<ApiVersion>() {
                Ok(v) => Ok(v),
                Err(VersionParseError::OutOfRange(_)) => {
                    Err(VersionParseError::OutOfRange(clip(s)).into())
                }
                Err(_) => Err(malformed()),
            }
        };
        if let Some((low, high)) = s.split_once("..=") {
            return Ok(Self::Range(version(low)?, version(high)?));
        }
        if let Some(min) = s.strip_suffix('+') {
            return Ok(Self::Minimum(version(min)?));
        }
        if let Some(major) = s.strip_suffix(".x").or_else(|| s.strip_suffix(".X")) {
            let v = version(major)?;
            if major.contains('.') {
                return Err(malformed());
            }
            return Ok(Self::major(v.major));
        }
        Ok(Self::Exact(version(s)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> VersionConstraint {
        s.parse().unwrap()
    }
    fn v(major: u16, minor: u16) -> ApiVersion {
        ApiVersion::new(major, minor)
    }

    #[test]
    fn parses_the_three_kinds() {
        assert_eq!(c("1.0"), VersionConstraint::Exact(v(1, 0)));
        assert_eq!(c("1"), VersionConstraint::Exact(v(1, 0)));
        assert_eq!(c("v2.1"), VersionConstraint::Exact(v(2, 1)));
        assert_eq!(c("2.x"), VersionConstraint::Range(v(2, 0), v(2, 65535)));
        assert_eq!(c("v2.X"), VersionConstraint::Range(v(2, 0), v(2, 65535)));
        assert_eq!(c("2.1+"), VersionConstraint::Minimum(v(2, 1)));
        assert_eq!(c("2+"), VersionConstraint::Minimum(v(2, 0)));
        assert_eq!(c("1.2..=2.5"), VersionConstraint::Range(v(1, 2), v(2, 5)));
    }

    #[test]
    fn rejects_malformed_constraints() {
        for bad in [
            "", "x", "2.1.x", "2.x+", "+", "1..=", "..=2", "2.y", "1.0 ", "2.1.3",
        ] {
            assert_eq!(
                bad.parse::<VersionConstraint>(),
                Err(ConstraintParseError::Malformed(bad.into())),
                "{bad:?}"
            );
        }
        assert_eq!(
            "70000.x".parse::<VersionConstraint>(),
            Err(ConstraintParseError::Version(
                VersionParseError::OutOfRange("70000.x".into())
            ))
        );
    }

    #[test]
    fn display_round_trips() {
        for text in ["1.0", "2.1", "2.x", "2.1+", "1.2..=2.5", "0.0+"] {
            assert_eq!(c(text).to_string(), text);
            assert_eq!(c(&c(text).to_string()), c(text));
        }
    }

    #[test]
    fn range_ends_are_inclusive() {
        let r = VersionConstraint::range(v(2, 0), v(2, 99));
        assert!(r.matches(v(2, 0)));
        assert!(r.matches(v(2, 99)));
        assert!(!r.matches(v(1, 65535)));
        assert!(!r.matches(v(2, 100)));
        assert!(!r.matches(v(3, 0)));
    }

    #[test]
    fn major_wildcard_stops_before_the_next_major() {
        assert!(c("2.x").matches(v(2, 65535)));
        assert!(!c("2.x").matches(v(3, 0)));
        assert!(!c("2.x").matches(v(1, 9)));
        assert!(!c("2.x").overlaps(&c("3.0")));
        assert!(!c("2.x").overlaps(&c("3.x")));
    }

    #[test]
    fn minimum_and_exact() {
        assert!(c("2.1+").matches(v(2, 1)));
        assert!(!c("2.1+").matches(v(2, 0)));
        assert!(c("2.1+").matches(v(65535, 65535)));
        assert!(c("1.0").matches(v(1, 0)));
        assert!(!c("1.0").matches(v(1, 1)));
    }

    #[test]
    fn overlaps_and_empty_ranges() {
        assert!(c("1.0").overlaps(&c("1.0")));
        assert!(!c("1.0").overlaps(&c("1.1")));
        assert!(c("1.x").overlaps(&c("1.5+")));
        assert!(c("1.2..=2.5").overlaps(&c("2.5")));
        assert!(!c("1.2..=2.5").overlaps(&c("2.6+")));
        let inverted = VersionConstraint::range(v(3, 0), v(2, 0));
        assert!(inverted.is_empty());
        assert!(!inverted.matches(v(2, 5)));
        assert!(!inverted.overlaps(&c("2.x")));
        assert!(VersionConstraint::any_overlap(
            &[c("1.0"), c("2.x")],
            &[c("3.0"), c("2.4")]
        ));
        assert!(!VersionConstraint::any_overlap(
            &[c("1.0"), c("2.x")],
            &[c("3.x")]
        ));
    }
}
