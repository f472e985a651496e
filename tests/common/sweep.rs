//! Sweeps of built-in functions through the ICD: operand grids as typed
//! buffers, one generated kernel per function, element type and vector
//! width, and the results read back as host values to compare with a host
//! reference.
//!
//! Values travel as [`Value`]: integers as `i128` (every OpenCL integer
//! fits), floats as `f64` (every `float` and `double` fits exactly).

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;
use std::ptr;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Signed,
    Unsigned,
    Float,
}

/// An OpenCL C scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ty {
    pub name: &'static str,
    pub bytes: usize,
    pub kind: Kind,
}

pub const CHAR: Ty = Ty::new("char", 1, Kind::Signed);
pub const UCHAR: Ty = Ty::new("uchar", 1, Kind::Unsigned);
pub const SHORT: Ty = Ty::new("short", 2, Kind::Signed);
pub const USHORT: Ty = Ty::new("ushort", 2, Kind::Unsigned);
pub const INT: Ty = Ty::new("int", 4, Kind::Signed);
pub const UINT: Ty = Ty::new("uint", 4, Kind::Unsigned);
pub const LONG: Ty = Ty::new("long", 8, Kind::Signed);
pub const ULONG: Ty = Ty::new("ulong", 8, Kind::Unsigned);
pub const FLOAT: Ty = Ty::new("float", 4, Kind::Float);
pub const DOUBLE: Ty = Ty::new("double", 8, Kind::Float);

pub const INTEGERS: [Ty; 8] = [CHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG, ULONG];

impl Ty {
    const fn new(name: &'static str, bytes: usize, kind: Kind) -> Ty {
        Ty { name, bytes, kind }
    }

    pub fn bits(self) -> u32 {
        self.bytes as u32 * 8
    }

    pub fn signed(self) -> bool {
        self.kind == Kind::Signed
    }

    pub fn min(self) -> i128 {
        if self.signed() {
            -(1i128 << (self.bits() - 1))
        } else {
            0
        }
    }

    pub fn max(self) -> i128 {
        if self.signed() {
            (1i128 << (self.bits() - 1)) - 1
        } else {
            (1i128 << self.bits()) - 1
        }
    }

    /// `v` reduced modulo 2^bits into this type's range (C's conversion to
    /// an unsigned type, and two's complement for signed ones).
    pub fn wrap(self, v: i128) -> i128 {
        let bits = self.bits();
        let low = v & ((1i128 << bits) - 1);
        if self.signed() && low >> (bits - 1) != 0 {
            low - (1i128 << bits)
        } else {
            low
        }
    }

    pub fn saturate(self, v: i128) -> i128 {
        v.clamp(self.min(), self.max())
    }

    /// The unsigned type of the same width.
    pub fn unsigned(self) -> Ty {
        match self.bytes {
            1 => UCHAR,
            2 => USHORT,
            4 => UINT,
            _ => ULONG,
        }
    }

    /// The integer type of twice the width and the same signedness.
    pub fn widened(self) -> Ty {
        let index = INTEGERS.iter().position(|&t| t == self).expect("integer");
        INTEGERS[index + 2]
    }

