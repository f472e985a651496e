//! `convert_<type>[_sat][_rte|_rtz|_rtp|_rtn]` for every pair of scalar
//! types (OpenCL C 6.4.3), as scalars and as one vector width per pair
//! (rotating over 2, 3, 4, 8 and 16), through the ICD, against a host
//! reference.
//!
//! Sources: every value of the 8- and 16-bit integer types; 8,192 random
//! values with the edges mixed in for 32- and 64-bit integers; for `float`
//! and `double`, halves and near-halves around every integer range's
//! limits, ties, infinities, NaN, signed zeros, subnormals and random bit
//! patterns. Out-of-range and NaN conversions without `_sat` are undefined
//! and not checked; with `_sat` they clamp, and NaN gives 0. The device
//! does not report `CL_FP_DENORM` for `float`, so a `float` subnormal may
//! act as (or round to) a zero of its sign.

mod common;

use common::sweep::{self, next_down, next_up, Kind, Ty, Value, DOUBLE, FLOAT, INTEGERS};

const ROUNDINGS: [&str; 5] = ["", "_rte", "_rtz", "_rtp", "_rtn"];

fn source_values(ty: Ty, random: &mut sweep::Random) -> Vec<Value> {
    match ty.kind {
        Kind::Float => sweep::float_values(ty, random),
        _ if ty.bytes <= 2 => (ty.min()..=ty.max()).map(Value::Int).collect(),
        _ => {
            let edges = sweep::integer_edges(ty);
            let mut values: Vec<Value> = edges.iter().map(|&v| Value::Int(v)).collect();
            // Integers just around float and double precision limits.
            for shift in [24, 25, 31, 32, 53, 54, 62, 63] {
                for delta in [-3i128, -1, 0, 1, 3] {
                    values.push(Value::Int(ty.wrap((1i128 << shift) + delta)));
                }
            }
            while values.len() < 8192 {
                values.push(Value::Int(random.int(ty)));
            }
            values
        }
    }
}

/// `v` (exact) rounded to the float type `ty` in `rounding` (default: to
/// nearest even).
fn round_to_float(
    ty: Ty,
    v: f64,
    exact: impl Fn(f64) -> std::cmp::Ordering,
    rounding: &str,
) -> f64 {
    use std::cmp::Ordering::{Greater, Less};
    let mut r = if ty == FLOAT { f64::from(v as f32) } else { v };
    if r.is_nan() {
        return r;
    }
    let negative = exact(0.0) == Less;
    // `exact(r)`: how the exact value compares with `r`.
    let toward = match (rounding, exact(r)) {
        ("_rtp", Greater) => Some(true),
        ("_rtn", Less) => Some(false),
        ("_rtz", Less) if !negative => Some(false),
        ("_rtz", Greater) if negative => Some(true),
        _ => None,
    };
    match toward {
        Some(true) => r = next_up(ty, r),
        Some(false) => r = next_down(ty, r),
        None => {}
    }
    r
}

