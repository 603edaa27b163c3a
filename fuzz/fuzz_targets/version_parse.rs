//! The API version parser (`ApiVersion: FromStr`) and version constraints.
//!
//! Properties: the parser accepts exactly the documented grammar
//! `[vV]?DIGITS(.DIGITS)?` with numbers up to 65535 (checked against an
//! independent reference), with the documented error kinds; an accepted
//! version's `Display` and short form parse back to it; `parse_const`
//! agrees with `FromStr`; echoed input is clipped; an accepted constraint's
//! `Display` parses back to it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use problem_core::version::{ApiVersion, VersionConstraint, VersionParseError};

/// Independent reference: `Err(true)` = malformed/empty, `Err(false)` = out of range.
fn reference(s: &str) -> Result<(u16, u16), bool> {
    let body = s.strip_prefix(['v', 'V']).unwrap_or(s);
    let mut parts = body.split('.');
    let major = parts.next().unwrap_or("");
    let minor = parts.next();
    if parts.next().is_some() {
        return Err(true);
    }
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(major) || minor.is_some_and(|m| !digits(m)) {
        return Err(true);
    }
    let num = |t: &str| -> Option<u16> {
        let t = t.trim_start_matches('0');
        if t.len() > 5 {
            None
        } else if t.is_empty() {
            Some(0)
        } else {
            t.parse::<u32>().ok().and_then(|n| u16::try_from(n).ok())
        }
    };
    match (num(major), minor.map(num)) {
        (Some(a), None) => Ok((a, 0)),
        (Some(a), Some(Some(b))) => Ok((a, b)),
        _ => Err(false),
    }
}

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let got = s.parse::<ApiVersion>();
    match (&got, reference(&s)) {
        (Ok(v), Ok((a, b))) => assert_eq!((v.major, v.minor), (a, b), "{s:?}"),
        (Err(VersionParseError::Empty), Err(true)) => assert!(s.is_empty(), "{s:?}"),
        (Err(VersionParseError::Malformed(echo)), Err(true)) => {
            assert!(!s.is_empty());
            assert!(echo.chars().count() <= 65, "echo not clipped: {echo:?}");
        }
        (Err(VersionParseError::OutOfRange(echo)), Err(false)) => {
            assert!(echo.chars().count() <= 65, "echo not clipped: {echo:?}");
        }
        (got, want) => panic!("{s:?}: parser {got:?}, reference {want:?}"),
    }
    assert_eq!(
        ApiVersion::parse_const(&s),
        got.clone().ok(),
        "parse_const disagrees on {s:?}"
    );
    if let Ok(v) = got {
        assert_eq!(v.to_string().parse::<ApiVersion>(), Ok(v));
        assert_eq!(v.short().to_string().parse::<ApiVersion>(), Ok(v));
        assert_eq!(format!("v{v}").parse::<ApiVersion>(), Ok(v));
        let _ = v.header_value();
    }
    if let Ok(c) = s.parse::<VersionConstraint>() {
        // Display and parse round-trip (documented on VersionConstraint).
        let text = c.to_string();
        assert_eq!(
            text.parse::<VersionConstraint>().ok(),
            Some(c),
            "{s:?} -> {text:?}"
        );
        if let VersionConstraint::Exact(v) = c {
            assert!(c.matches(v));
        }
        if let VersionConstraint::Minimum(v) = c {
            assert!(c.matches(v) && c.matches(ApiVersion::new(65535, 65535)));
        }
    }
});
