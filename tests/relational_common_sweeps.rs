//! The relational functions (OpenCL C 6.15.6) and the common functions
//! (6.15.4) on `float` and `double`, scalar and a rotating vector width,
//! through the ICD, against host references: 8,192 values per type
//! (`sweep::float_values`: zeros, infinities, NaN, subnormals, limits,
//! halves, random magnitudes and bit patterns) paired with shuffled,
//! equal and neighbouring values. `any`/`all` run on every signed integer
//! vector type, exhaustively on two 8-bit lanes.
//!
//! The device does not report `CL_FP_DENORM` for `float`, so a `float`
//! subnormal operand may act as a zero of its sign.

mod common;

use common::sweep::{self, Kind, Ty, Value, CHAR, DOUBLE, FLOAT, INT, LONG, SHORT};
use std::f64::consts::PI;

/// How a result is judged.
#[derive(Clone, Copy)]
enum Check {
    /// Bit for bit (NaN matches any NaN).
    Exact,
    /// Within this many ulp of the correctly rounded result.
    Ulp(f64),
    /// Within this absolute error (implementation-defined accuracy).
    Absolute(f64),
}

struct Function {
    name: &'static str,
    arity: usize,
    /// A relational test: `int`/`long` results, 1/0 for scalars and -1/0
    /// for vector lanes. Otherwise a float result.
    relational: bool,
    check: Check,
    /// The exact value (as f64), or `None` where undefined.
    reference: fn(Ty, &[f64]) -> Option<f64>,
}

fn truth(b: bool) -> Option<f64> {
    Some(if b { 1.0 } else { 0.0 })
}

/// `max`/`min` are undefined for NaN operands, and for zeros of both signs
/// either is "the larger".
fn min_max_defined(x: f64, y: f64) -> bool {
    let both_zero = x == 0.0 && y == 0.0;
    !(x.is_nan() || y.is_nan() || both_zero)
}

fn is_normal(ty: Ty, x: f64) -> bool {
    let min = if ty == FLOAT {
        f64::from(f32::MIN_POSITIVE)
    } else {
        f64::MIN_POSITIVE
    };
    x.is_finite() && x.abs() >= min
}