    /// The OpenCL C vector type name (`char4`), or the scalar's for 1.
    pub fn vector(self, width: usize) -> String {
        if width == 1 {
            self.name.to_string()
        } else {
            format!("{}{width}", self.name)
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Int(i128),
    Float(f64),
}

impl Value {
    pub fn int(self) -> i128 {
        match self {
            Value::Int(v) => v,
            Value::Float(f) => panic!("{f} is not an integer"),
        }
    }

    pub fn float(self) -> f64 {
        match self {
            Value::Float(f) => f,
            Value::Int(v) => panic!("{v} is not a float"),
        }
    }
}

fn encode(ty: Ty, values: &[Value]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(values.len() * ty.bytes);
    for v in values {
        match (ty.kind, *v) {
            (Kind::Float, Value::Float(f)) if ty.bytes == 4 => {
                bytes.extend_from_slice(&(f as f32).to_le_bytes())
            }
            (Kind::Float, Value::Float(f)) => bytes.extend_from_slice(&f.to_le_bytes()),
            (_, Value::Int(i)) => bytes.extend_from_slice(&i.to_le_bytes()[..ty.bytes]),
            (_, v) => panic!("{v:?} is not a {}", ty.name),
        }
    }
    bytes
}

fn decode(ty: Ty, bytes: &[u8]) -> Vec<Value> {
    bytes
        .chunks_exact(ty.bytes)
        .map(|b| match ty.kind {
            Kind::Float if ty.bytes == 4 => {
                Value::Float(f64::from(f32::from_le_bytes(b.try_into().expect("4"))))
            }
            Kind::Float => Value::Float(f64::from_le_bytes(b.try_into().expect("8"))),
            _ => {
                let mut wide = [0u8; 16];
                wide[..ty.bytes].copy_from_slice(b);
                Value::Int(ty.wrap(i128::from_le_bytes(wide)))
            }
        })
        .collect()
}

/// A kernel `k` applying `call` (with `{0}`, `{1}`, ... for the operands)
/// element-wise over buffers of `args`, writing `result`, on vectors of
/// `width` (1: scalars) through `vload`/`vstore`.
pub fn kernel_source(args: &[Ty], result: Ty, width: usize, call: &str) -> String {
    let mut source = String::new();
    if args.iter().chain([&result]).any(|t| *t == DOUBLE) {
        source.push_str("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    }
    source.push_str("__kernel void k(");
    for (i, t) in args.iter().enumerate() {
        source.push_str(&format!("__global const {} *a{i}, ", t.name));
    }
    source.push_str(&format!(
        "__global {} *r) {{\n    size_t i = get_global_id(0);\n",
        result.name
    ));
    let mut call = call.to_string();
    for i in 0..args.len() {
        let operand = if width == 1 {
            format!("a{i}[i]")
        } else {
            format!("vload{width}(i, a{i})")
        };
        call = call.replace(&format!("{{{i}}}"), &operand);
    }
    if width == 1 {
        source.push_str(&format!("    r[i] = {call};\n}}\n"));
    } else {
        source.push_str(&format!("    vstore{width}({call}, i, r);\n}}\n"));
    }
    source
}

/// Builds `source` and runs its kernel `k` over `operands` (one column per
/// argument, all of one length) in vectors of `width`; returns the results
/// of the whole vectors (a tail shorter than `width` is left out).
pub fn run(
    context: &Context,
    queue: &CommandQueue,
    source: &str,
    operands: &[(Ty, &[Value])],
    result: Ty,
    width: usize,
) -> Vec<Value> {
    let count = operands[0].1.len() / width * width;
    launch(
        context,
        queue,
        source,
        operands,
        count / width,
        (result, count),
    )
}

/// Like [`run`] for a kernel that reduces each vector of `width` lanes of
/// its one operand to one `result`.
pub fn run_vectors(
    context: &Context,
    queue: &CommandQueue,
    source: &str,
    operand: (Ty, &[Value]),
    width: usize,
    result: Ty,
) -> Vec<Value> {
    let vectors = operand.1.len() / width;
    launch(
        context,
        queue,
        source,
        &[operand],
        vectors,
        (result, vectors),
    )
}

/// Runs kernel `k` of `source` on `work_items` work-items, with a buffer
/// per operand column and one for `results` values of their type.
fn launch(
    context: &Context,
    queue: &CommandQueue,
    source: &str,
    operands: &[(Ty, &[Value])],
    work_items: usize,
    (result, results): (Ty, usize),
) -> Vec<Value> {
    let program = Program::create_and_build_from_source(context, source, "-cl-std=CL3.0")
        .unwrap_or_else(|log| panic!("build failed:\n{log}\n{source}"));
    let kernel = Kernel::create(&program, "k").expect("kernel");
    let mut out = vec![0u8; results * result.bytes];
    // SAFETY: null host pointers; blocking transfers of exactly the
    // buffers' sizes; the kernel takes one buffer per operand and the
    // result buffer, and touches only what `work_items` cover.
    unsafe {
        let mut buffers = Vec::new();
        for (ty, values) in operands {
            let bytes = encode(*ty, values);
            let mut buffer =
                Buffer::<u8>::create(context, CL_MEM_READ_WRITE, bytes.len(), ptr::null_mut())
                    .expect("operand buffer");
            queue
                .enqueue_write_buffer(&mut buffer, CL_BLOCKING, 0, &bytes, &[])
                .expect("write");
            buffers.push(buffer);
        }
        let results = Buffer::<u8>::create(context, CL_MEM_READ_WRITE, out.len(), ptr::null_mut())
            .expect("result buffer");
        let mut launch = ExecuteKernel::new(&kernel);
        for buffer in &buffers {
            launch.set_arg(buffer);
        }
        launch
            .set_arg(&results)
            .set_global_work_size(work_items)
            .enqueue_nd_range(queue)
            .expect("launch");
        queue
            .enqueue_read_buffer(&results, CL_BLOCKING, 0, &mut out, &[])
            .expect("read");
    }
    decode(result, &out)
}

/// A xorshift stream, so operand sets are the same in every run.
pub struct Random(u64);

impl Random {
    pub fn new(seed: u64) -> Random {
        Random(seed | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value of integer type `ty`: mostly uniform bits, some shifted down
    /// so small magnitudes appear too.
    pub fn int(&mut self, ty: Ty) -> i128 {
        let bits = self.next();
        let shift = if bits & 3 == 0 {
            (self.next() % u64::from(ty.bits())) as u32
        } else {
            0
        };
        ty.wrap(i128::from(bits >> shift))
    }
}

/// The values every sweep of an integer type includes.
pub fn integer_edges(ty: Ty) -> Vec<i128> {
    let mut edges = vec![0, 1, 2, ty.max(), ty.max() - 1, ty.min(), ty.wrap(-1)];
    if ty.signed() {
        edges.extend([ty.min() + 1, -2]);
    }
    edges.push(1 << (ty.bits() / 2));
    edges.push((1 << (ty.bits() / 2)) - 1);
    edges.into_iter().map(|v| ty.wrap(v)).collect()
}

/// Values of the float type `ty` that stress conversions and comparisons:
/// signed zeros, infinities, NaN, subnormals, the neighbourhood of every
/// integer type's limits, halves and quarters, and random magnitudes and bit
/// patterns; 8,192 in all.
pub fn float_values(ty: Ty, random: &mut Random) -> Vec<Value> {
    let narrow = |v: f64| if ty == FLOAT { f64::from(v as f32) } else { v };
    let mut values = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::from(f32::MAX),
        f64::from(f32::MIN_POSITIVE),
        f64::from(f32::MIN_POSITIVE) / 8.0,
        -f64::from(f32::MIN_POSITIVE) / 8.0,
    ];
    if ty == DOUBLE {
        values.extend([f64::MAX, f64::MIN_POSITIVE, 5e-324, -5e-324, 1e300]);
        // Doubles that round to float differently in each mode.
        values.extend([
            1.0 + 2f64.powi(-30),
            -(1.0 + 2f64.powi(-30)),
            3.4028235677973366e38,
        ]);
    }
    // Around each integer type's limits: the limit itself, halves and the
    // nearest representable neighbours.
    for t in INTEGERS {
        for limit in [t.min() as f64, t.max() as f64] {
            for delta in [-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5] {
                let v = narrow(limit + delta);
                values.extend([v, narrow(next_up(ty, v)), narrow(next_down(ty, v))]);
            }
        }
    }
    for n in -40..40 {
        values.push(f64::from(n) / 2.0);
        values.push(f64::from(n) / 2.0 + 0.25);
    }
    while values.len() < 8192 {
        let bits = random.next();
        let v = match bits % 4 {
            // Any bit pattern.
            0 if ty == FLOAT => f64::from(f32::from_bits(bits as u32)),
            0 => f64::from_bits(bits),
            // Magnitudes where integer conversions are interesting.
            _ => {
                let exponent = (random.next() % 70) as i32 - 4;
                let mantissa = (random.next() >> 11) as f64 / (1u64 << 53) as f64 + 1.0;
                let sign = if bits & 8 == 0 { 1.0 } else { -1.0 };
                narrow(sign * mantissa * 2f64.powi(exponent))
            }
        };
        values.push(v);
    }
    values.into_iter().map(Value::Float).collect()
}

/// The next value of the float type `ty` above `v`.
pub fn next_up(ty: Ty, v: f64) -> f64 {
    if ty == FLOAT {
        f64::from((v as f32).next_up())
    } else {
        v.next_up()
    }
}

/// The next value of the float type `ty` below `v`.
pub fn next_down(ty: Ty, v: f64) -> f64 {
    if ty == FLOAT {
        f64::from((v as f32).next_down())
    } else {
        v.next_down()
    }
}
