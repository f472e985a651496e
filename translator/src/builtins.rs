//! The built-in functions the translator knows, as a declarative table of
//! names and signature shapes, and overload resolution against it.
//!
//! This is the slice that foundation kernels need (work-item functions and
//! exact math); the full library at OpenCL precision is built on this table.

use crate::types::{Scalar, Type};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    GlobalId,
    LocalId,
    GroupId,
    GlobalSize,
    LocalSize,
    NumGroups,
    GlobalOffset,
    WorkDim,
    Min,
    Max,
    Fabs,
    Floor,
    Ceil,
    Trunc,
    Sqrt,
    Mad,
    Fma,
}

/// How a built-in's parameters and result relate to its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// `size_t f(uint dimindx)`
    WorkItemQuery,
    /// `uint get_work_dim(void)`
    WorkDim,
    /// `gentype f(gentype)` for floating gentypes.
    FloatUnary,
    /// `gentype f(gentype, gentype, gentype)` for floating gentypes.
    FloatTernary,
    /// `gentype f(gentype, gentype)` and `gentype f(gentype, sgentype)` for
    /// any arithmetic gentype (`min`, `max`).
    AnyBinary,
}

const TABLE: &[(&str, Builtin, Shape)] = &[
    ("get_global_id", Builtin::GlobalId, Shape::WorkItemQuery),
    ("get_local_id", Builtin::LocalId, Shape::WorkItemQuery),
    ("get_group_id", Builtin::GroupId, Shape::WorkItemQuery),
    ("get_global_size", Builtin::GlobalSize, Shape::WorkItemQuery),
    ("get_local_size", Builtin::LocalSize, Shape::WorkItemQuery),
    ("get_num_groups", Builtin::NumGroups, Shape::WorkItemQuery),
    (
        "get_global_offset",
        Builtin::GlobalOffset,
        Shape::WorkItemQuery,
    ),
    ("get_work_dim", Builtin::WorkDim, Shape::WorkDim),
    ("min", Builtin::Min, Shape::AnyBinary),
    ("max", Builtin::Max, Shape::AnyBinary),
    ("fmin", Builtin::Min, Shape::AnyBinary),
    ("fmax", Builtin::Max, Shape::AnyBinary),
    ("fabs", Builtin::Fabs, Shape::FloatUnary),
    ("floor", Builtin::Floor, Shape::FloatUnary),
    ("ceil", Builtin::Ceil, Shape::FloatUnary),
    ("trunc", Builtin::Trunc, Shape::FloatUnary),
    ("sqrt", Builtin::Sqrt, Shape::FloatUnary),
    ("mad", Builtin::Mad, Shape::FloatTernary),
    ("fma", Builtin::Fma, Shape::FloatTernary),
];

pub fn is_builtin_function(name: &str) -> bool {
    TABLE.iter().any(|(n, _, _)| *n == name)
}

/// A resolved call: the built-in, the types to convert each argument to,
/// and the result type.
#[derive(Debug, PartialEq)]
pub struct Resolved {
    pub builtin: Builtin,
    pub params: Vec<Type>,
    pub result: Type,
}

