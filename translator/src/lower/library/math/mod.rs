//! The math library in software: exponentials, logarithms, powers,
//! trigonometric and hyperbolic functions, `hypot`, the error and gamma
//! functions, and the exact functions whose GLSL counterparts differ from
//! OpenCL, written in naga IR to OpenCL's full-profile ULP bounds
//! (GLSL.std.450's are far looser), on `float` and on `double` (Vulkan has
//! no f64 transcendentals at all, and its f64 `Fma` may round twice). This
//! file is the entry the lowering calls: [`ModuleBuilder::math_builtin`]
//! (and, for the `float` trigonometry, `trig_f32.rs`'s
//! [`ModuleBuilder::trig_builtin`]).
//!
//! Where the two precisions compute a function the same way it is written
//! once, generic over [`precision::Precision`] (`logarithms.rs`,
//! `powers.rs`, `hyperbolic.rs`; the exact functions of `exact.rs` are
//! written over the float format); where the algorithms differ, each
//! precision has its own file (`*_f32.rs`, `*_f64.rs`), whose doc says
//! why. All are written in one vocabulary, `ops.rs`, with the series and
//! constants both read from `series.rs` and `consts.rs`.
//!
//! Each function is element-wise over a scalar or 2/3/4-lane vector (wider
//! vectors are split by `wide.rs` first). The `half_*` variants use the
//! same code: it is well within their 8192 ulp.
//!
//! A function of one to three values becomes a naga function, made once
//! per built-in, element type and width and called at each use. Its
//! error-free sums rely on the arithmetic not being reassociated
//! (`(a + b) - a` is not `b`), which `spirv.rs` guarantees by marking all
//! float arithmetic `NoContraction`.

mod consts;
mod erf_f32;
mod erf_f64;
mod exact;
mod exp_log_f32;
mod exp_log_f64;
mod fma_f64;
mod gamma;
mod gamma_f32;
mod gamma_f64;
mod hyperbolic;
mod inverse_trig_f32;
mod inverse_trig_f64;
mod logarithms;
mod ops;
mod powers;
mod precision;
mod relaxed;
mod series;
mod trig_f32;
mod trig_f64;
mod trig_ops_f32;
mod trig_reduce_f32;
mod trig_reduce_f64;

use crate::builtins::Builtin;
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::{Operand, Value};
use crate::lower::function::FnBuilder;
use crate::lower::naga_types::vector_size;
use crate::types::{Scalar, Type};
use naga::{Handle, Span};
pub(in crate::lower) use ops::DIVISOR_LIMIT;

/// `v`, an f64 or a vector of `size` f64s, rounded to the nearest integer,
/// ties to even ([`Ops::rint`]).
pub(in crate::lower) fn round_even_f64(
    fb: &mut Emitter,
    v: Handle<naga::Expression>,
    size: Option<naga::VectorSize>,
) -> Handle<naga::Expression> {
    Ops::of_width(fb, size, true).rint(v)
}
use ops::{Ops, V};
use precision::{Precision, F32, F64};

/// Name prefix of the math library's naga functions, for reading the IR.
const MATH_FUNCTION_PREFIX: &str = "clvulkan_math_";

/// The functions this module computes, and how.
#[derive(Clone, Copy)]
enum Kind {
    Unary(fn(&mut Ops, V) -> V),
    Binary(fn(&mut Ops, V, V) -> V),
    Ternary(fn(&mut Ops, V, V, V) -> V),
    /// Needs the 2/pi table (`double` trigonometry).
    Trig(fn(&mut Ops, V, trig_reduce_f64::TrigTypes) -> V),
    /// A value and a second result stored through the last argument.
    WithOutput(fn(&mut Ops, V) -> (V, V)),
    /// `lgamma`'s value (its function) and `Gamma`'s sign.
    LgammaR,
    /// `sin` and `cos` (their functions), the cosine stored.
    SinCos,
    /// Integer long division (needs loop variables).
    Fmod,
    Remainder,
    Remquo,
}

