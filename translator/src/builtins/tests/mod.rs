//! The built-in library's tests: names, overload resolution and its
//! errors by family; `memory` has those of the functions that take
//! pointers (loads and stores, address spaces, atomics, async copies).

mod images;
mod memory;

use super::atomics::C11_ATOMICS;
use super::resolve::EVENT;
use super::table::{overloads, GROUPS};
use super::*;
use crate::ast::AddressSpace;
use crate::hir::Names;
use crate::types::{Pointee, Scalar, Type, Types};

const CTX: BuiltinContext = BuiltinContext {
    size_type: Scalar::ULong,
    float64: true,
    float16: false,
    cl_std: (3, 0),
    image_3d_writes: true,
    subgroups: crate::caps::SubgroupOps::ALL,
};

fn v(s: Scalar, n: u8) -> Type {
    Type::Vector(s, n)
}

fn sc(s: Scalar) -> Type {
    Type::Scalar(s)
}

thread_local! {
    /// The types of every test's arguments, as a program's would be.
    static TYPES: std::cell::RefCell<Types> = std::cell::RefCell::new(Types::new(64));
}

fn ptr_to(ty: Type, space: AddressSpace, is_const: bool) -> Type {
    TYPES.with(|types| {
        types.borrow_mut().pointer(Pointee {
            ty,
            is_const,
            is_volatile: false,
            space,
            endian_host: false,
        })
    })
}

fn resolve(name: &str, args: &[Type], ctx: &BuiltinContext) -> Result<Resolved, String> {
    TYPES.with(|types| super::resolve(name, args, ctx, &mut types.borrow_mut(), &Names::default()))
}

fn ok(name: &str, args: &[Type]) -> Resolved {
    ok_in(name, args, &CTX)
}

fn ok_in(name: &str, args: &[Type], ctx: &BuiltinContext) -> Resolved {
    match resolve(name, args, ctx) {
        Ok(r) => r,
        Err(e) => panic!("{name}: {e}"),
    }
}

fn err(name: &str, args: &[Type]) -> String {
    err_in(name, args, &CTX)
}