const FUNCTIONS: &[Function] = &[
    Function {
        name: "isfinite",
        arity: 1,
        relational: true,
        check: Check::Exact,
        reference: |_, v| truth(v[0].is_finite()),
    },
    Function {
        name: "isinf",
        arity: 1,
        relational: true,
        check: Check::Exact,
        reference: |_, v| truth(v[0].is_infinite()),
    },
    Function {
        name: "isnan",
        arity: 1,
        relational: true,
        check: Check::Exact,
        reference: |_, v| truth(v[0].is_nan()),
    },
    Function {
        name: "isnormal",
        arity: 1,
        relational: true,
        check: Check::Exact,
        reference: |t, v| truth(is_normal(t, v[0])),
    },
    Function {
        name: "signbit",
        arity: 1,
        relational: true,
        check: Check::Exact,
        reference: |_, v| truth(v[0].is_sign_negative()),
    },
    Function {
        name: "isequal",
        arity: 2,
        relational: true,
        check: Check::Exact,
        reference: |_, v| truth(v[0] == v[1]),
    },
    Function {
        name: "isnotequal",
        arity: 2,
        relational: true,
        check: Check::Exact,
        reference: |_, v| truth(v[0] != v[1]),
    },
    Function {
        name: "isgreater",
        arity: 2,
        relational: true,
        check: Check::Exact,
        reference: |_, v| truth(v[0] > v[1]),
    },
    Function {
        name: "isgreaterequal",
        arity: 2,
        relational: true,
        check: Check::Exact,
        reference: |_, v| truth(v[0] >= v[1]),
    },
    Function {
        name: "isless",
        arity: 2,
        relational: true,
        check: Check::Exact,
        reference: |_, v| truth(v[0] < v[1]),
    },
    Function {
        name: "islessequal",
        arity: 2,
        relational: true,
        check: Check::Exact,
        reference: |_, v| truth(v[0] <= v[1]),
    },
    Function {
        name: "islessgreater",
        arity: 2,
        relational: true,
        check: Check::Exact,
        // Ordered and different: false for NaN, unlike `!=`.
        reference: |_, v| truth(v[0].partial_cmp(&v[1]).is_some_and(|o| o.is_ne())),
    },
    Function {
        name: "isordered",
        arity: 2,
        relational: true,
        check: Check::Exact,
        reference: |_, v| truth(!v[0].is_nan() && !v[1].is_nan()),
    },
    Function {
        name: "isunordered",
        arity: 2,
        relational: true,
        check: Check::Exact,
        reference: |_, v| truth(v[0].is_nan() || v[1].is_nan()),
    },
    Function {
        name: "max",
        arity: 2,
        relational: false,
        check: Check::Exact,
        reference: |_, v| {
            let defined = min_max_defined(v[0], v[1]);
            defined.then(|| v[0].max(v[1]))
        },
    },
    Function {
        name: "min",
        arity: 2,
        relational: false,
        check: Check::Exact,
        reference: |_, v| {
            let defined = min_max_defined(v[0], v[1]);
            defined.then(|| v[0].min(v[1]))
        },
    },
    Function {
        name: "clamp",
        arity: 3,
        relational: false,
        check: Check::Exact,
        // fmin(fmax(x, lo), hi); undefined when lo > hi. Zeros of both
        // signs compare equal, so either may come back.
        reference: |_, v| {
            let (x, lo, hi) = (v[0], v[1], v[2]);
            let defined = !lo.is_nan() && !hi.is_nan() && lo <= hi && x != 0.0;
            defined.then(|| x.max(lo).min(hi))
        },
    },
    Function {
        name: "step",
        arity: 2,
        relational: false,
        check: Check::Exact,
        reference: |_, v| Some(if v[1] < v[0] { 0.0 } else { 1.0 }),
    },
    Function {
        name: "sign",
        arity: 1,
        relational: false,
        check: Check::Exact,
        reference: |_, v| {
            let x = v[0];
            Some(if x.is_nan() {
                0.0
            } else if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                x
            })
        },
    },
    Function {
        name: "degrees",
        arity: 1,
        relational: false,
        check: Check::Ulp(2.0),
        reference: |_, v| Some(v[0] * (180.0 / PI)),
    },
    Function {
        name: "radians",
        arity: 1,
        relational: false,
        check: Check::Ulp(2.0),
        reference: |_, v| Some(v[0] * (PI / 180.0)),
    },
    Function {
        name: "mix",
        arity: 3,
        relational: false,
        check: Check::Absolute(1e-5),
        // Defined for a in [0, 1]; the operands are brought to [-1, 1]
        // (see `prepare`) so an absolute bound means something.
        reference: |_, v| Some(v[0] + (v[1] - v[0]) * v[2]),
    },
    Function {
        name: "smoothstep",
        arity: 3,
        relational: false,
        check: Check::Absolute(1e-5),
        reference: |_, v| {
            let (e0, e1, x) = (v[0], v[1], v[2]);
            (e0 < e1).then(|| {
                let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
                t * t * (3.0 - 2.0 * t)
            })
        },
    },
];

/// Operands in [-1, 1] (and a in [0, 1]) for the interpolations, whose
/// accuracy is only defined there in practice.
fn prepare(name: &str, set: &mut [f64]) {
    if name == "mix" || name == "smoothstep" {
        for v in set.iter_mut() {
            *v = if v.is_finite() { (*v % 1.0).abs() } else { 0.5 };
        }
        if name == "mix" {
            set[0] = -set[0];
        }
    }
}

fn ulp(ty: Ty, x: f64) -> f64 {
    let (bits, min) = if ty == FLOAT {
        (24, f64::from(f32::MIN_POSITIVE))
    } else {
        (53, f64::MIN_POSITIVE)
    };
    let magnitude = x.abs().max(min);
    2f64.powi(magnitude.log2().floor() as i32 - (bits - 1))
}