/// The functions written once for both precisions, in `P`'s form: the
/// logarithms, powers and hyperbolic functions on `P`'s cores, and the
/// exact functions (written over the float format, the same for both).
fn shared_kind<P: Precision>(b: Builtin) -> Option<Kind> {
    use exact as x;
    use hyperbolic as h;
    use logarithms as l;
    use powers as p;
    use Kind::*;
    Some(match b {
        Builtin::Log => Unary(l::log::<P>),
        Builtin::Log2 => Unary(l::log2::<P>),
        Builtin::Log10 => Unary(l::log10::<P>),
        Builtin::Log1p => Unary(l::log1p::<P>),
        Builtin::Cbrt => Unary(p::cbrt::<P>),
        Builtin::Pow => Binary(p::pow::<P>),
        Builtin::Powr => Binary(p::powr::<P>),
        Builtin::Pown => Binary(p::pown::<P>),
        Builtin::Rootn => Binary(p::rootn::<P>),
        Builtin::Sinh => Unary(h::sinh::<P>),
        Builtin::Cosh => Unary(h::cosh::<P>),
        Builtin::Tanh => Unary(h::tanh::<P>),
        Builtin::Asinh => Unary(h::asinh::<P>),
        Builtin::Acosh => Unary(h::acosh::<P>),
        Builtin::Hypot => Binary(h::hypot),
        Builtin::LgammaR => LgammaR,
        Builtin::Fmin | Builtin::Min => Binary(x::fmin),
        Builtin::Fmax | Builtin::Max => Binary(x::fmax),
        Builtin::Round => Unary(x::round),
        Builtin::Rint => Unary(|o, v| o.rint(v)),
        Builtin::Ldexp => Binary(x::ldexp),
        Builtin::Ilogb => Unary(x::ilogb),
        Builtin::Logb => Unary(x::logb),
        Builtin::Nextafter => Binary(x::nextafter),
        Builtin::Nan => Unary(x::nan),
        Builtin::Copysign => Binary(|o, a, b| o.copysign(a, b)),
        Builtin::Fdim => Binary(x::fdim),
        Builtin::Maxmag => Binary(|o, a, b| x::by_magnitude(o, a, b, true)),
        Builtin::Minmag => Binary(|o, a, b| x::by_magnitude(o, a, b, false)),
        Builtin::Fract => WithOutput(x::fract),
        Builtin::Modf => WithOutput(x::modf),
        Builtin::Frexp => WithOutput(x::frexp),
        Builtin::Fmod => Fmod,
        Builtin::Remainder => Remainder,
        Builtin::Remquo => Remquo,
        _ => return None,
    })
}

/// The `float` form of `b` (the trigonometric functions are
/// `trig_f32.rs`'s): the shared functions, and those with a `float`
/// algorithm of their own. The `half_*` variants use the same code.
fn precise_kind(b: Builtin) -> Option<Kind> {
    use exp_log_f32 as e;
    use Kind::*;
    Some(match b {
        Builtin::Exp | Builtin::HalfExp => Unary(e::exp),
        Builtin::Exp2 | Builtin::HalfExp2 => Unary(e::exp2),
        Builtin::Exp10 | Builtin::HalfExp10 => Unary(e::exp10),
        Builtin::Expm1 => Unary(e::expm1),
        Builtin::HalfLog => return precise_kind(Builtin::Log),
        Builtin::HalfLog2 => return precise_kind(Builtin::Log2),
        Builtin::HalfLog10 => return precise_kind(Builtin::Log10),
        Builtin::HalfPowr => return precise_kind(Builtin::Powr),
        Builtin::Atanh => Unary(hyperbolic::atanh_f32),
        Builtin::Erf => Unary(erf_f32::erf),
        Builtin::Erfc => Unary(erf_f32::erfc),
        Builtin::Tgamma => Unary(gamma_f32::tgamma),
        Builtin::Lgamma => Unary(gamma_f32::lgamma),
        Builtin::HalfRecip => Unary(|o, v| {
            let one = o.f(1.0);
            o.div(one, v)
        }),
        Builtin::HalfDivide => Binary(|o, a, b| o.div(a, b)),
        Builtin::HalfSqrt => Unary(|o, v| o.math(naga::MathFunction::Sqrt, v)),
        Builtin::HalfRsqrt => Unary(|o, v| o.math(naga::MathFunction::InverseSqrt, v)),
        _ => return shared_kind::<F32>(b),
    })
}