/// Picks the overload of `name` for arguments of types `args`;
/// `size_type` is `size_t` on the device. `Err` says why none fits.
pub fn resolve(name: &str, args: &[Type], size_type: Scalar) -> Result<Resolved, String> {
    let Some(&(_, builtin, shape)) = TABLE.iter().find(|(n, _, _)| *n == name) else {
        return Err(format!("use of undeclared identifier '{name}'"));
    };
    let arity = match shape {
        Shape::WorkDim => 0,
        Shape::WorkItemQuery | Shape::FloatUnary => 1,
        Shape::AnyBinary => 2,
        Shape::FloatTernary => 3,
    };
    if args.len() != arity {
        return Err(format!(
            "too {} arguments to function call '{name}', expected {arity}, have {}",
            if args.len() > arity { "many" } else { "few" },
            args.len()
        ));
    }
    let no_match = || {
        let list: Vec<String> = args.iter().map(Type::display).collect();
        format!(
            "no matching function for call to '{name}({})'",
            list.join(", ")
        )
    };
    match shape {
        Shape::WorkDim => Ok(Resolved {
            builtin,
            params: vec![],
            result: Type::UINT,
        }),
        Shape::WorkItemQuery => {
            if !matches!(args[0], Type::Scalar(s) if s.is_integer()) {
                return Err(no_match());
            }
            Ok(Resolved {
                builtin,
                params: vec![Type::UINT],
                result: Type::Scalar(size_type),
            })
        }
        Shape::FloatUnary | Shape::FloatTernary => {
            // The gentype is the widest float argument type (vectors win).
            let gentype = float_gentype(args).ok_or_else(no_match)?;
            Ok(Resolved {
                builtin,
                params: vec![gentype.clone(); arity],
                result: gentype,
            })
        }
        Shape::AnyBinary => {
            let (a, b) = (&args[0], &args[1]);
            let gentype = match (a, b) {
                (Type::Vector(..), _) => a.clone(),
                (_, Type::Vector(..)) => b.clone(),
                (Type::Scalar(x), Type::Scalar(y)) => Type::Scalar(common_scalar(*x, *y)),
                _ => return Err(no_match()),
            };
            if let (Type::Vector(x, n), Type::Vector(y, m)) = (a, b) {
                if x != y || n != m {
                    return Err(no_match());
                }
            }
            if builtin != Builtin::Min && builtin != Builtin::Max {
                return Err(no_match());
            }
            let is_fmin = name.starts_with('f');
            if is_fmin && !gentype.element().is_some_and(Scalar::is_float) {
                return Err(no_match());
            }
            Ok(Resolved {
                builtin,
                params: vec![gentype.clone(); 2],
                result: gentype,
            })
        }
    }
}

fn float_gentype(args: &[Type]) -> Option<Type> {
    let mut best: Option<Type> = None;
    for a in args {
        let elem = a.element()?;
        let candidate = match a {
            Type::Vector(..) if elem.is_float() => a.clone(),
            Type::Vector(..) => return None,
            _ => Type::Scalar(if elem.is_float() { elem } else { Scalar::Float }),
        };
        best = Some(match best {
            None => candidate,
            Some(b @ Type::Vector(..)) => b,
            Some(_) if matches!(candidate, Type::Vector(..)) => candidate,
            Some(Type::Scalar(s)) => {
                let c = candidate.scalar()?;
                Type::Scalar(if c.rank() > s.rank() { c } else { s })
            }
            Some(b) => b,
        });
    }
    best
}

/// The usual arithmetic conversions for two scalars (C99 6.3.1.8), after
/// integer promotion.
pub fn common_scalar(a: Scalar, b: Scalar) -> Scalar {
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    if a.is_float() || b.is_float() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    if a.is_signed() == b.is_signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (signed, unsigned) = if a.is_signed() { (a, b) } else { (b, a) };
    if unsigned.rank() >= signed.rank() {
        unsigned
    } else if signed.size() > unsigned.size() {
        signed
    } else {
        signed.to_unsigned()
    }
}

/// Integer promotion: everything below `int` becomes `int`.
pub fn promote(s: Scalar) -> Scalar {
    if s.is_integer() && s.rank() < Scalar::Int.rank() {
        Scalar::Int
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_arithmetic_conversions() {
        use Scalar::*;
        assert_eq!(common_scalar(Char, UShort), Int);
        assert_eq!(common_scalar(Int, UInt), UInt);
        assert_eq!(common_scalar(Long, UInt), Long);
        assert_eq!(common_scalar(Long, ULong), ULong);
        assert_eq!(common_scalar(Int, Float), Float);
        assert_eq!(common_scalar(Double, Float), Double);
    }

    #[test]
    fn resolves_overloads() {
        let r = resolve("get_global_id", &[Type::INT], Scalar::ULong).unwrap();
        assert_eq!(r.result, Type::Scalar(Scalar::ULong));
        let r = resolve("sqrt", &[Type::INT], Scalar::ULong).unwrap();
        assert_eq!(r.result, Type::FLOAT);
        let r = resolve(
            "min",
            &[Type::Vector(Scalar::Float, 4), Type::FLOAT],
            Scalar::ULong,
        )
        .unwrap();
        assert_eq!(r.params[1], Type::Vector(Scalar::Float, 4));
        assert!(resolve("fmin", &[Type::INT, Type::INT], Scalar::ULong).is_err());
        assert!(resolve("get_work_dim", &[Type::INT], Scalar::ULong).is_err());
    }
}