/// Operand sets: each value against a shuffled partner, itself and its
/// neighbour, and for three operands a third shuffled column.
fn operand_columns(ty: Ty, arity: usize, random: &mut sweep::Random) -> Vec<Vec<f64>> {
    let values: Vec<f64> = sweep::float_values(ty, random)
        .into_iter()
        .map(Value::float)
        .collect();
    let n = values.len();
    let mut columns = vec![values.clone()];
    for k in 1..arity {
        let column = (0..n)
            .map(|i| match (i + k) % 8 {
                0 => values[i],
                1 => sweep::next_up(ty, values[i]),
                _ => values[(random.next() as usize) % n],
            })
            .collect();
        columns.push(column);
    }
    columns
}

/// The operands' possible meanings: as given, and with `float` subnormals
/// read as zeros.
fn readings(ty: Ty, set: &[f64]) -> Vec<Vec<f64>> {
    let flushed: Vec<f64> = set
        .iter()
        .map(|&x| {
            if ty == FLOAT && x != 0.0 && x.abs() < f64::from(f32::MIN_POSITIVE) {
                0.0f64.copysign(x)
            } else {
                x
            }
        })
        .collect();
    if flushed == set {
        vec![set.to_vec()]
    } else {
        vec![set.to_vec(), flushed]
    }
}

fn accepts(ty: Ty, check: Check, expected: f64, got: f64) -> bool {
    if expected.is_nan() || got.is_nan() {
        return expected.is_nan() && got.is_nan();
    }
    let flushed_result = ty == FLOAT && got == 0.0 && expected.abs() < f64::from(f32::MIN_POSITIVE);
    match check {
        Check::Exact => {
            let rounded = if ty == FLOAT {
                f64::from(expected as f32)
            } else {
                expected
            };
            (rounded == got && rounded.is_sign_negative() == got.is_sign_negative())
                || flushed_result
        }
        Check::Ulp(bound) => {
            // Beyond the type's range the correctly rounded result is an
            // infinity.
            let expected = if ty == FLOAT && (expected as f32).is_infinite() {
                f64::INFINITY.copysign(expected)
            } else {
                expected
            };
            if expected.is_infinite() || got.is_infinite() {
                return expected == got;
            }
            (got - expected).abs() <= bound * ulp(ty, expected) || flushed_result
        }
        Check::Absolute(bound) => (got - expected).abs() <= bound,
    }
}

