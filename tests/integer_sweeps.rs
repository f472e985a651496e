//! Every integer built-in of OpenCL C 6.15.3 (and the integer forms of
//! `bitselect` and `select`) on every integer type, scalar and vector,
//! through the ICD, against a host reference in 128-bit arithmetic.
//!
//! 8-bit types are swept exhaustively: every operand for one-operand
//! functions, every pair for two-operand ones, and every pair against 16
//! values (edges and random) of the third operand. 16-bit types: every
//! value of the first operand, against 16 values of each other operand.
//! 32- and 64-bit types: 32,768 random operand sets with the edge values
//! mixed in. Each function runs as scalars and as one vector width (the
//! widths rotate over the functions, so every width appears).

mod common;

use common::sweep::{self, Ty, Value, INT, INTEGERS, UINT};

/// One built-in: its operand and result types for an element type, and its
/// value (`None` where the spec leaves it undefined).
struct Function {
    name: &'static str,
    operands: fn(Ty) -> Vec<Ty>,
    result: fn(Ty) -> Ty,
    applies: fn(Ty) -> bool,
    /// Brings generated operands into the function's domain.
    prepare: fn(Ty, &mut [i128]),
    /// `(element type, vector width, operands)`.
    reference: fn(Ty, usize, &[i128]) -> Option<i128>,
}

fn same1(t: Ty) -> Vec<Ty> {
    vec![t]
}
fn same2(t: Ty) -> Vec<Ty> {
    vec![t; 2]
}
fn same3(t: Ty) -> Vec<Ty> {
    vec![t; 3]
}
fn same(t: Ty) -> Ty {
    t
}
fn any(_: Ty) -> bool {
    true
}
fn as_is(_: Ty, _: &mut [i128]) {}

/// The bits of `v` as an unsigned `t`.
fn pattern(t: Ty, v: i128) -> u128 {
    t.unsigned().wrap(v) as u128
}

fn mul_hi(t: Ty, a: i128, b: i128) -> i128 {
    if t.signed() {
        // An arithmetic shift of the exact product: its high half.
        t.wrap((a * b) >> t.bits())
    } else {
        // `ulong` products need all 128 bits.
        t.wrap(((a as u128 * b as u128) >> t.bits()) as i128)
    }
}

/// `a * b + c` saturated; only `ulong` products can leave `i128`, and
/// then upwards.
fn mad_sat(t: Ty, a: i128, b: i128, c: i128) -> i128 {
    a.checked_mul(b)
        .and_then(|p| p.checked_add(c))
        .map_or(t.max(), |s| t.saturate(s))
}

/// Operands of `mul24`/`mad24` must fit in 24 bits (signed for `int`).
fn twenty_four_bits(t: Ty, v: &mut [i128]) {
    for x in v.iter_mut().take(2) {
        let low = *x & 0xff_ffff;
        *x = if t.signed() && low >> 23 != 0 {
            low - (1 << 24)
        } else {
            low
        };
    }
}