fn err_in(name: &str, args: &[Type], ctx: &BuiltinContext) -> String {
    match resolve(name, args, ctx) {
        Ok(r) => panic!("{name} resolved to {r:?}"),
        Err(e) => e,
    }
}

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
fn every_name_round_trips_and_has_overloads() {
    for &b in Builtin::SIMPLE {
        let name = b.to_string();
        assert_eq!(Builtin::from_name(&name), Some(b), "{name}");
        assert!(!overloads(b).1.is_empty(), "{name} has no overloads");
    }
    // Each fixed name is in exactly one group.
    for &b in Builtin::SIMPLE {
        let groups = GROUPS.iter().filter(|g| g.functions.contains(&b)).count();
        assert_eq!(groups, 1, "{b}");
    }
    for name in [
        "atom_add",
        "atomic_cmpxchg",
        "vload3",
        "vstore16",
        "vload_half",
        "vload_half4",
        "vloada_half8",
        "vstore_half_rtz",
        "vstore_half2",
        "vstorea_half16_rtn",
        "convert_int",
        "convert_uchar4_sat_rte",
        "convert_float16_rtp",
        "as_uint3",
        "atomic_init",
        "atomic_load",
        "atomic_store_explicit",
        "atomic_compare_exchange_weak_explicit",
        "atomic_fetch_max",
        "atomic_fetch_xor_explicit",
        "atomic_flag_test_and_set",
        "atomic_flag_clear_explicit",
    ] {
        let b = Builtin::from_name(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(b.to_string(), name);
    }
    for name in [
        "vload1",
        "vload5",
        "vload04",
        "vload",
        "vstore_half_rtq",
        "vload_half_rte",
        "convert_bool",
        "convert_float_sat",
        "convert_int5",
        "convert_int_rte_sat",
        "as_bool",
        "atomic_nand",
        "atomic_init_explicit",
        "atomic_fetch_nand",
        "atom_load",
        "atom_fetch_add",
        "atomic_load_explicit_explicit",
    ] {
        assert_eq!(Builtin::from_name(name), None, "{name}");
    }
}

#[test]
fn every_c11_atomic_round_trips() {
    for row in C11_ATOMICS {
        let rows = C11_ATOMICS.iter().filter(|r| r.op == row.op).count();
        assert_eq!(rows, 1, "{}", row.name);
        for explicit in [false, true] {
            let b = Builtin::C11Atomic {
                op: row.op,
                explicit,
            };
            let name = b.to_string();
            if explicit && row.explicit.is_empty() {
                assert_eq!(Builtin::from_name(&name), None, "{name}");
                continue;
            }
            assert_eq!(Builtin::from_name(&name), Some(b), "{name}");
            assert!(!overloads(b).1.is_empty(), "{name} has no overloads");
        }
    }
}

#[test]
fn work_item_functions() {
    let r = ok("get_global_id", &[Type::INT]);
    assert_eq!(
        (r.builtin, r.params, r.result),
        (Builtin::GlobalId, vec![Type::UINT], sc(Scalar::ULong))
    );
    let ctx32 = BuiltinContext {
        size_type: Scalar::UInt,
        ..CTX
    };
    assert_eq!(
        ok_in("get_local_size", &[Type::UINT], &ctx32).result,
        Type::UINT
    );
    assert_eq!(ok("get_work_dim", &[]).result, Type::UINT);
    assert_eq!(ok("get_global_linear_id", &[]).result, sc(Scalar::ULong));
    assert!(err("get_global_id", &[Type::FLOAT]).starts_with("no matching function"));
    let cl12 = BuiltinContext {
        cl_std: (1, 2),
        ..CTX
    };
    assert_eq!(
        err_in("get_enqueued_local_size", &[Type::UINT], &cl12),
        "use of undeclared identifier 'get_enqueued_local_size' (it needs OpenCL C 2.0 or newer)"
    );
}

#[test]
fn arity_errors() {
    assert_eq!(
        err("sqrt", &[Type::INT, Type::INT]),
        "too many arguments to function call 'sqrt', expected 1, have 2"
    );
    assert_eq!(
        err("get_work_dim", &[Type::INT]),
        "too many arguments to function call 'get_work_dim', expected 0, have 1"
    );
    assert_eq!(
        err("fma", &[Type::FLOAT]),
        "too few arguments to function call 'fma', expected 3, have 1"
    );
    assert_eq!(
        err("work_group_barrier", &[]),
        "too few arguments to function call 'work_group_barrier', expected 1, have 0"
    );
    assert_eq!(
        err("nothing", &[]),
        "use of undeclared identifier 'nothing'"
    );
    assert_eq!(
        err("printf", &[]),
        "built-in function 'printf' is not supported yet by this translator"
    );
    assert_eq!(
        err("atomic_fetch_add", &[]),
        "too few arguments to function call 'atomic_fetch_add', expected 2, have 0"
    );
    assert_eq!(
        err("atomic_load_explicit", &[]),
        "too few arguments to function call 'atomic_load_explicit', expected 2, have 0"
    );
    assert_eq!(
        err("read_imagef", &[]),
        "too few arguments to function call 'read_imagef', expected 2, have 0"
    );
    assert!(err("get_image_num_samples", &[]).contains("not supported yet"));
    assert!(err("get_image_width", &[Type::INT]).contains("no matching function"));
    assert!(err("sub_group_block_read", &[Type::INT]).contains("not supported yet"));
    assert!(err("sub_group_reduce_add", &[]).contains("too few arguments"));
    let no_subgroups = BuiltinContext {
        subgroups: crate::caps::SubgroupOps::default(),
        ..CTX
    };
    assert!(
        err_in("sub_group_reduce_add", &[Type::INT], &no_subgroups).contains("no cl_khr_subgroups")
    );
    assert!(err("work_group_reserve_read_pipe", &[]).contains("not supported yet"));
    assert_eq!(
        err("work_group_reduce_mul", &[Type::INT]),
        "use of undeclared identifier 'work_group_reduce_mul'"
    );
    assert_eq!(
        err("atomic_foo", &[]),
        "use of undeclared identifier 'atomic_foo'"
    );
}

#[test]
fn math_gentypes_and_literals() {
    let f4 = v(Scalar::Float, 4);
    // An integer argument converts to the float gentype.
    let r = ok("sqrt", &[Type::INT]);
    assert_eq!((r.params, r.result), (vec![Type::FLOAT], Type::FLOAT));
    let r = ok("pow", &[Type::FLOAT, Type::INT]);
    assert_eq!(r.params, vec![Type::FLOAT, Type::FLOAT]);
    let r = ok("pow", &[f4, Type::INT]);
    assert_eq!(r.params, vec![f4, f4]);
    assert_eq!(
        ok("cos", &[v(Scalar::Double, 16)]).result,
        v(Scalar::Double, 16)
    );
    assert_eq!(
        ok("atan2", &[sc(Scalar::Double), Type::FLOAT]).result,
        sc(Scalar::Double)
    );
    // No implicit conversions between vector types.
    let e = err("pow", &[f4, v(Scalar::Float, 2)]);
    assert_eq!(
        e,
        "no matching function for call to 'pow' with arguments (float4, float2)"
    );
    assert!(resolve("sin", &[v(Scalar::Int, 4)], &CTX).is_err());
    // fmin/fmax take a scalar second argument, widened.
    let r = ok("fmin", &[f4, Type::FLOAT]);
    assert_eq!(
        (r.builtin, r.params, r.result),
        (Builtin::Fmin, vec![f4, f4], f4)
    );
    assert!(resolve("fmin", &[v(Scalar::Int, 4), Type::INT], &CTX).is_err());
    // ldexp/pown/rootn take int exponents; ldexp also a scalar int.
    let r = ok("ldexp", &[f4, Type::INT]);
    assert_eq!(r.params, vec![f4, Type::INT]);
    let r = ok("pown", &[f4, v(Scalar::Int, 4)]);
    assert_eq!(r.params[1], v(Scalar::Int, 4));
    assert!(resolve("pown", &[f4, v(Scalar::Int, 2)], &CTX).is_err());
    assert_eq!(
        ok("ilogb", &[v(Scalar::Double, 3)]).result,
        v(Scalar::Int, 3)
    );
    // nan: the code's size picks the float type.
    assert_eq!(ok("nan", &[v(Scalar::UInt, 4)]).result, f4);
    assert_eq!(ok("nan", &[sc(Scalar::ULong)]).result, sc(Scalar::Double));
    assert_eq!(ok("nan", &[Type::INT]).result, Type::FLOAT);
    // half_ and native_ are float only; a double argument converts.
    assert_eq!(ok("native_sin", &[sc(Scalar::Double)]).result, Type::FLOAT);
    assert!(resolve("half_cos", &[v(Scalar::Double, 2)], &CTX).is_err());
    assert_eq!(
        ok("native_divide", &[Type::FLOAT, Type::INT]).result,
        Type::FLOAT
    );
    assert_eq!(
        ok("mad", &[Type::FLOAT, Type::FLOAT, Type::INT]).builtin,
        Builtin::Mad
    );
}

#[test]
fn double_and_half_gating() {
    let no_fp64 = BuiltinContext {
        float64: false,
        ..CTX
    };
    // Without fp64 a double argument has no overload (the checker
    // would not let one exist; this is the table's own gate).
    assert!(resolve("sqrt", &[v(Scalar::Double, 2)], &no_fp64).is_err());
    assert_eq!(
        ok_in("sqrt", &[sc(Scalar::Double)], &no_fp64).result,
        Type::FLOAT
    );
    assert!(resolve("nan", &[sc(Scalar::ULong)], &no_fp64).is_err());
    assert!(err_in("convert_double", &[Type::INT], &no_fp64).contains("cl_khr_fp64"));
    assert!(err("as_half2", &[Type::INT]).contains("cl_khr_fp16"));
    assert!(resolve("sqrt", &[v(Scalar::Half, 4)], &CTX).is_err());
    let fp16 = BuiltinContext {
        float16: true,
        ..CTX
    };
    assert_eq!(
        ok_in("sqrt", &[v(Scalar::Half, 4)], &fp16).result,
        v(Scalar::Half, 4)
    );
    assert_eq!(
        ok_in("isnan", &[v(Scalar::Half, 4)], &fp16).result,
        v(Scalar::Short, 4)
    );
    assert_eq!(
        ok_in("convert_half", &[Type::FLOAT], &fp16).result,
        sc(Scalar::Half)
    );
    // vstore_half of a double needs fp64; of a float, nothing.
    let hp = ptr_to(sc(Scalar::Half), AddressSpace::Global, false);
    let args = [sc(Scalar::Double), Type::INT, hp];
    assert_eq!(ok("vstore_half", &args).params[0], sc(Scalar::Double));
    assert_eq!(ok_in("vstore_half", &args, &no_fp64).params[0], Type::FLOAT);
    assert!(resolve(
        "vstore_half2",
        &[v(Scalar::Double, 2), Type::INT, hp],
        &no_fp64
    )
    .is_err());
}

#[test]
fn integer_functions() {
    use Scalar::*;
    assert_eq!(ok("abs", &[Type::INT]).result, Type::UINT);
    assert_eq!(ok("abs", &[v(Char, 16)]).result, v(UChar, 16));
    assert_eq!(
        ok("abs_diff", &[v(Long, 2), v(Long, 2)]).result,
        v(ULong, 2)
    );
    assert!(resolve("abs", &[Type::FLOAT], &CTX).is_err());
    // min(char, char) stays char; mixed types use the usual conversions.
    assert_eq!(ok("min", &[sc(Char), sc(Char)]).result, sc(Char));
    assert_eq!(ok("max", &[Type::INT, Type::UINT]).result, Type::UINT);
    assert_eq!(ok("max", &[Type::FLOAT, Type::INT]).result, Type::FLOAT);
    let r = ok("clamp", &[v(UInt, 8), Type::INT, Type::INT]);
    assert_eq!(r.params, vec![v(UInt, 8); 3]);
    let r = ok("clamp", &[Type::FLOAT, Type::INT, Type::INT]);
    assert_eq!(r.result, Type::FLOAT);
    for name in ["add_sat", "hadd", "rhadd", "sub_sat", "mul_hi", "rotate"] {
        assert_eq!(
            ok(name, &[v(UShort, 3), v(UShort, 3)]).result,
            v(UShort, 3),
            "{name}"
        );
    }
    assert_eq!(
        ok("mad_sat", &[Type::INT, Type::INT, Type::INT]).result,
        Type::INT
    );
    assert_eq!(
        ok("mad_hi", &[v(ULong, 4), v(ULong, 4), v(ULong, 4)]).result,
        v(ULong, 4)
    );
    assert_eq!(ok("clz", &[sc(UChar)]).result, sc(UChar));
    assert_eq!(ok("popcount", &[v(Int, 2)]).result, v(Int, 2));
    let cl12 = BuiltinContext {
        cl_std: (1, 2),
        ..CTX
    };
    assert!(err_in("ctz", &[Type::INT], &cl12).contains("2.0"));
    assert_eq!(ok("ctz", &[Type::INT]).result, Type::INT);
    // upsample: twice as wide, signedness of the high half.
    assert_eq!(ok("upsample", &[sc(Char), sc(UChar)]).result, sc(Short));
    assert_eq!(
        ok("upsample", &[v(UInt, 4), v(UInt, 4)]).result,
        v(ULong, 4)
    );
    assert_eq!(
        ok("upsample", &[v(Short, 2), v(UShort, 2)]).result,
        v(Int, 2)
    );
    assert!(resolve("upsample", &[v(Short, 2), v(Short, 2)], &CTX).is_err());
    assert!(resolve("upsample", &[sc(Long), sc(ULong)], &CTX).is_err());
    // mad24/mul24: 32-bit only; smaller integers promote.
    assert_eq!(
        ok("mad24", &[sc(Char), sc(Char), sc(Char)]).result,
        Type::INT
    );
    assert_eq!(ok("mul24", &[v(UInt, 4), v(UInt, 4)]).result, v(UInt, 4));
    assert!(resolve("mul24", &[v(Long, 4), v(Long, 4)], &CTX).is_err());
}

#[test]
fn common_and_geometric_functions() {
    use Scalar::*;
    let f4 = v(Float, 4);
    let r = ok("mix", &[f4, f4, Type::FLOAT]);
    assert_eq!(r.params, vec![f4; 3]);
    let r = ok("step", &[Type::FLOAT, f4]);
    assert_eq!((r.params, r.result), (vec![f4, f4], f4));
    let r = ok("smoothstep", &[Type::INT, Type::FLOAT, v(Double, 2)]);
    assert_eq!(r.result, v(Double, 2));
    assert_eq!(ok("sign", &[Type::INT]).result, Type::FLOAT);
    assert_eq!(ok("degrees", std::slice::from_ref(&f4)).result, f4.clone());
    assert!(resolve("mix", &[v(Int, 4), v(Int, 4), Type::INT], &CTX).is_err());
    assert_eq!(ok("cross", &[v(Float, 3), v(Float, 3)]).result, v(Float, 3));
    assert!(resolve("cross", &[v(Float, 2), v(Float, 2)], &CTX).is_err());
    assert!(resolve("cross", &[Type::FLOAT, Type::FLOAT], &CTX).is_err());
    assert_eq!(ok("dot", &[f4, f4]).result, Type::FLOAT);
    assert_eq!(ok("dot", &[Type::FLOAT, Type::FLOAT]).result, Type::FLOAT);
    assert_eq!(
        ok("distance", &[v(Double, 3), v(Double, 3)]).result,
        sc(Double)
    );
    assert_eq!(ok("length", &[v(Float, 2)]).result, Type::FLOAT);
    assert_eq!(
        ok("normalize", std::slice::from_ref(&f4)).result,
        f4.clone()
    );
    assert!(resolve("length", &[v(Float, 8)], &CTX).is_err());
    assert_eq!(
        ok("fast_length", std::slice::from_ref(&f4)).result,
        Type::FLOAT
    );
    assert!(resolve("fast_normalize", &[v(Double, 4)], &CTX).is_err());
}

#[test]
fn relational_functions() {
    use Scalar::*;
    assert_eq!(ok("isequal", &[Type::FLOAT, Type::FLOAT]).result, Type::INT);
    assert_eq!(ok("isless", &[v(Float, 4), v(Float, 4)]).result, v(Int, 4));
    assert_eq!(ok("isnan", &[v(Double, 2)]).result, v(Long, 2));
    assert_eq!(ok("isinf", &[sc(Double)]).result, Type::INT);
    assert_eq!(ok("signbit", &[v(Float, 3)]).result, v(Int, 3));
    assert_eq!(ok("any", &[v(Int, 4)]).result, Type::INT);
    assert_eq!(ok("all", &[sc(Char)]).result, Type::INT);
    assert!(resolve("any", &[v(UInt, 4)], &CTX).is_err());
    assert!(resolve("any", &[v(Float, 4)], &CTX).is_err());
    assert_eq!(
        ok("bitselect", &[v(UInt, 2), v(UInt, 2), v(UInt, 2)]).result,
        v(UInt, 2)
    );
    assert_eq!(
        ok("bitselect", &[v(Float, 2), v(Float, 2), v(Float, 2)]).result,
        v(Float, 2)
    );
    // select: the mask is any integer of the element's size.
    let r = ok("select", &[v(Float, 4), v(Float, 4), v(UInt, 4)]);
    assert_eq!((r.params[2], r.result), (v(UInt, 4), v(Float, 4)));
    assert_eq!(
        ok("select", &[v(Double, 2), v(Double, 2), v(Long, 2)]).result,
        v(Double, 2)
    );
    assert!(resolve("select", &[v(Double, 2), v(Double, 2), v(Int, 2)], &CTX).is_err());
    assert!(resolve("select", &[v(Float, 4), v(Float, 4), Type::INT], &CTX).is_err());
    let r = ok("select", &[sc(Short), sc(Short), Type::INT]);
    assert_eq!(r.params[2], sc(Short));
    let r = ok("select", &[Type::FLOAT, Type::FLOAT, Type::UINT]);
    assert_eq!(r.params[2], Type::UINT);
}

#[test]
fn shuffles() {
    use Scalar::*;
    // The mask's width is the result's; its element is the unsigned
    // integer of the element's size.
    let r = ok("shuffle", &[v(Float, 4), v(UInt, 8)]);
    assert_eq!(
        (r.builtin, r.params, r.result),
        (Builtin::Shuffle, vec![v(Float, 4), v(UInt, 8)], v(Float, 8))
    );
    for m in [2, 4, 8, 16] {
        for n in [2, 4, 8, 16] {
            for (x, mask) in [
                (Char, UChar),
                (UChar, UChar),
                (Short, UShort),
                (UShort, UShort),
                (Int, UInt),
                (UInt, UInt),
                (Long, ULong),
                (ULong, ULong),
                (Float, UInt),
                (Double, ULong),
            ] {
                assert_eq!(ok("shuffle", &[v(x, m), v(mask, n)]).result, v(x, n));
                assert_eq!(
                    ok("shuffle2", &[v(x, m), v(x, m), v(mask, n)]).result,
                    v(x, n)
                );
            }
        }
    }
    assert_eq!(
        ok("shuffle2", &[v(Double, 2), v(Double, 2), v(ULong, 16)]).result,
        v(Double, 16)
    );
    // Wrong mask types: signed, another size, scalar, 3 lanes.
    assert_eq!(
        err("shuffle", &[v(Float, 4), v(Int, 4)]),
        "no matching function for call to 'shuffle' with arguments (float4, int4)"
    );
    assert!(resolve("shuffle", &[v(Float, 4), v(UShort, 4)], &CTX).is_err());
    assert!(resolve("shuffle", &[v(Char, 4), v(UInt, 4)], &CTX).is_err());
    assert!(resolve("shuffle", &[v(Float, 4), Type::UINT], &CTX).is_err());
    assert!(resolve("shuffle", &[v(Float, 4), v(UInt, 3)], &CTX).is_err());
    assert!(resolve("shuffle", &[v(Float, 4), v(Float, 4)], &CTX).is_err());
    // x is a 2-, 4-, 8- or 16-vector; shuffle2's x and y agree.
    assert!(resolve("shuffle", &[v(Float, 3), v(UInt, 4)], &CTX).is_err());
    assert!(resolve("shuffle", &[Type::FLOAT, v(UInt, 4)], &CTX).is_err());
    assert!(resolve("shuffle2", &[v(Float, 4), v(Float, 8), v(UInt, 4)], &CTX).is_err());
    assert!(resolve("shuffle2", &[v(Float, 4), v(Int, 4), v(UInt, 4)], &CTX).is_err());
    assert!(err("shuffle2", &[v(Float, 4), v(UInt, 4)]).starts_with("too few arguments"));
    // half needs fp16, double fp64; shuffle is OpenCL C 1.0.
    assert!(resolve("shuffle", &[v(Half, 4), v(UShort, 4)], &CTX).is_err());
    let fp16 = BuiltinContext {
        float16: true,
        ..CTX
    };
    assert_eq!(
        ok_in("shuffle", &[v(Half, 4), v(UShort, 2)], &fp16).result,
        v(Half, 2)
    );
    let no_fp64 = BuiltinContext {
        float64: false,
        ..CTX
    };
    assert!(resolve("shuffle", &[v(Double, 4), v(ULong, 4)], &no_fp64).is_err());
    let cl10 = BuiltinContext {
        cl_std: (1, 0),
        ..CTX
    };
    assert_eq!(
        ok_in("shuffle", &[v(Int, 16), v(UInt, 4)], &cl10).result,
        v(Int, 4)
    );
}

#[test]
fn work_group_collectives() {
    use Scalar::*;
    for name in ["work_group_all", "work_group_any"] {
        let r = ok(name, &[sc(Char)]);
        assert_eq!((r.params, r.result), (vec![Type::INT], Type::INT));
        assert!(resolve(name, &[v(Int, 4)], &CTX).is_err());
    }
    let fp16 = BuiltinContext {
        float16: true,
        ..CTX
    };
    let ops = [
        "work_group_reduce_add",
        "work_group_reduce_min",
        "work_group_reduce_max",
        "work_group_scan_exclusive_add",
        "work_group_scan_exclusive_min",
        "work_group_scan_exclusive_max",
        "work_group_scan_inclusive_add",
        "work_group_scan_inclusive_min",
        "work_group_scan_inclusive_max",
    ];
    for name in ops {
        for s in [Int, UInt, Long, ULong, Float, Double] {
            let r = ok(name, &[sc(s)]);
            assert_eq!((r.params, r.result), (vec![sc(s)], sc(s)), "{name}");
        }
        // Smaller integers promote to int; no vectors.
        assert_eq!(ok(name, &[sc(UShort)]).result, Type::INT);
        // (Without fp16 a half argument converts to float, as for the
        // math functions; the checker has no half values then.)
        assert_eq!(ok(name, &[sc(Half)]).result, Type::FLOAT);
        assert_eq!(ok_in(name, &[sc(Half)], &fp16).result, sc(Half));
        assert!(resolve(name, &[v(Float, 4)], &CTX).is_err());
        assert!(resolve(name, &[v(Int, 2)], &CTX).is_err());
    }
    // Broadcast: a 1-, 2- or 3-dimensional local id of size_t.
    let r = ok("work_group_broadcast", &[Type::FLOAT, Type::INT]);
    assert_eq!(
        (r.builtin, r.params, r.result),
        (
            Builtin::WorkGroupBroadcast,
            vec![Type::FLOAT, sc(ULong)],
            Type::FLOAT
        )
    );
    let r = ok(
        "work_group_broadcast",
        &[sc(Long), Type::UINT, Type::UINT, Type::UINT],
    );
    assert_eq!(r.params, vec![sc(Long), sc(ULong), sc(ULong), sc(ULong)]);
    assert_eq!(
        ok("work_group_broadcast", &[sc(Double), Type::INT, Type::INT]).result,
        sc(Double)
    );
    assert_eq!(
        ok_in("work_group_broadcast", &[sc(Half), Type::INT], &fp16).result,
        sc(Half)
    );
    assert!(resolve("work_group_broadcast", &[v(UInt, 2), Type::INT], &CTX).is_err());
    assert!(resolve("work_group_broadcast", &[Type::INT, Type::FLOAT], &CTX).is_err());
    assert_eq!(
        err(
            "work_group_broadcast",
            &[Type::INT, Type::INT, Type::INT, Type::INT, Type::INT]
        ),
        "too many arguments to function call 'work_group_broadcast', expected 4, have 5"
    );
    assert!(err("work_group_broadcast", &[Type::INT]).starts_with("too few arguments"));
    let cl12 = BuiltinContext {
        cl_std: (1, 2),
        ..CTX
    };
    for name in ops
        .iter()
        .chain(&["work_group_all", "work_group_broadcast"])
    {
        assert_eq!(
            err_in(name, &[Type::INT, Type::INT], &cl12),
            format!("use of undeclared identifier '{name}' (it needs OpenCL C 2.0 or newer)")
        );
    }
}

#[test]
fn conversions() {
    use Scalar::*;
    let r = ok("convert_int4_sat_rte", &[v(Float, 4)]);
    let c = Conversion {
        to: Int,
        width: 4,
        saturate: true,
        rounding: Rounding::Rte,
    };
    assert_eq!(
        (r.builtin, r.params, r.result),
        (Builtin::Convert(c), vec![v(Float, 4)], v(Int, 4))
    );
    assert_eq!(ok("convert_float", &[sc(ULong)]).result, Type::FLOAT);
    assert_eq!(
        ok("convert_uchar_sat", &[Type::BOOL]).params,
        vec![Type::INT]
    );
    assert_eq!(
        ok("convert_double16_rtn", &[v(Char, 16)]).result,
        v(Double, 16)
    );
    assert_eq!(
        err("convert_int4", &[v(Float, 2)]),
        "no matching function for call to 'convert_int4' with arguments (float2)"
    );
    assert!(resolve("convert_int4", &[Type::FLOAT], &CTX).is_err());
    assert!(resolve("convert_int", &[v(Float, 4)], &CTX).is_err());
    assert!(err("convert_int", &[]).starts_with("too few arguments"));
    assert_eq!(
        err("convert_float_sat", &[Type::INT]),
        "use of undeclared identifier 'convert_float_sat'"
    );
}

#[test]
fn reinterpretations() {
    use Scalar::*;
    let r = ok("as_uint", &[Type::FLOAT]);
    assert_eq!(
        (r.builtin, r.params, r.result),
        (Builtin::As(UInt, 1), vec![Type::FLOAT], Type::UINT)
    );
    assert_eq!(ok("as_float4", &[v(Int, 4)]).result, v(Float, 4));
    assert_eq!(ok("as_char8", &[sc(Double)]).result, v(Char, 8));
    // 3-vectors are the size of 4-vectors.
    assert_eq!(ok("as_float3", &[v(Int, 4)]).result, v(Float, 3));
    assert_eq!(ok("as_int4", &[v(Float, 3)]).result, v(Int, 4));
    assert_eq!(ok("as_char4", &[v(Char, 3)]).result, v(Char, 4));
    assert_eq!(
        err("as_int", &[sc(Short)]),
        "no matching function for call to 'as_int' with arguments (short)"
    );
    assert!(resolve("as_float2", &[v(Float, 4)], &CTX).is_err());
    assert!(resolve("as_int", &[Type::BOOL], &CTX).is_err());
}

#[test]
fn predefined_constants() {
    let value = |n: &str| {
        PREDEFINED_CONSTANTS
            .iter()
            .find(|c| c.0 == n)
            .map(|c| (c.1, c.2))
    };
    assert_eq!(value("CLK_LOCAL_MEM_FENCE"), Some((Scalar::UInt, 1)));
    assert_eq!(value("CLK_GLOBAL_MEM_FENCE"), Some((Scalar::UInt, 2)));
    assert_eq!(value("memory_order_seq_cst"), Some((Scalar::Int, 5)));
    assert_eq!(value("memory_scope_device"), Some((Scalar::Int, 2)));
}
