//! A small interpreter of the naga IR the image functions are made of, so
//! their arithmetic can be checked against the host model on many inputs
//! without a device: straight-line expressions, `If`, calls, locals and
//! returns, with image loads and stores answered by the test. Float
//! arithmetic is the host's `f32` (IEEE, no contraction), which is what
//! Vulkan guarantees for `+ - *` and what the kernels' results depend on.

use naga::{BinaryOperator as B, Expression as E, Handle, MathFunction as M, Statement as S};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Scalar {
    F(f32),
    I(i32),
    U(u32),
    Bool(bool),
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Value {
    Scalar(Scalar),
    Vector(Vec<Scalar>),
    /// An image argument or global: the test's one image.
    Image,
    Pointer(Handle<naga::LocalVariable>),
}

impl Value {
    pub(super) fn lanes(&self) -> Vec<Scalar> {
        match self {
            Value::Scalar(s) => vec![*s],
            Value::Vector(v) => v.clone(),
            other => panic!("not a number: {other:?}"),
        }
    }

    fn from_lanes(lanes: Vec<Scalar>, vector: bool) -> Value {
        if vector {
            Value::Vector(lanes)
        } else {
            Value::Scalar(lanes[0])
        }
    }
}

/// What an image access sees: a load at coordinates (laid out as OpenCL C
/// passes them, the layer after the spatial ones) returns the four
/// components of the Vulkan view; a store records them.
pub(super) trait ImageAccess {
    fn load(&self, coord: [i32; 4]) -> Vec<Scalar>;
    fn store(&mut self, coord: [i32; 4], value: Vec<Scalar>);
}

pub(super) struct Interpreter<'a, I: ImageAccess> {
    pub module: &'a naga::Module,
    pub image: I,
}

enum Flow {
    Next,
    Return(Option<Value>),
}

struct Frame<'f> {
    function: &'f naga::Function,
    arguments: Vec<Value>,
    values: HashMap<Handle<naga::Expression>, Value>,
    locals: HashMap<Handle<naga::LocalVariable>, Value>,
}