const FUNCTIONS: &[Function] = &[
    Function {
        name: "abs",
        operands: same1,
        result: Ty::unsigned,
        applies: any,
        prepare: as_is,
        reference: |_, _, v| Some(v[0].abs()),
    },
    Function {
        name: "abs_diff",
        operands: same2,
        result: Ty::unsigned,
        applies: any,
        prepare: as_is,
        reference: |_, _, v| Some((v[0] - v[1]).abs()),
    },
    Function {
        name: "add_sat",
        operands: same2,
        result: same,
        applies: any,
        prepare: as_is,
        reference: |t, _, v| Some(t.saturate(v[0] + v[1])),
    },
    Function {
        name: "sub_sat",
        operands: same2,
        result: same,
        applies: any,
        prepare: as_is,
        reference: |t, _, v| Some(t.saturate(v[0] - v[1])),
    },
    Function {
        name: "hadd",
        operands: same2,
        result: same,
        applies: any,
        prepare: as_is,
        reference: |_, _, v| Some((v[0] + v[1]) >> 1),
    },
    Function {
        name: "rhadd",
        operands: same2,
        result: same,
        applies: any,
        prepare: as_is,
        reference: |_, _, v| Some((v[0] + v[1] + 1) >> 1),
    },
    Function {
        name: "clamp",
        operands: same3,
        result: same,
        applies: any,
        // Undefined when min > max: order the bounds.
        prepare: |_, v| {
            if v[1] > v[2] {
                v.swap(1, 2)
            }
        },
        reference: |_, _, v| Some(v[0].max(v[1]).min(v[2])),
    },
    Function {
        name: "clz",
        operands: same1,
        result: same,
        applies: any,
        prepare: as_is,
        reference: |t, _, v| {
            let p = pattern(t, v[0]);
            Some(i128::from(p.leading_zeros() - (128 - t.bits())))
        },
    },
    Function {
        name: "ctz",
        operands: same1,
        result: same,
        applies: any,
        prepare: as_is,
        reference: |t, _, v| Some(i128::from(pattern(t, v[0]).trailing_zeros().min(t.bits()))),
    },
    Function {
        name: "popcount",
        operands: same1,
        result: same,
        applies: any,
        prepare: as_is,
        reference: |t, _, v| Some(i128::from(pattern(t, v[0]).count_ones())),
    },
    Function {
        name: "mul_hi",
        operands: same2,
        result: same,
        applies: any,
        prepare: as_is,
        reference: |t, _, v| Some(mul_hi(t, v[0], v[1])),
    },
    Function {
        name: "mad_hi",
        operands: same3,
        result: same,
        applies: any,
        prepare: as_is,
        reference: |t, _, v| Some(t.wrap(mul_hi(t, v[0], v[1]) + v[2])),
    },
    Function {
        name: "mad_sat",
        operands: same3,
        result: same,
        applies: any,
        prepare: as_is,
        reference: |t, _, v| Some(mad_sat(t, v[0], v[1], v[2])),
    },
    Function {
        name: "rotate",
        operands: same2,
        result: same,
        applies: any,
        prepare: as_is,
        reference: |t, _, v| {
            let bits = t.bits();
            let n = (pattern(t, v[1]) % u128::from(bits)) as u32;
            let p = pattern(t, v[0]);
            let rotated = if n == 0 {
                p
            } else {
                (p << n | p >> (bits - n)) & ((1u128 << bits) - 1)
            };
            Some(t.wrap(rotated as i128))
        },
    },
    Function {
        name: "min",
        operands: same2,
        result: same,
        applies: any,
        prepare: as_is,
        reference: |_, _, v| Some(v[0].min(v[1])),
    },
    Function {
        name: "max",
        operands: same2,
        result: same,
        applies: any,
        prepare: as_is,
        reference: |_, _, v| Some(v[0].max(v[1])),
    },
    Function {
        name: "upsample",
        operands: |t| vec![t, t.unsigned()],
        result: Ty::widened,
        applies: |t| t.bytes < 8,
        prepare: as_is,
        reference: |t, _, v| Some(t.widened().wrap((v[0] << t.bits()) | v[1])),
    },
    Function {
        name: "mul24",
        operands: same2,
        result: same,
        applies: |t| t == INT || t == UINT,
        prepare: twenty_four_bits,
        reference: |t, _, v| Some(t.wrap(v[0] * v[1])),
    },
    Function {
        name: "mad24",
        operands: same3,
        result: same,
        applies: |t| t == INT || t == UINT,
        prepare: twenty_four_bits,
        reference: |t, _, v| Some(t.wrap(v[0] * v[1] + v[2])),
    },
    Function {
        name: "bitselect",
        operands: same3,
        result: same,
        applies: any,
        prepare: as_is,
        reference: |t, _, v| {
            let (a, b, c) = (pattern(t, v[0]), pattern(t, v[1]), pattern(t, v[2]));
            Some(t.wrap(((a & !c) | (b & c)) as i128))
        },
    },
    Function {
        name: "select",
        operands: same3,
        result: same,
        applies: any,
        prepare: as_is,
        // Scalars test the whole value, vector lanes the top bit.
        reference: |t, width, v| {
            let chosen = if width == 1 {
                v[2] != 0
            } else {
                pattern(t, v[2]) >> (t.bits() - 1) != 0
            };
            Some(if chosen { v[1] } else { v[0] })
        },
    },
];

