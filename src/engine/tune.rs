//! The tuning build (`--features tune`): every tunable search parameter is also a UCI spin
//! option of its own name, so SPSA games can move it. A normal build has none of this.

use super::options::OptionKind;
use crate::search::params::{TUNABLES, set_tunable};
use crate::stdio::send;

/// Announces each tunable parameter as `option name N type spin ...` for `uci`.
pub fn announce() {
    for t in TUNABLES {
        let kind = OptionKind::Spin { default: t.default.into(), min: t.min.into(), max: t.max.into() };
        send(&format!("option name {} type {kind}", t.name));
    }
}

/// Sets the tunable called `name` (any case) from `value`: `None` when there is no such
/// parameter, otherwise whether the value was taken or why not.
pub fn set(name: &str, value: Option<&str>) -> Option<Result<(), String>> {
    let t = TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))?;
    let parsed = value.and_then(|v| v.parse::<i32>().ok());
    Some(match parsed {
        Some(n) if (t.min..=t.max).contains(&n) => {
            set_tunable(t, n);
            Ok(())
        }
        _ => Err(format!(
            "option '{}' needs a number in {}..{}, not '{}'",
            t.name,
            t.min,
            t.max,
            value.unwrap_or("")
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::set;
    use crate::search::params::rfp_margin;

    // Only the default is set: other tests search in parallel with these parameters.
    #[test]
    fn a_tunable_is_set_by_name_within_its_range() {
        assert_eq!(set("no_such_parameter", Some("1")), None);
        assert!(set("RFP_MARGIN", Some("1000")).expect("a tunable").is_err());
        assert!(set("rfp_margin", Some("x")).expect("a tunable").is_err());
        assert_eq!(set("RFP_Margin", Some("80")), Some(Ok(())));
        assert_eq!(rfp_margin(), 80);
    }
}