impl<I: ImageAccess> Interpreter<'_, I> {
    pub(super) fn call(
        &mut self,
        function: Handle<naga::Function>,
        arguments: Vec<Value>,
    ) -> Option<Value> {
        let module = self.module;
        let function = &module.functions[function];
        let mut frame = Frame {
            function,
            arguments,
            values: HashMap::new(),
            locals: HashMap::new(),
        };
        match self.block(&mut frame, &function.body) {
            Flow::Return(value) => value,
            Flow::Next => None,
        }
    }

    fn block(&mut self, frame: &mut Frame, block: &naga::Block) -> Flow {
        for statement in block.iter() {
            match *statement {
                S::Emit(ref range) => {
                    for h in range.clone() {
                        let value = self.expression(frame, h);
                        frame.values.insert(h, value);
                    }
                }
                S::Call {
                    function,
                    ref arguments,
                    result,
                } => {
                    let arguments = arguments.iter().map(|&a| self.get(frame, a)).collect();
                    let value = self.call(function, arguments);
                    if let (Some(h), Some(v)) = (result, value) {
                        frame.values.insert(h, v);
                    }
                }
                S::Store { pointer, value } => {
                    let Value::Pointer(local) = self.get(frame, pointer) else {
                        panic!("store through a non-local pointer")
                    };
                    let value = self.get(frame, value);
                    frame.locals.insert(local, value);
                }
                S::If {
                    condition,
                    ref accept,
                    ref reject,
                } => {
                    let taken = match self.get(frame, condition) {
                        Value::Scalar(Scalar::Bool(b)) => b,
                        other => panic!("condition {other:?}"),
                    };
                    let flow = self.block(frame, if taken { accept } else { reject });
                    if let Flow::Return(v) = flow {
                        return Flow::Return(v);
                    }
                }
                S::Return { value } => {
                    return Flow::Return(value.map(|v| self.get(frame, v)));
                }
                S::ImageStore {
                    coordinate,
                    array_index,
                    value,
                    ..
                } => {
                    let coord = self.coordinates(frame, coordinate, array_index);
                    let value = self.get(frame, value).lanes();
                    self.image.store(coord, value);
                }
                ref other => panic!("statement not interpreted: {other:?}"),
            }
        }
        Flow::Next
    }

    fn coordinates(
        &mut self,
        frame: &mut Frame,
        coordinate: Handle<naga::Expression>,
        array_index: Option<Handle<naga::Expression>>,
    ) -> [i32; 4] {
        let mut lanes = self.get(frame, coordinate).lanes();
        if let Some(index) = array_index {
            lanes.extend(self.get(frame, index).lanes());
        }
        let mut out = [0; 4];
        for (o, l) in out.iter_mut().zip(lanes) {
            let Scalar::I(v) = l else {
                panic!("coordinate {l:?}")
            };
            *o = v;
        }
        out
    }

    /// The value of `h`: emitted already, or one naga evaluates where it
    /// stands.
    fn get(&mut self, frame: &mut Frame, h: Handle<naga::Expression>) -> Value {
        if let Some(v) = frame.values.get(&h) {
            return v.clone();
        }
        let e = &frame.function.expressions[h];
        assert!(e.needs_pre_emit(), "{e:?} used before it was emitted");
        self.expression(frame, h)
    }

    fn expression(&mut self, frame: &mut Frame, h: Handle<naga::Expression>) -> Value {
        let function = frame.function;
        match function.expressions[h] {
            E::Literal(l) => Value::Scalar(match l {
                naga::Literal::F32(v) => Scalar::F(v),
                naga::Literal::I32(v) => Scalar::I(v),
                naga::Literal::U32(v) => Scalar::U(v),
                naga::Literal::Bool(v) => Scalar::Bool(v),
                other => panic!("literal {other:?}"),
            }),
            E::FunctionArgument(i) => frame.arguments[i as usize].clone(),
            E::GlobalVariable(_) => Value::Image,
            E::LocalVariable(l) => Value::Pointer(l),
            E::Load { pointer } => {
                let Value::Pointer(l) = self.get(frame, pointer) else {
                    panic!("load through a non-local pointer")
                };
                frame.locals[&l].clone()
            }
            E::Compose { ref components, .. } => Value::Vector(
                components
                    .iter()
                    .flat_map(|&c| self.get(frame, c).lanes())
                    .collect(),
            ),
            E::Splat { size, value } => {
                let lane = self.get(frame, value).lanes()[0];
                Value::Vector(vec![lane; size as usize])
            }
            E::AccessIndex { base, index } => {
                Value::Scalar(self.get(frame, base).lanes()[index as usize])
            }
            E::Access { base, index } => {
                let index = match self.get(frame, index) {
                    Value::Scalar(Scalar::U(i)) => i as usize,
                    Value::Scalar(Scalar::I(i)) => i as usize,
                    other => panic!("index {other:?}"),
                };
                Value::Scalar(self.get(frame, base).lanes()[index])
            }
            E::Binary { op, left, right } => {
                let (l, r) = (self.get(frame, left), self.get(frame, right));
                let vector = matches!(l, Value::Vector(_)) || matches!(r, Value::Vector(_));
                let (l, r) = (l.lanes(), r.lanes());
                let n = l.len().max(r.len());
                let lanes = (0..n)
                    .map(|i| binary(op, l[i.min(l.len() - 1)], r[i.min(r.len() - 1)]))
                    .collect();
                Value::from_lanes(lanes, vector)
            }
            E::Select {
                condition,
                accept,
                reject,
            } => {
                let c = self.get(frame, condition).lanes();
                let (a, r) = (self.get(frame, accept), self.get(frame, reject));
                let vector = matches!(a, Value::Vector(_));
                let (a, r) = (a.lanes(), r.lanes());
                let lanes = (0..a.len())
                    .map(|i| match c[i.min(c.len() - 1)] {
                        Scalar::Bool(true) => a[i],
                        Scalar::Bool(false) => r[i],
                        other => panic!("select condition {other:?}"),
                    })
                    .collect();
                Value::from_lanes(lanes, vector)
            }
            E::Math {
                fun,
                arg,
                arg1,
                arg2,
                ..
            } => {
                let x = self.get(frame, arg);
                let vector = matches!(x, Value::Vector(_));
                let x = x.lanes();
                let y = arg1.map(|a| self.get(frame, a).lanes());
                let z = arg2.map(|a| self.get(frame, a).lanes());
                let lanes = (0..x.len())
                    .map(|i| {
                        let at =
                            |v: &Option<Vec<Scalar>>| v.as_ref().map(|v| v[i.min(v.len() - 1)]);
                        math(fun, x[i], at(&y), at(&z))
                    })
                    .collect();
                Value::from_lanes(lanes, vector)
            }
            E::As {
                expr,
                kind,
                convert,
            } => {
                let v = self.get(frame, expr);
                let vector = matches!(v, Value::Vector(_));
                let lanes = v
                    .lanes()
                    .into_iter()
                    .map(|s| cast(s, kind, convert.is_some()))
                    .collect();
                Value::from_lanes(lanes, vector)
            }
            E::Relational {
                fun: naga::RelationalFunction::IsNan,
                argument,
            } => {
                let v = self.get(frame, argument);
                let vector = matches!(v, Value::Vector(_));
                let lanes = v
                    .lanes()
                    .into_iter()
                    .map(|s| match s {
                        Scalar::F(f) => Scalar::Bool(f.is_nan()),
                        other => panic!("isnan {other:?}"),
                    })
                    .collect();
                Value::from_lanes(lanes, vector)
            }
            E::Unary {
                op: naga::UnaryOperator::LogicalNot,
                expr,
            } => match self.get(frame, expr) {
                Value::Scalar(Scalar::Bool(b)) => Value::Scalar(Scalar::Bool(!b)),
                other => panic!("not {other:?}"),
            },
            E::ImageLoad {
                coordinate,
                array_index,
                ..
            } => {
                let coord = self.coordinates(frame, coordinate, array_index);
                Value::Vector(self.image.load(coord))
            }
            ref other => panic!("expression not interpreted: {other:?}"),
        }
    }
}