/// What `convert_<to><modifiers>` gives for `v`: the acceptable results
/// (several where a `float` subnormal may be flushed), or none where the
/// result is undefined.
fn reference(from: Ty, to: Ty, v: Value, saturate: bool, rounding: &str) -> Vec<Value> {
    match (from.kind == Kind::Float, to.kind == Kind::Float) {
        (false, false) => {
            let x = v.int();
            vec![Value::Int(if saturate {
                to.saturate(x)
            } else {
                to.wrap(x)
            })]
        }
        (false, true) => {
            let x = v.int();
            let approx = if to == FLOAT {
                f64::from(x as f32)
            } else {
                x as f64
            };
            let compare = |r: f64| x.cmp(&(r as i128));
            vec![Value::Float(round_to_float(to, approx, compare, rounding))]
        }
        (true, false) => {
            let x = v.float();
            let mut inputs = vec![x];
            if from == FLOAT && x != 0.0 && x.abs() < f64::from(f32::MIN_POSITIVE) {
                inputs.push(0.0);
            }
            inputs
                .into_iter()
                .filter_map(|x| {
                    if x.is_nan() {
                        return saturate.then_some(Value::Int(0));
                    }
                    let r = match rounding {
                        "_rte" => x.round_ties_even(),
                        "_rtp" => x.ceil(),
                        "_rtn" => x.floor(),
                        _ => x.trunc(),
                    };
                    // Compared as integers: `to.max() as f64` may round up.
                    let in_range = r.is_finite() && (to.min()..=to.max()).contains(&(r as i128));
                    if saturate {
                        Some(Value::Int(to.saturate(r as i128)))
                    } else {
                        in_range.then_some(Value::Int(r as i128))
                    }
                })
                .collect()
        }
        (true, true) => {
            let x = v.float();
            let mut inputs = vec![x];
            if from == FLOAT && x != 0.0 && x.abs() < f64::from(f32::MIN_POSITIVE) {
                inputs.push(0.0f64.copysign(x));
            }
            let mut results = Vec::new();
            for x in inputs {
                let compare = |r: f64| x.partial_cmp(&r).unwrap_or(std::cmp::Ordering::Equal);
                let r = round_to_float(to, x, compare, rounding);
                results.push(Value::Float(r));
                if to == FLOAT && r != 0.0 && r.abs() < f64::from(f32::MIN_POSITIVE) {
                    results.push(Value::Float(0.0f64.copysign(r)));
                }
            }
            results
        }
    }
}

fn same(a: Value, b: Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => {
            (x.is_nan() && y.is_nan()) || (x == y && x.is_sign_negative() == y.is_sign_negative())
        }
        _ => a == b,
    }
}

#[test]
fn conversions_between_every_pair_of_types() {
    let (context, queue) = common::context_and_queue();
    let types: Vec<Ty> = INTEGERS.into_iter().chain([FLOAT, DOUBLE]).collect();
    let widths = [2, 3, 4, 8, 16];
    let mut random = sweep::Random::new(0x2545_f491_4f6c_dd1d);
    let mut checked = 0usize;
    let mut failures = std::collections::BTreeMap::new();
    let mut combination = 0;
    for &from in &types {
        let values = source_values(from, &mut random);
        for &to in &types {
            let saturations: &[bool] = if to.kind == Kind::Float {
                &[false]
            } else {
                &[false, true]
            };
            // Rounding modes only matter where a float is involved.
            let roundings: &[&str] = if from.kind == Kind::Float || to.kind == Kind::Float {
                &ROUNDINGS
            } else {
                &[""]
            };
            for &saturate in saturations {
                for rounding in roundings {
                    combination += 1;
                    let modifiers = format!("{}{rounding}", if saturate { "_sat" } else { "" });
                    for width in [1, widths[combination % widths.len()]] {
                        let call = format!("convert_{}{modifiers}({{0}})", to.vector(width));
                        let source = sweep::kernel_source(&[from], to, width, &call);
                        let got =
                            sweep::run(&context, &queue, &source, &[(from, &values)], to, width);
                        for (&v, &got) in values.iter().zip(&got) {
                            let accepted = reference(from, to, v, saturate, rounding);
                            if accepted.is_empty() {
                                continue;
                            }
                            checked += 1;
                            if !accepted.iter().any(|&a| same(a, got)) {
                                let key = format!(
                                    "convert_{}{modifiers}({})",
                                    to.vector(width),
                                    from.vector(width)
                                );
                                let entry = failures.entry(key).or_insert_with(|| {
                                    (0, format!("{v:?}: got {got:?}, expected {accepted:?}"))
                                });
                                entry.0 += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    let report: Vec<String> = failures
        .iter()
        .map(|(key, (count, first))| format!("{key}: {count} wrong, first {first}"))
        .collect();
    assert!(report.is_empty(), "{}", report.join("\n"));
    println!("{checked} conversions checked");
}