/// The `double` form of `b`, where it is implemented: the shared
/// functions, and those with a `double` algorithm of their own
/// (trigonometry included).
fn double_kind(b: Builtin) -> Option<Kind> {
    use exp_log_f64 as d;
    use inverse_trig_f64 as i;
    use Kind::*;
    Some(match b {
        Builtin::Exp => Unary(d::exp),
        Builtin::Exp2 => Unary(d::exp2),
        Builtin::Exp10 => Unary(d::exp10),
        Builtin::Expm1 => Unary(d::expm1),
        Builtin::Fma => Ternary(fma_f64::fma),
        Builtin::Atanh => Unary(hyperbolic::atanh_f64),
        Builtin::Erf => Unary(erf_f64::erf),
        Builtin::Erfc => Unary(erf_f64::erfc),
        Builtin::Tgamma => Unary(gamma_f64::tgamma),
        Builtin::Lgamma => Unary(gamma_f64::lgamma),
        Builtin::Sin => Trig(trig_f64::sin),
        Builtin::Cos => Trig(trig_f64::cos),
        Builtin::Tan => Trig(trig_f64::tan),
        Builtin::Sincos => SinCos,
        Builtin::Sinpi => Unary(trig_f64::sinpi),
        Builtin::Cospi => Unary(trig_f64::cospi),
        Builtin::Tanpi => Unary(trig_f64::tanpi),
        Builtin::Asin => Unary(i::asin),
        Builtin::Acos => Unary(i::acos),
        Builtin::Atan => Unary(i::atan),
        Builtin::Asinpi => Unary(i::asinpi),
        Builtin::Acospi => Unary(i::acospi),
        Builtin::Atanpi => Unary(i::atanpi),
        Builtin::Atan2 => Binary(i::atan2),
        Builtin::Atan2pi => Binary(i::atan2pi),
        // Not SPIR-V's `Trunc` (see `Ops::trunc`).
        Builtin::Trunc => Unary(|o, v| o.trunc(v)),
        _ => return shared_kind::<F64>(b),
    })
}

/// The hardware or derived form `-cl-fast-relaxed-math` allows, where it
/// differs from the precise one (`exp`, `exp2`, `log`, `log2` do not: see
/// `relaxed.rs`).
fn relaxed_kind(b: Builtin) -> Option<Kind> {
    use naga::MathFunction as M;
    use relaxed as r;
    use Kind::*;
    Some(match b {
        Builtin::Exp10 => Unary(r::exp10),
        Builtin::Log10 => Unary(r::log10),
        Builtin::Expm1 => Unary(r::expm1),
        Builtin::Log1p => Unary(r::log1p),
        Builtin::Pow => Binary(r::pow),
        Builtin::Powr => Binary(r::powr),
        Builtin::Pown => Binary(r::pown),
        Builtin::Rootn => Binary(r::rootn),
        Builtin::Cbrt => Unary(r::cbrt),
        Builtin::Sinh => Unary(|o, v| o.math(M::Sinh, v)),
        Builtin::Cosh => Unary(|o, v| o.math(M::Cosh, v)),
        Builtin::Tanh => Unary(|o, v| o.math(M::Tanh, v)),
        Builtin::Asinh => Unary(|o, v| o.math(M::Asinh, v)),
        Builtin::Acosh => Unary(|o, v| o.math(M::Acosh, v)),
        Builtin::Atanh => Unary(|o, v| o.math(M::Atanh, v)),
        _ => return None,
    })
}