fn binary(op: B, l: Scalar, r: Scalar) -> Scalar {
    use Scalar::*;
    match (l, r) {
        (F(a), F(b)) => match op {
            B::Add => F(a + b),
            B::Subtract => F(a - b),
            B::Multiply => F(a * b),
            B::Divide => F(a / b),
            B::Less => Scalar::Bool(a < b),
            B::LessEqual => Scalar::Bool(a <= b),
            B::Greater => Scalar::Bool(a > b),
            B::GreaterEqual => Scalar::Bool(a >= b),
            B::Equal => Scalar::Bool(a == b),
            other => panic!("float {other:?}"),
        },
        (I(a), I(b)) => match op {
            B::Add => I(a.wrapping_add(b)),
            B::Subtract => I(a.wrapping_sub(b)),
            B::Multiply => I(a.wrapping_mul(b)),
            B::Less => Scalar::Bool(a < b),
            B::LessEqual => Scalar::Bool(a <= b),
            B::Greater => Scalar::Bool(a > b),
            B::GreaterEqual => Scalar::Bool(a >= b),
            B::Equal => Scalar::Bool(a == b),
            other => panic!("int {other:?}"),
        },
        (U(a), U(b)) => match op {
            B::Add => U(a.wrapping_add(b)),
            B::Subtract => U(a.wrapping_sub(b)),
            B::Multiply => U(a.wrapping_mul(b)),
            B::And => U(a & b),
            B::InclusiveOr => U(a | b),
            B::ShiftRight => U(a >> b),
            B::ShiftLeft => U(a << b),
            B::Less => Scalar::Bool(a < b),
            B::Greater => Scalar::Bool(a > b),
            B::GreaterEqual => Scalar::Bool(a >= b),
            B::Equal => Scalar::Bool(a == b),
            other => panic!("uint {other:?}"),
        },
        (Scalar::Bool(a), Scalar::Bool(b)) => match op {
            B::LogicalAnd => Scalar::Bool(a && b),
            B::LogicalOr => Scalar::Bool(a || b),
            other => panic!("bool {other:?}"),
        },
        other => panic!("mixed operands {other:?}"),
    }
}

fn math(fun: M, x: Scalar, y: Option<Scalar>, z: Option<Scalar>) -> Scalar {
    use Scalar::*;
    match (fun, x, y, z) {
        (M::Floor, F(a), ..) => F(a.floor()),
        (M::Round, F(a), ..) => F(a.round_ties_even()),
        (M::Abs, F(a), ..) => F(a.abs()),
        (M::Pow, F(a), Some(F(b)), _) => F(a.powf(b)),
        // FMin/FMax/FClamp: the operands here are never NaN.
        (M::Min, F(a), Some(F(b)), _) => F(a.min(b)),
        (M::Max, F(a), Some(F(b)), _) => F(a.max(b)),
        (M::Clamp, F(a), Some(F(lo)), Some(F(hi))) => F(a.max(lo).min(hi)),
        (M::Min, I(a), Some(I(b)), _) => I(a.min(b)),
        (M::Max, I(a), Some(I(b)), _) => I(a.max(b)),
        (M::Clamp, I(a), Some(I(lo)), Some(I(hi))) => I(a.max(lo).min(hi)),
        (M::Min, U(a), Some(U(b)), _) => U(a.min(b)),
        (M::Clamp, U(a), Some(U(lo)), Some(U(hi))) => U(a.max(lo).min(hi)),
        other => panic!("math {other:?}"),
    }
}

fn cast(s: Scalar, kind: naga::ScalarKind, convert: bool) -> Scalar {
    use naga::ScalarKind as K;
    use Scalar::*;
    match (s, kind, convert) {
        // naga clamps before converting; the image functions only convert
        // values in range.
        (F(f), K::Sint, true) => I(f as i32),
        (F(f), K::Uint, true) => U(f as u32),
        (I(i), K::Float, true) => F(i as f32),
        (U(u), K::Float, true) => F(u as f32),
        (U(u), K::Sint, true) => I(u as i32),
        (I(i), K::Uint, true) => U(i as u32),
        (F(f), K::Uint, false) => U(f.to_bits()),
        (U(u), K::Float, false) => F(f32::from_bits(u)),
        (F(f), K::Float, _) => F(f),
        other => panic!("cast {other:?}"),
    }
}
