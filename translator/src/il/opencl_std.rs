//! The `OpenCL.std` extended instruction set as the built-in library: each
//! instruction is the OpenCL C built-in of its name (the SPIR-V
//! environment spec names them after it), with the exceptions below as
//! data. The checker's overload resolution then picks the overload, so the
//! lowering sees the same call an OpenCL C source makes.

use rspirv::spirv::OpenclStd100Op;

/// How an instruction's operands and name become a built-in call.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum StdCall {
    /// `name(args...)`; with `signed`, integer operands are taken as signed
    /// (the `s_` instructions, and the `int` operands of the float
    /// functions that have them).
    Builtin {
        name: String,
        signed: Signedness,
    },
    /// `vloadn`, `vload_halfn`, `vloada_halfn`: `(offset, pointer, n)`,
    /// the name completed by `n`.
    VectorLoad {
        name: &'static str,
    },
    /// `vstoren`, `vstore_halfn`, `vstorea_halfn` and the `_r` forms:
    /// `(data, offset, pointer[, mode])`, named by the data's width and
    /// the rounding mode.
    VectorStore {
        name: &'static str,
        rounding: bool,
    },
    Printf,
}

/// Which integer operands a call takes as signed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Signedness {
    /// As they are (unsigned, or bits whose sign does not matter).
    Keep,
    /// Every integer operand and the pointee of every integer pointer.
    Signed,
    /// Only the first (`upsample(char hi, uchar lo)`).
    FirstSigned,
}

/// Instructions whose built-in has another name.
const RENAMED: &[(&str, &str)] = &[
    ("fmax_common", "fmax"),
    ("fmin_common", "fmin"),
    ("fclamp", "clamp"),
];

/// Float functions with `int` operands (`ldexp(x, int k)`) or `int *`
/// results (`frexp(x, int *e)`).
const SIGNED_INT_OPERANDS: &[&str] = &["ldexp", "pown", "rootn", "frexp", "lgamma_r", "remquo"];

/// The call that `OpenCL.std` instruction `number` makes, `None` for a
/// number the set does not define.
pub(super) fn std_call(number: u32) -> Option<StdCall> {
    let op = OpenclStd100Op::from_u32(number)?;
    let name = format!("{op:?}");
    Some(match name.as_str() {
        "printf" => StdCall::Printf,
        "vloadn" => StdCall::VectorLoad { name: "vload" },
        "vload_halfn" => StdCall::VectorLoad { name: "vload_half" },
        "vloada_halfn" => StdCall::VectorLoad {
            name: "vloada_half",
        },
        "vstoren" => StdCall::VectorStore {
            name: "vstore",
            rounding: false,
        },
        "vstore_half" | "vstore_halfn" => StdCall::VectorStore {
            name: "vstore_half",
            rounding: false,
        },
        "vstore_half_r" | "vstore_halfn_r" => StdCall::VectorStore {
            name: "vstore_half",
            rounding: true,
        },
        "vstorea_halfn" => StdCall::VectorStore {
            name: "vstorea_half",
            rounding: false,
        },
        "vstorea_halfn_r" => StdCall::VectorStore {
            name: "vstorea_half",
            rounding: true,
        },
        "s_upsample" => StdCall::Builtin {
            name: "upsample".to_owned(),
            signed: Signedness::FirstSigned,
        },
        _ => {
            if let Some(rest) = name.strip_prefix("s_") {
                StdCall::Builtin {
                    name: rest.to_owned(),
                    signed: Signedness::Signed,
                }
            } else if let Some(rest) = name.strip_prefix("u_") {
                StdCall::Builtin {
                    name: rest.to_owned(),
                    signed: Signedness::Keep,
                }
            } else {
                let renamed = RENAMED.iter().find(|(from, _)| *from == name);
                let signed = if SIGNED_INT_OPERANDS.contains(&name.as_str()) {
                    Signedness::Signed
                } else {
                    Signedness::Keep
                };
                StdCall::Builtin {
                    name: renamed.map_or(name.clone(), |(_, to)| (*to).to_owned()),
                    signed,
                }
            }
        }
    })
}

/// `vstore_half_r`'s rounding-mode operand (SPIR-V `FPRoundingMode`) as
/// the built-in's suffix.
pub(super) fn rounding_suffix(mode: u32) -> Option<&'static str> {
    Some(match mode {
        0 => "_rte",
        1 => "_rtz",
        2 => "_rtp",
        3 => "_rtn",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_table() {
        let call = |n| std_call(n).unwrap();
        assert_eq!(
            call(61),
            StdCall::Builtin {
                name: "sqrt".into(),
                signed: Signedness::Keep
            }
        );
        assert_eq!(
            call(141),
            StdCall::Builtin {
                name: "abs".into(),
                signed: Signedness::Signed
            }
        );
        assert_eq!(
            call(201),
            StdCall::Builtin {
                name: "abs".into(),
                signed: Signedness::Keep
            }
        );
        assert_eq!(
            call(97),
            StdCall::Builtin {
                name: "fmax".into(),
                signed: Signedness::Keep
            }
        );
        assert_eq!(call(184), StdCall::Printf);
        assert_eq!(std_call(120), None);
    }
}
