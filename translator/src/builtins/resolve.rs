//! Overload resolution: the built-in a call names, the overload that fits
//! its arguments with the fewest conversions (or why none does, in clang's
//! words), and what each argument converts to and the call returns.

use super::signatures::*;
use super::table::overloads;
use super::{common_scalar, promote, Builtin, BuiltinContext, NOT_SUPPORTED};
use crate::hir::Names;
use crate::types::{storage_lanes, Opaque, Pointee, Scalar, Type, Types};

/// A resolved call: the built-in, the types to convert each argument to,
/// and the result type. A pointer parameter has exactly its argument's type.
#[derive(Debug, PartialEq)]
pub struct Resolved {
    pub builtin: Builtin,
    pub params: Vec<Type>,
    pub result: Type,
}

/// Picks the overload of the built-in `name` for arguments of types
/// `args`, whose compound parts are in `types` (results may add to it);
/// `names` spells record types in messages. `Err` says why none fits, in
/// clang's words where clang has them.
pub fn resolve(
    name: &str,
    args: &[Type],
    ctx: &BuiltinContext,
    types: &mut Types,
    names: &Names,
) -> Result<Resolved, String> {
    let Some(builtin) = Builtin::from_name(name) else {
        // An entry covers its name and the names it starts
        // (`atomic_load_explicit`); one ending in `_` is a prefix.
        let covered = |p: &&str| {
            name.strip_prefix(*p)
                .is_some_and(|rest| rest.is_empty() || p.ends_with('_') || rest.starts_with('_'))
        };
        if NOT_SUPPORTED.iter().any(covered) {
            return Err(format!(
                "built-in function '{name}' is not supported yet by this translator"
            ));
        }
        return Err(crate::diagnostic::undeclared(name));
    };
    let no_match = |types: &Types| {
        let list: Vec<String> = args.iter().map(|&a| types.display(a, names)).collect();
        format!(
            "no matching function for call to '{name}' with arguments ({})",
            list.join(", ")
        )
    };
    match builtin {
        Builtin::Convert(c) => {
            return convert(builtin, c.to, c.width, args, ctx, || no_match(types))
        }
        Builtin::As(s, n) => return convert(builtin, s, n, args, ctx, || no_match(types)),
        Builtin::Image(b) => return super::images::resolve(b, args, ctx, || no_match(types)),
        _ => {}
    }
    let (since, sigs) = overloads(builtin);
    if let Some(extension) = builtin.sub_group_extension() {
        if !ctx.subgroups.khr_subgroups() {
            return Err(format!(
                "use of undeclared identifier '{name}' (the device has no {extension})"
            ));
        }
    }
    if ctx.cl_std < since {
        return Err(format!(
            "use of undeclared identifier '{name}' (it needs OpenCL C {}.{} or newer)",
            since.0, since.1
        ));
    }
    if !sigs.iter().any(|s| s.params.len() == args.len()) {
        let fewest = sigs.iter().map(|s| s.params.len()).min().unwrap_or(0);
        let most = sigs.iter().map(|s| s.params.len()).max().unwrap_or(0);
        let (which, expected) = if args.len() > most {
            ("many", most)
        } else if args.len() < fewest {
            ("few", fewest)
        } else {
            return Err(no_match(types));
        };
        return Err(format!(
            "too {which} arguments to function call '{name}', expected {expected}, have {}",
            args.len()
        ));
    }
    // The overload needing the fewest conversions wins; on a tie, the first
    // in the table (the spec's `gentype` form before its `sgentype` form,
    // which convert the arguments the same way).
    // Only where no overload fits exactly, the output pointer of the math
    // functions that write one (`fract`, `frexp`, `modf`, `sincos`,
    // `remquo`, `lgamma_r`) may point to another type: it converts as
    // clang converts it, with its warning at the argument
    // (`fract(v2, (global float *)p)`: incompatible pointer types).
    let output_pointer = matches!(
        builtin,
        Builtin::Fract
            | Builtin::Frexp
            | Builtin::Modf
            | Builtin::Sincos
            | Builtin::Remquo
            | Builtin::LgammaR
    );
    let mut best: Option<(usize, Vec<Type>, Type)> = None;
    for relaxed in [false, true] {
        if relaxed && !output_pointer {
            break;
        }
        for sig in sigs.iter().filter(|s| s.params.len() == args.len()) {
            if let Some((params, result)) = try_signature(sig, args, ctx, types, relaxed) {
                let cost = params.iter().zip(args).filter(|(p, a)| p != a).count();
                if best.as_ref().is_none_or(|(c, _, _)| cost < *c) {
                    best = Some((cost, params, result));
                }
            }
        }
        if best.is_some() {
            break;
        }
    }
    let (_, params, result) = best.ok_or_else(|| no_match(types))?;
    Ok(Resolved {
        builtin,
        params,
        result,
    })
}

