//! The math library in software: exponentials, logarithms, powers,
//! hyperbolic functions, `hypot`, the error and gamma functions, and the
//! exact functions whose GLSL counterparts differ from OpenCL, written in
//! naga IR to OpenCL's full-profile ULP bounds (GLSL.std.450's are far
//! looser). On `float` (the trigonometric functions are `trig_f32.rs`'s)
//! and on `double` (the `*_f64` modules, trigonometry included: Vulkan has
//! no f64 transcendentals at all, and its f64 `Fma` may round twice); the
//! exact functions serve both, written over the float format.
//!
//! Each function is element-wise over a scalar or 2/3/4-lane vector (wider
//! vectors are split by `wide.rs` first). The `half_*` variants use the
//! same code: it is well within their 8192 ulp.
//!
//! A function of one to three values becomes a naga function, made once
//! per built-in, element type and width and called at each use. Its error-free sums rely on
//! the arithmetic not being reassociated (`(a + b) - a` is not `b`), which
//! `spirv.rs` guarantees by marking all float arithmetic `NoContraction`.

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
pub(super) use ops::DIVISOR_LIMIT;
mod powers;
mod precision;
mod relaxed;
mod series;
mod trig_f32;
mod trig_f64;
mod trig_ops_f32;
mod trig_reduce_f32;
mod trig_reduce_f64;

use super::*;
use ops::{Ops, V};
use precision::{F32, F64};

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

fn precise_kind(b: Builtin) -> Option<Kind> {
    use exact as x;
    use exp_log_f32 as e;
    use hyperbolic as h;
    use logarithms as l;
    use powers as p;
    use Kind::*;
    Some(match b {
        Builtin::Exp | Builtin::HalfExp => Unary(e::exp),
        Builtin::Exp2 | Builtin::HalfExp2 => Unary(e::exp2),
        Builtin::Exp10 | Builtin::HalfExp10 => Unary(e::exp10),
        Builtin::Expm1 => Unary(e::expm1),
        Builtin::Log | Builtin::HalfLog => Unary(l::log::<F32>),
        Builtin::Log2 | Builtin::HalfLog2 => Unary(l::log2::<F32>),
        Builtin::Log10 | Builtin::HalfLog10 => Unary(l::log10::<F32>),
        Builtin::Log1p => Unary(l::log1p::<F32>),
        Builtin::Cbrt => Unary(p::cbrt::<F32>),
        Builtin::Pow => Binary(p::pow::<F32>),
        Builtin::Powr | Builtin::HalfPowr => Binary(p::powr::<F32>),
        Builtin::Pown => Binary(p::pown::<F32>),
        Builtin::Rootn => Binary(p::rootn::<F32>),
        Builtin::Sinh => Unary(h::sinh::<F32>),
        Builtin::Cosh => Unary(h::cosh::<F32>),
        Builtin::Tanh => Unary(h::tanh::<F32>),
        Builtin::Asinh => Unary(h::asinh::<F32>),
        Builtin::Acosh => Unary(h::acosh::<F32>),
        Builtin::Atanh => Unary(h::atanh_f32),
        Builtin::Hypot => Binary(h::hypot),
        Builtin::Erf => Unary(erf_f32::erf),
        Builtin::Erfc => Unary(erf_f32::erfc),
        Builtin::Tgamma => Unary(gamma_f32::tgamma),
        Builtin::Lgamma => Unary(gamma_f32::lgamma),
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
        Builtin::HalfRecip => Unary(|o, v| {
            let one = o.f(1.0);
            o.div(one, v)
        }),
        Builtin::HalfDivide => Binary(|o, a, b| o.div(a, b)),
        Builtin::HalfSqrt => Unary(|o, v| o.math(naga::MathFunction::Sqrt, v)),
        Builtin::HalfRsqrt => Unary(|o, v| o.math(naga::MathFunction::InverseSqrt, v)),
        _ => return None,
    })
}