/// 16 values of `ty` for the operands that are not swept whole: the edges,
/// then random ones.
fn sample(ty: Ty, random: &mut sweep::Random) -> Vec<i128> {
    let mut values = sweep::integer_edges(ty);
    values.truncate(16);
    while values.len() < 16 {
        values.push(random.int(ty));
    }
    values
}

/// Operand columns for `types` (see the module comment for the grids).
fn operand_grid(types: &[Ty], random: &mut sweep::Random) -> Vec<Vec<i128>> {
    let first = types[0];
    let mut columns = vec![Vec::new(); types.len()];
    if first.bytes >= 4 {
        let edges: Vec<Vec<i128>> = types.iter().map(|&t| sweep::integer_edges(t)).collect();
        for i in 0..1 << 15 {
            for (k, &t) in types.iter().enumerate() {
                // Every fifth set has an edge value in one operand.
                let v = if i % 5 == 1 + k {
                    edges[k][i / 5 % edges[k].len()]
                } else {
                    random.int(t)
                };
                columns[k].push(v);
            }
        }
        return columns;
    }
    let all = |t: Ty| (t.min()..=t.max()).collect::<Vec<_>>();
    // Values of the second operand: all for 8-bit types, 16 for 16-bit.
    let seconds = match types.get(1) {
        Some(&t) if t.bytes == 1 => all(t),
        Some(&t) => sample(t, random),
        None => vec![0],
    };
    let thirds = match types.get(2) {
        Some(&t) => sample(t, random),
        None => vec![0],
    };
    for (j, &z) in thirds.iter().enumerate() {
        for &y in &seconds {
            for x in all(first) {
                columns[0].push(x);
                if types.len() > 1 {
                    columns[1].push(y);
                }
                if types.len() > 2 {
                    // For 16-bit types the second and third operands pair
                    // up index by index; for 8-bit ones every pair meets
                    // every third.
                    let z = if first.bytes == 2 {
                        thirds[(j + columns[0].len()) % 16]
                    } else {
                        z
                    };
                    columns[2].push(z);
                }
            }
        }
        if types.len() < 3 || first.bytes == 2 {
            break;
        }
    }
    columns
}

#[test]
fn integer_builtins_on_every_type_and_width() {
    let (context, queue) = common::context_and_queue();
    let widths = [2, 3, 4, 8, 16];
    let mut random = sweep::Random::new(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0usize;
    let mut failures = std::collections::BTreeMap::new();
    for (fi, f) in FUNCTIONS.iter().enumerate() {
        for (ti, &ty) in INTEGERS.iter().enumerate() {
            if !(f.applies)(ty) {
                continue;
            }
            let types = (f.operands)(ty);
            let mut columns = operand_grid(&types, &mut random);
            for i in 0..columns[0].len() {
                let mut set: Vec<i128> = columns.iter().map(|c| c[i]).collect();
                (f.prepare)(ty, &mut set);
                for (column, v) in columns.iter_mut().zip(set) {
                    column[i] = v;
                }
            }
            let values: Vec<Vec<Value>> = columns
                .iter()
                .map(|c| c.iter().map(|&v| Value::Int(v)).collect())
                .collect();
            let operands: Vec<(Ty, &[Value])> = types
                .iter()
                .zip(&values)
                .map(|(&t, v)| (t, v.as_slice()))
                .collect();
            let result = (f.result)(ty);
            for width in [1, widths[(fi + ti) % widths.len()]] {
                let args: Vec<String> = (0..types.len()).map(|i| format!("{{{i}}}")).collect();
                let call = format!("{}({})", f.name, args.join(", "));
                let source = sweep::kernel_source(&types, result, width, &call);
                let got = sweep::run(&context, &queue, &source, &operands, result, width);
                for (i, got) in got.iter().enumerate() {
                    let set: Vec<i128> = columns.iter().map(|c| c[i]).collect();
                    let Some(expected) = (f.reference)(ty, width, &set) else {
                        continue;
                    };
                    checked += 1;
                    if got.int() != result.wrap(expected) {
                        let key = format!("{} on {}", f.name, ty.vector(width));
                        let entry = failures.entry(key).or_insert_with(|| {
                            (
                                0,
                                format!(
                                    "{set:?}: got {}, expected {}",
                                    got.int(),
                                    result.wrap(expected)
                                ),
                            )
                        });
                        entry.0 += 1;
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
    println!("{checked} results checked");
}