/// `convert_*` and `as_*`: one argument of any arithmetic type, taken as
/// it is, and a result of the type in the name.
fn convert(
    builtin: Builtin,
    to: Scalar,
    width: u8,
    args: &[Type],
    ctx: &BuiltinContext,
    no_match: impl Fn() -> String,
) -> Result<Resolved, String> {
    if to == Scalar::Double && !ctx.float64 {
        return Err(format!(
            "built-in function '{builtin}' needs type 'double', which this device does not support (cl_khr_fp64)"
        ));
    }
    if to == Scalar::Half && !ctx.float16 {
        return Err(format!(
            "built-in function '{builtin}' needs type 'half', which is not enabled (cl_khr_fp16)"
        ));
    }
    let [arg] = args else {
        let which = if args.len() > 1 { "many" } else { "few" };
        return Err(format!(
            "too {which} arguments to function call '{builtin}', expected 1, have {}",
            args.len()
        ));
    };
    let result = gentype(to, width);
    let param = match (builtin, arg) {
        // `as_*` reinterprets the bytes: the sizes must match, 3-vectors
        // counting as 4 lanes (OpenCL C 6.4.4.2, as clang's
        // `__builtin_astype`).
        (Builtin::As(..), Type::Scalar(s) | Type::Vector(s, _)) if *s != Scalar::Bool => {
            let lanes = |t: &Type| match t {
                Type::Vector(_, n) => u32::from(storage_lanes(*n)),
                _ => 1,
            };
            let bytes = |t: &Type, s: Scalar| lanes(t) * s.size();
            if bytes(arg, *s) != bytes(&result, to) {
                return Err(no_match());
            }
            *arg
        }
        (Builtin::As(..), _) => return Err(no_match()),
        // `convert_*` keeps the lane count; `bool` promotes to `int` first,
        // as it does for clang's overloads.
        (_, Type::Scalar(Scalar::Bool)) if width == 1 => Type::INT,
        (_, Type::Scalar(_)) if width == 1 => *arg,
        (_, Type::Vector(_, n)) if *n == width => *arg,
        _ => return Err(no_match()),
    };
    Ok(Resolved {
        builtin,
        params: vec![param],
        result,
    })
}

fn gentype(elem: Scalar, width: u8) -> Type {
    if width == 1 {
        Type::Scalar(elem)
    } else {
        Type::Vector(elem, width)
    }
}

/// The overload's gentype `T`.
#[derive(Clone, Copy, Debug)]
struct Gentype {
    elem: Scalar,
    width: u8,
}

impl Gentype {
    fn ty(self) -> Type {
        gentype(self.elem, self.width)
    }

    fn with(self, elem: Scalar) -> Type {
        gentype(elem, self.width)
    }

    fn with_width(self, width: u8) -> Type {
        gentype(self.elem, width)
    }
}

/// Records `value` in `slot`; `None` when it disagrees with what is there.
fn agree<T: PartialEq + Copy>(slot: &mut Option<T>, value: T) -> Option<()> {
    match *slot {
        Some(v) if v != value => None,
        _ => {
            *slot = Some(value);
            Some(())
        }
    }
}

fn float_of_size(bytes: u32) -> Option<Scalar> {
    match bytes {
        2 => Some(Scalar::Half),
        4 => Some(Scalar::Float),
        8 => Some(Scalar::Double),
        _ => None,
    }
}

fn int_of_size(bytes: u32, signed: bool) -> Scalar {
    let s = match bytes {
        1 => Scalar::Char,
        2 => Scalar::Short,
        4 => Scalar::Int,
        _ => Scalar::Long,
    };
    if signed {
        s
    } else {
        s.to_unsigned()
    }
}