impl ModuleBuilder<'_> {
    /// `b` applied to `args`, or `None` when `b` is not computed here
    /// (including `min`/`max` on integers).
    pub(super) fn math_builtin(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        let generic = self.kind(b);
        if generic.is_none() && double_kind(b).is_none() {
            return Ok(None);
        }
        // The shape comes from the first argument (`nan` takes integers;
        // `ilogb` returns them).
        let shape = &fb.ty(args[0]);
        let element = match b {
            Builtin::Nan => ty.element(),
            _ => shape.element(),
        };
        // These use no constants and no bit patterns, so they serve every
        // floating-point width.
        let width_generic = matches!(
            b,
            Builtin::Fmin
                | Builtin::Fmax
                | Builtin::Min
                | Builtin::Max
                | Builtin::Maxmag
                | Builtin::Minmag
                | Builtin::Rint
        );
        let double = element == Some(Scalar::Double);
        let kind = match (element, generic) {
            // The hardware's `fma` where it is fused.
            _ if b == Builtin::Fma && self.caps.fused_fma => return Ok(None),
            (Some(Scalar::Double), _) if double_kind(b).is_some() => kind_of_double(b),
            (_, None) => return Ok(None),
            (Some(Scalar::Float), Some(kind)) => kind,
            (Some(s), Some(kind)) if s.is_float() && width_generic => kind,
            _ if matches!(b, Builtin::Min | Builtin::Max) => return Ok(None),
            _ => {
                return Err(self.error(
                    location,
                    format!("built-in function '{b}' is only supported on float (not double or half) by this translator"),
                ))
            }
        };
        let width = match shape {
            Type::Vector(_, n) => *n,
            _ => 1,
        };
        let size = vector_size(width);
        // Scalar operands of vector calls (`fmin(v, s)`, `ldexp(v, k)`)
        // are splat to the vector.
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            if self.pointee_of(fb, *a).is_some() {
                continue;
            }
            let v = self.plain(fb, a)?;
            let v = match (&fb.ty(*a), size) {
                (Type::Scalar(_), Some(size)) => fb.add(naga::Expression::Splat { size, value: v }),
                _ => v,
            };
            values.push(v);
        }
        let types = match kind {
            Kind::Fmod | Kind::Remainder | Kind::Remquo => {
                let unsigned = if double { Scalar::ULong } else { Scalar::UInt };
                let (u, i) = match width {
                    1 => (Type::Scalar(unsigned), Type::INT),
                    n => (Type::Vector(unsigned, n), Type::Vector(Scalar::Int, n)),
                };
                Some(exact::Types {
                    uint: self.value_type(&u, location)?,
                    int: self.value_type(&i, location)?,
                })
            }
            _ => None,
        };
        let (value, output) = match kind {
            Kind::Unary(_) | Kind::Binary(_) | Kind::Ternary(_) | Kind::Trig(_) => (
                self.math_call(fb, b, kind, args, &values, ty, width, double, location)?,
                None,
            ),
            Kind::LgammaR => {
                let lgamma = if double {
                    kind_of_double(Builtin::Lgamma)
                } else {
                    kind_of(Builtin::Lgamma)
                };
                let v = self.math_call(
                    fb,
                    Builtin::Lgamma,
                    lgamma,
                    args,
                    &values,
                    ty,
                    width,
                    double,
                    location,
                )?;
                let mut o = Ops::of_width(fb, size, double);
                let sign = if double {
                    gamma_f64::lgamma_sign(&mut o, values[0])
                } else {
                    gamma_f32::lgamma_sign(&mut o, values[0])
                };
                (v, Some(sign))
            }
            Kind::SinCos => {
                let mut call = |b| {
                    self.math_call(
                        fb,
                        b,
                        kind_of_double(b),
                        args,
                        &values,
                        ty,
                        width,
                        double,
                        location,
                    )
                };
                let sin = call(Builtin::Sin)?;
                let cos = call(Builtin::Cos)?;
                (sin, Some(cos))
            }
            Kind::WithOutput(f) => {
                let mut o = Ops::of_width(fb, size, double);
                let (v, out) = f(&mut o, values[0]);
                (v, Some(out))
            }
            Kind::Fmod => {
                let mut o = Ops::of_width(fb, size, double);
                (
                    exact::fmod(&mut o, values[0], values[1], types.expect("types")),
                    None,
                )
            }
            Kind::Remainder => {
                let mut o = Ops::of_width(fb, size, double);
                (
                    exact::remquo(&mut o, values[0], values[1], types.expect("types")).0,
                    None,
                )
            }
            Kind::Remquo => {
                let mut o = Ops::of_width(fb, size, double);
                let (r, q) = exact::remquo(&mut o, values[0], values[1], types.expect("types"));
                (r, Some(q))
            }
        };
        if let Some(out) = output {
            let pointer = args.last().expect("output pointer argument");
            let out = self.output_for(fb, out, *pointer, location)?;
            let place = self.pointed_place(fb, *pointer, location)?;
            self.store(fb, place, Value::Plain(out), location, None)?;
        }
        Ok(Some(value))
    }
}