#[test]
fn relational_and_common_functions_on_float_and_double() {
    let (context, queue) = common::context_and_queue();
    let widths = [2, 3, 4, 8, 16];
    let mut random = sweep::Random::new(0x6a09_e667_f3bc_c909);
    let mut checked = 0usize;
    let mut failures = std::collections::BTreeMap::new();
    for (fi, f) in FUNCTIONS.iter().enumerate() {
        for (ti, ty) in [FLOAT, DOUBLE].into_iter().enumerate() {
            let mut columns = operand_columns(ty, f.arity, &mut random);
            for i in 0..columns[0].len() {
                let mut set: Vec<f64> = columns.iter().map(|c| c[i]).collect();
                prepare(f.name, &mut set);
                for (column, v) in columns.iter_mut().zip(set) {
                    column[i] = v;
                }
            }
            let values: Vec<Vec<Value>> = columns
                .iter()
                .map(|c| c.iter().map(|&v| Value::Float(v)).collect())
                .collect();
            let operands: Vec<(Ty, &[Value])> = values.iter().map(|v| (ty, v.as_slice())).collect();
            let types = vec![ty; f.arity];
            for width in [1, widths[(fi + ti) % widths.len()]] {
                // Relational results: `int` for scalars; for vectors the
                // signed integer of the lane's width.
                let result = match (f.relational, width, ty) {
                    (false, ..) => ty,
                    (true, 1, _) | (true, _, FLOAT) => INT,
                    (true, ..) => LONG,
                };
                let args: Vec<String> = (0..f.arity).map(|i| format!("{{{i}}}")).collect();
                let call = format!("{}({})", f.name, args.join(", "));
                let source = sweep::kernel_source(&types, result, width, &call);
                let got = sweep::run(&context, &queue, &source, &operands, result, width);
                for (i, got) in got.into_iter().enumerate() {
                    let set: Vec<f64> = columns.iter().map(|c| c[i]).collect();
                    let expectations: Vec<f64> = readings(ty, &set)
                        .iter()
                        .filter_map(|s| (f.reference)(ty, s))
                        .collect();
                    if expectations.len() < readings(ty, &set).len() {
                        continue; // undefined in some reading
                    }
                    checked += 1;
                    let ok = match got {
                        Value::Int(g) => {
                            let t = if width == 1 { 1 } else { -1 };
                            expectations.iter().any(|&e| i128::from(e != 0.0) * t == g)
                        }
                        Value::Float(g) => expectations.iter().any(|&e| accepts(ty, f.check, e, g)),
                    };
                    if !ok {
                        let key = format!("{} on {}", f.name, ty.vector(width));
                        let entry = failures.entry(key).or_insert_with(|| {
                            (
                                0,
                                format!("{set:?}: got {got:?}, expected {expectations:?}"),
                            )
                        });
                        entry.0 += 1;
                    }
                }
            }
        }
    }
    checked += any_and_all(&context, &queue, &mut failures);
    let report: Vec<String> = failures
        .iter()
        .map(|(key, (count, first)): (&String, &(usize, String))| {
            format!("{key}: {count} wrong, first {first}")
        })
        .collect();
    assert!(report.is_empty(), "{}", report.join("\n"));
    println!("{checked} results checked");
}

/// `any` and `all` (the top bit of any/every lane) on every signed integer
/// vector type: two `char` lanes exhaustively, the rest on random lanes
/// with the top bits often set and often clear.
fn any_and_all(
    context: &opencl3::context::Context,
    queue: &opencl3::command_queue::CommandQueue,
    failures: &mut std::collections::BTreeMap<String, (usize, String)>,
) -> usize {
    let mut random = sweep::Random::new(0xbb67_ae85_84ca_a73b);
    let mut checked = 0;
    for ty in [CHAR, SHORT, INT, LONG] {
        assert_eq!(ty.kind, Kind::Signed);
        for width in [2, 3, 4, 8, 16] {
            let lanes: Vec<i128> = if ty == CHAR && width == 2 {
                (0..1 << 16).map(|v| ty.wrap(v)).collect()
            } else {
                (0..4096 * width)
                    .map(|i| {
                        // Mostly one sign per vector, so `all` is often true.
                        let v = ty.wrap(random.int(ty) & ty.max());
                        if (i / width) % 3 == 0 || random.next().is_multiple_of(16) {
                            v - ty.max() - 1
                        } else {
                            v
                        }
                    })
                    .collect()
            };
            let values: Vec<Value> = lanes.iter().map(|&v| Value::Int(v)).collect();
            for name in ["any", "all"] {
                let source = format!(
                    "__kernel void k(__global const {t} *a, __global int *r) {{\n    \
                     size_t i = get_global_id(0);\n    r[i] = {name}(vload{width}(i, a));\n}}\n",
                    t = ty.name
                );
                let count = lanes.len() / width;
                let got = sweep::run_vectors(context, queue, &source, (ty, &values), width, INT);
                for (i, got) in got.iter().enumerate().take(count) {
                    let vector = &lanes[i * width..(i + 1) * width];
                    let expected = if name == "any" {
                        vector.iter().any(|&v| v < 0)
                    } else {
                        vector.iter().all(|&v| v < 0)
                    };
                    checked += 1;
                    if got.int() != i128::from(expected) {
                        let key = format!("{name} on {}", ty.vector(width));
                        let entry = failures
                            .entry(key)
                            .or_insert_with(|| (0, format!("{vector:?}: got {}", got.int())));
                        entry.0 += 1;
                    }
                }
            }
        }
    }
    checked
}