/// Infers `T` for `sig` from the arguments. Vector and pointer arguments
/// fix it exactly, since OpenCL C has no implicit conversions between
/// vector types and pointers must match; scalar arguments only suggest an
/// element, combined with the usual arithmetic conversions, which picks
/// `float` for `clamp(x, 0, 1)` and `pow(x, 2)` and keeps `char` for
/// `min(char, char)`.
/// `relaxed`: output pointers fix nothing (they convert to what the
/// other arguments fix, see [`resolve`]).
fn infer(
    sig: &Sig,
    args: &[Type],
    ctx: &BuiltinContext,
    types: &Types,
    relaxed: bool,
) -> Option<Gentype> {
    let mut elem: Option<Scalar> = None;
    let mut width: Option<u8> = None;
    let mut suggested: Option<Scalar> = None;
    for (p, a) in sig.params.iter().zip(args) {
        match (p, a) {
            (P::Gen, Type::Vector(s, n)) => {
                agree(&mut elem, *s)?;
                agree(&mut width, *n)?;
            }
            (P::Gen | P::Sgen, Type::Scalar(s)) => {
                suggested = Some(match suggested {
                    Some(prev) if prev != *s => common_scalar(prev, *s),
                    _ => *s,
                });
            }
            (P::IntN | P::UGen | P::Mask, Type::Vector(_, n)) => agree(&mut width, *n)?,
            (P::NanCode, Type::Vector(s, n)) => {
                agree(&mut width, *n)?;
                agree(&mut elem, float_of_size(s.size())?)?;
            }
            (P::NanCode, Type::Scalar(s)) => {
                if let Some(f) = float_of_size(s.size()) {
                    agree(&mut elem, f)?;
                }
            }
            (P::Ptr(ptr), _) if relaxed && ptr.writes => {}
            (P::Ptr(ptr), Type::Pointer(pointee)) => match (ptr.to, types[*pointee].ty) {
                (Target::Gen, Type::Scalar(s)) => {
                    agree(&mut elem, s)?;
                    agree(&mut width, 1)?;
                }
                (Target::Gen, Type::Vector(s, n)) => {
                    agree(&mut elem, s)?;
                    agree(&mut width, n)?;
                }
                (Target::Elem, Type::Scalar(s)) => agree(&mut elem, s)?,
                (Target::IntN, Type::Scalar(_)) => agree(&mut width, 1)?,
                (Target::IntN, Type::Vector(_, n)) => agree(&mut width, n)?,
                _ => {}
            },
            _ => {}
        }
    }
    let width = match width {
        Some(n) => n,
        None if sig.widths.contains(1) => 1,
        None => sig.widths.single()?,
    };
    if !sig.widths.contains(width) {
        return None;
    }
    let elem = match elem {
        Some(s) if sig.elems.allows(s, ctx) => s,
        Some(_) => return None,
        None => {
            // A suggested element the overload lacks: integers promote
            // (`mad24(char, char, char)` is `int`), and anything converts
            // to `float` where `float` is the only sensible choice
            // (`sqrt(2)`, `native_sin(1.0)`).
            let candidates = suggested
                .into_iter()
                .flat_map(|s| [s, promote(s)])
                .chain([Scalar::Float]);
            let mut pick = None;
            for s in candidates {
                if sig.elems.allows(s, ctx) {
                    pick = Some(s);
                    break;
                }
            }
            let pick = pick?;
            // A floating argument never silently becomes an integer
            // gentype (`abs(1.5f)` has no overload).
            if suggested.is_some_and(Scalar::is_float) && pick.is_integer() {
                return None;
            }
            pick
        }
    };
    Some(Gentype { elem, width })
}

fn try_signature(
    sig: &Sig,
    args: &[Type],
    ctx: &BuiltinContext,
    types: &mut Types,
    relaxed: bool,
) -> Option<(Vec<Type>, Type)> {
    let t = infer(sig, args, ctx, types, relaxed)?;
    let params = sig
        .params
        .iter()
        .zip(args)
        .map(|(p, a)| parameter(*p, a, t, ctx, types, relaxed))
        .collect::<Option<Vec<Type>>>()?;
    Some((params, result(sig, args, t, ctx, types)?))
}