/// The precise form of a function known to be computed here.
fn kind_of(b: Builtin) -> Kind {
    precise_kind(b).expect("a math library function")
}

/// The `double` form of a function known to have one.
fn kind_of_double(b: Builtin) -> Kind {
    double_kind(b).expect("a double math library function")
}

impl ModuleBuilder<'_> {
    fn kind(&self, b: Builtin) -> Option<Kind> {
        let relaxed = self.library.relaxed_math.then(|| relaxed_kind(b)).flatten();
        relaxed.or_else(|| precise_kind(b))
    }

    /// A call of the library function for `b` at `width` (made on first
    /// use) on `values`, the arguments as values of `args`' types (scalars
    /// splat to `width`).
    #[allow(clippy::too_many_arguments)]
    fn math_call(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        kind: Kind,
        args: &[Operand],
        values: &[V],
        ty: &Type,
        width: u8,
        double: bool,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let element = fb.ty(args[0]).element().unwrap_or(Scalar::Float);
        let key = (b, element, width);
        let function = match self.library.math.get(&key) {
            Some(&h) => h,
            None => {
                let shaped = |t: &Type| match (t, width) {
                    (Type::Scalar(s), 2..) => Type::Vector(*s, width),
                    _ => *t,
                };
                let mut arguments = Vec::new();
                let values: Vec<Operand> = args
                    .iter()
                    .copied()
                    .filter(|&a| self.pointee_of(fb, a).is_none())
                    .collect();
                for a in &values {
                    arguments.push(naga::FunctionArgument {
                        name: None,
                        ty: self.value_type(&shaped(&fb.ty(*a)), location)?,
                        binding: None,
                    });
                }
                let result = naga::FunctionResult {
                    ty: self.value_type(ty, location)?,
                    binding: None,
                };
                let trig_types = match kind {
                    Kind::Trig(_) => {
                        let word = self.u32_type();
                        let length = trig_reduce_f64::TWO_OVER_PI_BITS.len() as u32;
                        let table = self.add_type(naga::TypeInner::Array {
                            base: word,
                            size: naga::ArraySize::Constant(
                                std::num::NonZeroU32::new(length).expect("table"),
                            ),
                            stride: 4,
                        });
                        let words = match width {
                            1 => Type::UINT,
                            n => Type::Vector(Scalar::UInt, n),
                        };
                        Some(trig_reduce_f64::TrigTypes {
                            table,
                            words: self.value_type(&words, location)?,
                        })
                    }
                    _ => None,
                };
                let mut hb = Emitter::default();
                let params: Vec<V> = (0..arguments.len() as u32)
                    .map(|i| hb.add(naga::Expression::FunctionArgument(i)))
                    .collect();
                let mut o = Ops::of_width(&mut hb, vector_size(width), double);
                let value = match kind {
                    Kind::Unary(f) => f(&mut o, params[0]),
                    Kind::Binary(f) => f(&mut o, params[0], params[1]),
                    Kind::Ternary(f) => f(&mut o, params[0], params[1], params[2]),
                    Kind::Trig(f) => f(&mut o, params[0], trig_types.expect("trig types")),
                    _ => return Err(self.error(location, "internal error: not a value function")),
                };
                hb.push(naga::Statement::Return { value: Some(value) });
                let mut function = hb.finish();
                function.name = Some(format!("{MATH_FUNCTION_PREFIX}{b}_{element:?}{width}"));
                function.arguments = arguments;
                function.result = Some(result);
                let h = self.module.functions.append(function, Span::UNDEFINED);
                self.library.math.insert(key, h);
                h
            }
        };
        let result = fb
            .function
            .expressions
            .append(naga::Expression::CallResult(function), Span::UNDEFINED);
        fb.push(naga::Statement::Call {
            function,
            arguments: values.to_vec(),
            result: Some(result),
        });
        Ok(result)
    }
}