/// The `double` form of `b`, where it is implemented: the exact functions
/// share the f32 code (written over the float format), the rest have
/// their own f64 algorithms.
fn double_kind(b: Builtin) -> Option<Kind> {
    use exp_log_f64 as d;
    use hyperbolic as h;
    use logarithms as l;
    use powers as p;
    use Kind::*;
    Some(match b {
        Builtin::Exp => Unary(d::exp),
        Builtin::Exp2 => Unary(d::exp2),
        Builtin::Exp10 => Unary(d::exp10),
        Builtin::Expm1 => Unary(d::expm1),
        Builtin::Log => Unary(l::log::<F64>),
        Builtin::Log2 => Unary(l::log2::<F64>),
        Builtin::Log10 => Unary(l::log10::<F64>),
        Builtin::Log1p => Unary(l::log1p::<F64>),
        Builtin::Cbrt => Unary(p::cbrt::<F64>),
        Builtin::Pow => Binary(p::pow::<F64>),
        Builtin::Powr => Binary(p::powr::<F64>),
        Builtin::Pown => Binary(p::pown::<F64>),
        Builtin::Rootn => Binary(p::rootn::<F64>),
        Builtin::Hypot => Binary(h::hypot),
        Builtin::Fma => Ternary(fma_f64::fma),
        Builtin::Sinh => Unary(h::sinh::<F64>),
        Builtin::Cosh => Unary(h::cosh::<F64>),
        Builtin::Tanh => Unary(h::tanh::<F64>),
        Builtin::Asinh => Unary(h::asinh::<F64>),
        Builtin::Acosh => Unary(h::acosh::<F64>),
        Builtin::Atanh => Unary(h::atanh_f64),
        Builtin::Erf => Unary(erf_f64::erf),
        Builtin::Erfc => Unary(erf_f64::erfc),
        Builtin::Tgamma => Unary(gamma_f64::tgamma),
        Builtin::Lgamma => Unary(gamma_f64::lgamma),
        Builtin::LgammaR => LgammaR,
        Builtin::Sin => Trig(trig_f64::sin),
        Builtin::Cos => Trig(trig_f64::cos),
        Builtin::Tan => Trig(trig_f64::tan),
        Builtin::Sincos => SinCos,
        Builtin::Sinpi => Unary(trig_f64::sinpi),
        Builtin::Cospi => Unary(trig_f64::cospi),
        Builtin::Tanpi => Unary(trig_f64::tanpi),
        Builtin::Asin => Unary(inverse_trig_f64::asin),
        Builtin::Acos => Unary(inverse_trig_f64::acos),
        Builtin::Atan => Unary(inverse_trig_f64::atan),
        Builtin::Asinpi => Unary(inverse_trig_f64::asinpi),
        Builtin::Acospi => Unary(inverse_trig_f64::acospi),
        Builtin::Atanpi => Unary(inverse_trig_f64::atanpi),
        Builtin::Atan2 => Binary(inverse_trig_f64::atan2),
        Builtin::Atan2pi => Binary(inverse_trig_f64::atan2pi),
        Builtin::Fmin
        | Builtin::Min
        | Builtin::Fmax
        | Builtin::Max
        | Builtin::Round
        | Builtin::Rint
        | Builtin::Ldexp
        | Builtin::Ilogb
        | Builtin::Logb
        | Builtin::Nextafter
        | Builtin::Nan
        | Builtin::Copysign
        | Builtin::Fdim
        | Builtin::Maxmag
        | Builtin::Minmag
        | Builtin::Fract
        | Builtin::Modf
        | Builtin::Frexp
        | Builtin::Fmod
        | Builtin::Remainder
        | Builtin::Remquo => return precise_kind(b),
        _ => return None,
    })
}

/// The hardware or derived form `-cl-fast-relaxed-math` allows, where it
/// differs from the precise one.
fn relaxed_kind(b: Builtin) -> Option<Kind> {
    use naga::MathFunction as M;
    use relaxed as r;
    use Kind::*;
    Some(match b {
        Builtin::Exp => Unary(|o, v| o.math(M::Exp, v)),
        Builtin::Exp2 => Unary(|o, v| o.math(M::Exp2, v)),
        Builtin::Log => Unary(|o, v| o.math(M::Log, v)),
        Builtin::Log2 => Unary(|o, v| o.math(M::Log2, v)),
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
        args: &[Expr],
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        let generic = self.kind(b);
        if generic.is_none() && double_kind(b).is_none() {
            return Ok(None);
        }
        // The shape comes from the first argument (`nan` takes integers;
        // `ilogb` returns them).
        let shape = &args[0].ty;
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
            if matches!(a.ty, Type::Pointer(_)) {
                continue;
            }
            let v = self.plain(fb, a)?;
            let v = match (&a.ty, size) {
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
            let out = self.output_for(fb, out, pointer, location)?;
            let place = self.pointed_place(fb, pointer)?;
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
        let relaxed = self.relaxed_math.then(|| relaxed_kind(b)).flatten();
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
        args: &[Expr],
        values: &[V],
        ty: &Type,
        width: u8,
        double: bool,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let element = args[0].ty.element().unwrap_or(Scalar::Float);
        let key = (b, element, width);
        let function = match self.math_functions.get(&key) {
            Some(&h) => h,
            None => {
                let shaped = |t: &Type| match (t, width) {
                    (Type::Scalar(s), 2..) => Type::Vector(*s, width),
                    _ => t.clone(),
                };
                let mut arguments = Vec::new();
                for a in args.iter().filter(|a| !matches!(a.ty, Type::Pointer(_))) {
                    arguments.push(naga::FunctionArgument {
                        name: None,
                        ty: self.value_type(&shaped(&a.ty), location)?,
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
                let mut hb = FnBuilder::new(fb.hir);
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
                self.math_functions.insert(key, h);
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