/// The type argument `arg` converts to for parameter `p` of the overload
/// with gentype `t`, or `None` when it cannot.
/// `relaxed`: an output pointer to another type converts to the one
/// wanted, in the same address space.
fn parameter(
    p: P,
    arg: &Type,
    t: Gentype,
    ctx: &BuiltinContext,
    types: &mut Types,
    relaxed: bool,
) -> Option<Type> {
    // An integer-valued parameter of type `want`: an exact vector, or any
    // integer scalar (converted, and widened for vectors).
    let integer = |want: Type| match arg {
        Type::Vector(..) if *arg == want => Some(want),
        Type::Scalar(s) if s.is_integer() => Some(want),
        _ => None,
    };
    match p {
        P::Gen => match arg {
            Type::Vector(..) if *arg == t.ty() => Some(t.ty()),
            Type::Scalar(_) => Some(t.ty()),
            _ => None,
        },
        P::Sgen => match arg {
            Type::Scalar(_) => Some(t.ty()),
            _ => None,
        },
        P::IntN => integer(t.with(Scalar::Int)),
        P::UGen => integer(t.with(t.elem.to_unsigned())),
        P::NanCode => integer(t.with(int_of_size(t.elem.size(), false))),
        P::Mask => match arg {
            Type::Vector(s, n) if s.is_integer() && s.size() == t.elem.size() && *n == t.width => {
                Some(*arg)
            }
            Type::Scalar(s) if s.is_integer() && t.width == 1 => Some(Type::Scalar(int_of_size(
                t.elem.size(),
                *s == Scalar::Bool || s.is_signed(),
            ))),
            _ => None,
        },
        P::Uint => integer_scalar(arg, Type::UINT),
        P::Uint4 => (*arg == Type::Vector(Scalar::UInt, 4)).then_some(*arg),
        P::Int => integer_scalar(arg, Type::INT),
        P::Size => integer_scalar(arg, Type::Scalar(ctx.size_type)),
        P::Event => match arg {
            Type::Opaque(Opaque::Event) => Some(*arg),
            Type::Scalar(s) if s.is_integer() => Some(EVENT),
            _ => None,
        },
        P::ShuffleMask => match arg {
            Type::Vector(s, n)
                if *s == int_of_size(t.elem.size(), false) && SHUFFLE.contains(*n) =>
            {
                Some(*arg)
            }
            _ => None,
        },
        P::AnyPtr(spaces) => types
            .pointee(*arg)
            .filter(|p| spaces.contains(p.space))
            .map(|_| *arg),
        P::Ptr(ptr) => {
            let pointee = types.pointee(*arg)?;
            let want = match ptr.to {
                Target::Gen => t.ty(),
                Target::Elem => Type::Scalar(t.elem),
                Target::IntN => t.with(Scalar::Int),
                Target::Half => Type::Scalar(Scalar::Half),
                Target::Event => EVENT,
            };
            let pointee = *pointee;
            let allowed = ptr.spaces.contains(pointee.space) && !(ptr.writes && pointee.is_const);
            if pointee.ty == want && allowed {
                return Some(*arg);
            }
            let converts = relaxed && ptr.writes && allowed && want != EVENT;
            converts.then(|| {
                types.pointer(Pointee {
                    ty: want,
                    ..pointee
                })
            })
        }
    }
}

fn integer_scalar(arg: &Type, want: Type) -> Option<Type> {
    matches!(arg, Type::Scalar(s) if s.is_integer()).then_some(want)
}

pub(super) const EVENT: Type = Type::Opaque(Opaque::Event);

/// The result type of the overload `sig` with gentype `t` for arguments
/// `args` (which have been checked against it).
fn result(
    sig: &Sig,
    args: &[Type],
    t: Gentype,
    ctx: &BuiltinContext,
    types: &mut Types,
) -> Option<Type> {
    // The argument of the first parameter `is` picks.
    let arg_for = |is: fn(&P) -> bool| {
        sig.params
            .iter()
            .zip(args)
            .find_map(|(p, a)| is(p).then_some(a))
    };
    Some(match sig.result {
        R::Void => Type::Void,
        R::Gen => t.ty(),
        R::Elem => Type::Scalar(t.elem),
        R::IntN => t.with(Scalar::Int),
        R::UGen => t.with(t.elem.to_unsigned()),
        R::Relational if t.width == 1 => Type::INT,
        R::Relational => t.with(t.elem.to_signed_int()),
        R::Upsample => t.with(int_of_size(t.elem.size() * 2, t.elem.is_signed())),
        R::Int => Type::INT,
        R::Uint => Type::UINT,
        R::Uint4 => Type::Vector(Scalar::UInt, 4),
        R::Size => Type::Scalar(ctx.size_type),
        R::Event => EVENT,
        R::Bool => Type::BOOL,
        R::Shuffle => match arg_for(|p| matches!(p, P::ShuffleMask))? {
            Type::Vector(_, n) => t.with_width(*n),
            _ => return None,
        },
        R::Cast(space) => {
            let pointee = *types.pointee(*arg_for(|p| matches!(p, P::AnyPtr(_)))?)?;
            types.pointer(Pointee { space, ..pointee })
        }
    })
}
