//! Tests of the built-ins that take pointers: out-parameters, vector
//! loads and stores, the address space qualifier functions, the atomics
//! and async copies.

use super::*;

#[test]
fn pointer_out_parameters() {
    let f4 = v(Scalar::Float, 4);
    for space in [
        AddressSpace::Private,
        AddressSpace::Global,
        AddressSpace::Local,
        AddressSpace::Generic,
    ] {
        let p = ptr_to(f4, space, false);
        let r = ok("sincos", &[f4, p]);
        assert_eq!((r.params, r.result), (vec![f4, p], f4));
    }
    // Not through __constant or const, and the pointee must match.
    let e = err("sincos", &[f4, ptr_to(f4, AddressSpace::Constant, false)]);
    assert_eq!(
        e,
        "no matching function for call to 'sincos' with arguments (float4, __constant float4*)"
    );
    assert!(resolve("modf", &[f4, ptr_to(f4, AddressSpace::Private, true)], &CTX).is_err());
    // A pointer to another type converts to the one wanted, as clang
    // converts it (with a warning the checker gives).
    let r = ok(
        "fract",
        &[f4, ptr_to(Type::FLOAT, AddressSpace::Private, false)],
    );
    assert_eq!(r.params[1], ptr_to(f4, AddressSpace::Private, false));
    // The pointer decides the gentype for a literal first argument.
    let dp = ptr_to(sc(Scalar::Double), AddressSpace::Private, false);
    let r = ok("fract", &[Type::INT, dp]);
    assert_eq!(r.result, sc(Scalar::Double));
    // frexp, lgamma_r, remquo write ints of the gentype's width.
    let i4 = ptr_to(v(Scalar::Int, 4), AddressSpace::Private, false);
    assert_eq!(ok("frexp", &[f4, i4]).result, f4.clone());
    assert_eq!(ok("remquo", &[f4, f4, i4]).result, f4.clone());
    // An `int *` converts to the `int4 *` wanted, as clang converts it.
    let r = ok(
        "lgamma_r",
        &[f4, ptr_to(Type::INT, AddressSpace::Private, false)],
    );
    assert_eq!(r.params[1], i4);
    assert_eq!(
        ok(
            "lgamma_r",
            &[Type::FLOAT, ptr_to(Type::INT, AddressSpace::Local, false)]
        )
        .result,
        Type::FLOAT
    );
}

#[test]
fn vector_loads_and_stores() {
    use Scalar::*;
    let constant = ptr_to(Type::FLOAT, AddressSpace::Constant, true);
    let r = ok("vload4", &[Type::INT, constant]);
    assert_eq!(
        (r.builtin, r.params, r.result),
        (Builtin::Vload(4), vec![sc(ULong), constant], v(Float, 4))
    );
    let local = ptr_to(sc(UChar), AddressSpace::Local, false);
    assert_eq!(ok("vload3", &[Type::UINT, local]).result, v(UChar, 3));
    assert!(resolve(
        "vload4",
        &[Type::INT, ptr_to(v(Float, 4), AddressSpace::Global, false)],
        &CTX
    )
    .is_err());
    // Stores: data of the pointee type and width, never to __constant
    // or through const.
    let global = ptr_to(Type::FLOAT, AddressSpace::Global, false);
    let r = ok("vstore8", &[v(Float, 8), Type::INT, global]);
    assert_eq!((r.params[2], r.result), (global, Type::Void));
    let e = err("vstore4", &[v(Float, 4), Type::INT, constant]);
    assert_eq!(
        e,
        "no matching function for call to 'vstore4' with arguments (float4, int, __constant const float*)"
    );
    assert!(resolve(
        "vstore4",
        &[
            v(Float, 4),
            Type::INT,
            ptr_to(Type::FLOAT, AddressSpace::Global, true)
        ],
        &CTX
    )
    .is_err());
    assert!(resolve("vstore4", &[v(Int, 4), Type::INT, global], &CTX).is_err());
    assert!(resolve("vstore4", &[v(Float, 2), Type::INT, global], &CTX).is_err());
    // The half forms read and write half, convert from/to float.
    let half_c = ptr_to(sc(Half), AddressSpace::Constant, true);
    assert_eq!(ok("vload_half", &[Type::INT, half_c]).result, Type::FLOAT);
    assert_eq!(ok("vloada_half3", &[Type::INT, half_c]).result, v(Float, 3));
    let half_g = ptr_to(sc(Half), AddressSpace::Global, false);
    let r = ok("vstore_half4_rtz", &[v(Float, 4), Type::INT, half_g]);
    assert_eq!(r.builtin, Builtin::VstoreHalf(4, Rounding::Rtz));
    let r = ok("vstorea_half_rte", &[Type::INT, Type::INT, half_g]);
    assert_eq!(r.params[0], Type::FLOAT);
    assert!(resolve("vstore_half", &[Type::FLOAT, Type::INT, half_c], &CTX).is_err());
}

#[test]
fn synchronization_and_atomics() {
    use Scalar::*;
    let r = ok("barrier", &[Type::UINT]);
    assert_eq!((r.params, r.result), (vec![Type::UINT], Type::Void));
    assert_eq!(ok("mem_fence", &[Type::INT]).params, vec![Type::UINT]);
    assert_eq!(
        ok("work_group_barrier", &[Type::UINT, Type::INT])
            .params
            .len(),
        2
    );
    assert_eq!(
        ok(
            "atomic_work_item_fence",
            &[Type::UINT, Type::INT, Type::INT]
        )
        .result,
        Type::Void
    );
    let gi = ptr_to(Type::INT, AddressSpace::Global, false);
    let r = ok("atomic_add", &[gi, Type::UINT]);
    assert_eq!(
        (r.builtin, r.params, r.result),
        (
            Builtin::Atomic {
                op: AtomicOp::Add,
                legacy: false
            },
            vec![gi, Type::INT],
            Type::INT
        )
    );
    let lu = ptr_to(Type::UINT, AddressSpace::Local, false);
    assert_eq!(
        ok("atomic_inc", std::slice::from_ref(&lu)).result,
        Type::UINT
    );
    assert_eq!(
        ok("atom_cmpxchg", &[lu, Type::INT, Type::INT]).params[1],
        Type::UINT
    );
    assert!(resolve(
        "atomic_add",
        &[ptr_to(Type::INT, AddressSpace::Private, false), Type::INT],
        &CTX
    )
    .is_err());
    let gf = ptr_to(Type::FLOAT, AddressSpace::Global, false);
    assert_eq!(ok("atomic_xchg", &[gf, Type::FLOAT]).result, Type::FLOAT);
    assert!(resolve("atomic_add", &[gf, Type::FLOAT], &CTX).is_err());
    let gl = ptr_to(sc(Long), AddressSpace::Global, false);
    assert_eq!(ok("atom_max", &[gl, Type::INT]).result, sc(Long));
    assert!(resolve("atomic_max", &[gl, Type::INT], &CTX).is_err());
    assert!(err("atomic_inc", &[]).starts_with("too few arguments"));
}

#[test]
fn address_space_qualifier_functions() {
    use Scalar::*;
    let generic = ptr_to(v(Float, 4), AddressSpace::Generic, false);
    let r = ok("to_global", std::slice::from_ref(&generic));
    assert_eq!(
        (r.builtin, r.params, r.result),
        (
            Builtin::ToGlobal,
            vec![generic],
            ptr_to(v(Float, 4), AddressSpace::Global, false)
        )
    );
    // Any pointee, qualifiers kept, from any space but __constant.
    let const_global = ptr_to(Type::INT, AddressSpace::Global, true);
    assert_eq!(
        ok("to_local", std::slice::from_ref(&const_global)).result,
        ptr_to(Type::INT, AddressSpace::Local, true)
    );
    let void_local = ptr_to(Type::Void, AddressSpace::Local, false);
    assert_eq!(
        ok("to_private", std::slice::from_ref(&void_local)).result,
        ptr_to(Type::Void, AddressSpace::Private, false)
    );
    let private = ptr_to(sc(Char), AddressSpace::Private, false);
    assert_eq!(
        ok("to_global", std::slice::from_ref(&private)).result,
        ptr_to(sc(Char), AddressSpace::Global, false)
    );
    for p in [&generic, &const_global, &void_local, &private] {
        let r = ok("get_fence", std::slice::from_ref(p));
        assert_eq!((r.builtin, r.result), (Builtin::GetFence, Type::UINT));
    }
    let constant = ptr_to(Type::FLOAT, AddressSpace::Constant, true);
    for name in ["to_global", "to_local", "to_private", "get_fence"] {
        assert_eq!(
            err(name, std::slice::from_ref(&constant)),
            format!("no matching function for call to '{name}' with arguments (__constant const float*)")
        );
        assert!(resolve(name, &[Type::INT], &CTX).is_err());
        assert!(err(name, &[]).starts_with("too few arguments"));
        let cl12 = BuiltinContext {
            cl_std: (1, 2),
            ..CTX
        };
        assert_eq!(
            err_in(name, std::slice::from_ref(&generic), &cl12),
            format!("use of undeclared identifier '{name}' (it needs OpenCL C 2.0 or newer)")
        );
    }
}

#[test]
fn c11_atomics() {
    use AddressSpace::*;
    use Scalar::*;
    let c11 = |op, explicit| Builtin::C11Atomic { op, explicit };
    let gi = ptr_to(Type::INT, Global, false);
    // atomic_init and atomic_store take the value type.
    let r = ok("atomic_init", &[gi, Type::UINT]);
    assert_eq!(
        (r.builtin, r.params, r.result),
        (
            c11(C11AtomicOp::Init, false),
            vec![gi, Type::INT],
            Type::Void
        )
    );
    let gf = ptr_to(Type::FLOAT, Generic, false);
    assert_eq!(
        ok("atomic_store", &[gf, Type::INT]).params,
        vec![gf, Type::FLOAT]
    );
    let lu = ptr_to(Type::UINT, Local, false);
    let r = ok(
        "atomic_store_explicit",
        &[lu, Type::INT, Type::INT, Type::INT],
    );
    assert_eq!(
        (r.builtin, r.params, r.result),
        (
            c11(C11AtomicOp::Store, true),
            vec![lu, Type::UINT, Type::INT, Type::INT],
            Type::Void
        )
    );
    assert_eq!(
        ok("atomic_store_explicit", &[lu, Type::INT, Type::INT]).result,
        Type::Void
    );
    assert_eq!(
        err("atomic_store_explicit", &[lu, Type::INT]),
        "too few arguments to function call 'atomic_store_explicit', expected 3, have 2"
    );
    assert_eq!(
        err("atomic_store", &[lu, Type::INT, Type::INT]),
        "too many arguments to function call 'atomic_store', expected 2, have 3"
    );
    // Every value type: int, uint, long, ulong, float, double (and the
    // pointer-sized ones, which are among these).
    for s in [Int, UInt, Long, ULong, Float, Double] {
        for space in [Global, Local, Generic, Private] {
            let p = ptr_to(sc(s), space, false);
            assert_eq!(ok("atomic_load", std::slice::from_ref(&p)).result, sc(s));
            assert_eq!(ok("atomic_load_explicit", &[p, Type::INT]).result, sc(s));
            assert_eq!(
                ok("atomic_load_explicit", &[p, Type::INT, Type::INT]).result,
                sc(s)
            );
            assert_eq!(ok("atomic_exchange", &[p, Type::INT]).result, sc(s));
            assert_eq!(
                ok(
                    "atomic_exchange_explicit",
                    &[p, Type::INT, Type::INT, Type::INT]
                )
                .result,
                sc(s)
            );
            let expected = ptr_to(sc(s), Private, false);
            for name in [
                "atomic_compare_exchange_strong",
                "atomic_compare_exchange_weak",
            ] {
                let r = ok(name, &[p, expected, Type::INT]);
                assert_eq!((r.params[2], r.result), (sc(s), Type::BOOL), "{name}");
                let explicit = format!("{name}_explicit");
                let mut args = vec![p, expected, Type::INT, Type::INT, Type::INT];
                assert_eq!(ok(&explicit, &args).result, Type::BOOL);
                args.push(Type::INT);
                assert_eq!(ok(&explicit, &args).result, Type::BOOL);
                assert!(err(&explicit, &args[..4]).starts_with("too few arguments"));
            }
        }
    }
    // Other element types and vectors have no atomic type.
    for t in [sc(Short), sc(UChar), v(Int, 2)] {
        let p = ptr_to(t, Global, false);
        assert!(resolve("atomic_load", std::slice::from_ref(&p), &CTX).is_err());
    }
    // double needs fp64.
    let no_fp64 = BuiltinContext {
        float64: false,
        ..CTX
    };
    let gd = ptr_to(sc(Double), Global, false);
    assert!(resolve("atomic_load", std::slice::from_ref(&gd), &no_fp64).is_err());
    // compare-exchange: `expected` points to the value type, anywhere
    // but __constant, and is written.
    for space in [Global, Local, Generic] {
        let e = ptr_to(Type::INT, space, false);
        assert!(resolve("atomic_compare_exchange_strong", &[gi, e, Type::INT], &CTX).is_ok());
    }
    for e in [
        ptr_to(Type::INT, Constant, true),
        ptr_to(Type::INT, Private, true),
        ptr_to(Type::UINT, Private, false),
        Type::INT,
    ] {
        assert!(resolve("atomic_compare_exchange_weak", &[gi, e, Type::INT], &CTX).is_err());
    }
    // Fetch-and-modify: integers; a pointer-sized unsigned object
    // takes a ptrdiff_t operand, converted.
    for key in ["add", "sub", "or", "xor", "and", "min", "max"] {
        let name = format!("atomic_fetch_{key}");
        let explicit = format!("{name}_explicit");
        for s in [Int, UInt, Long, ULong] {
            let p = ptr_to(sc(s), Local, false);
            let r = ok(&name, &[p, sc(Long)]);
            assert_eq!((r.params[1], r.result), (sc(s), sc(s)), "{name}");
            assert_eq!(ok(&explicit, &[p, Type::INT, Type::INT]).result, sc(s));
            assert_eq!(
                ok(&explicit, &[p, Type::INT, Type::INT, Type::INT]).result,
                sc(s)
            );
        }
        // cl_ext_float_atomics: add, sub, min and max on floats, with
        // an operand converted to the object's type; the bitwise ones
        // stay integer-only.
        let arithmetic = ["add", "sub", "min", "max"].contains(&key);
        for s in [Float, Double] {
            let p = ptr_to(sc(s), Local, false);
            let r = resolve(&name, &[p, Type::INT], &CTX);
            assert_eq!(r.is_ok(), arithmetic, "{name} on {s:?}");
            if let Ok(r) = r {
                assert_eq!((r.params[1], r.result), (sc(s), sc(s)), "{name}");
                let r = ok(&explicit, &[p, sc(s), Type::INT, Type::INT]);
                assert_eq!(r.result, sc(s), "{explicit}");
            }
        }
    }
    let gd = ptr_to(sc(Double), Global, false);
    assert!(resolve("atomic_fetch_add", &[gd, sc(Double)], &no_fp64).is_err());
    // atomic_flag is int.
    let flag = ptr_to(Type::INT, Global, false);
    let r = ok("atomic_flag_test_and_set", std::slice::from_ref(&flag));
    assert_eq!(
        (r.builtin, r.result),
        (c11(C11AtomicOp::FlagTestAndSet, false), Type::BOOL)
    );
    assert_eq!(
        ok(
            "atomic_flag_test_and_set_explicit",
            &[flag, Type::INT, Type::INT]
        )
        .result,
        Type::BOOL
    );
    assert_eq!(
        ok("atomic_flag_clear", std::slice::from_ref(&flag)).result,
        Type::Void
    );
    assert_eq!(
        ok("atomic_flag_clear_explicit", &[flag, Type::INT]).result,
        Type::Void
    );
    assert!(resolve("atomic_flag_clear", std::slice::from_ref(&lu), &CTX).is_err());
    assert!(resolve("atomic_flag_test_and_set", std::slice::from_ref(&gf), &CTX).is_err());
    // No atomic object in __constant or behind const, whatever the
    // function.
    let constant = ptr_to(Type::INT, Constant, false);
    let const_global = ptr_to(Type::INT, Global, true);
    for obj in [constant, const_global] {
        let e = ptr_to(Type::INT, Private, false);
        for (name, rest) in [
            ("atomic_init", vec![Type::INT]),
            ("atomic_store", vec![Type::INT]),
            ("atomic_load", vec![]),
            ("atomic_load_explicit", vec![Type::INT]),
            ("atomic_exchange", vec![Type::INT]),
            ("atomic_compare_exchange_strong", vec![e, Type::INT]),
            ("atomic_fetch_add", vec![Type::INT]),
            ("atomic_fetch_max_explicit", vec![Type::INT, Type::INT]),
            ("atomic_flag_test_and_set", vec![]),
            ("atomic_flag_clear", vec![]),
        ] {
            let mut args = vec![obj];
            args.extend(rest);
            assert!(
                err(name, &args).starts_with("no matching function"),
                "{name}"
            );
        }
    }
    assert_eq!(
        err("atomic_load", &[ptr_to(Type::INT, Constant, false)]),
        "no matching function for call to 'atomic_load' with arguments (__constant int*)"
    );
    // OpenCL C 2.0 and newer.
    let cl12 = BuiltinContext {
        cl_std: (1, 2),
        ..CTX
    };
    for name in [
        "atomic_init",
        "atomic_load_explicit",
        "atomic_fetch_add",
        "atomic_compare_exchange_weak_explicit",
        "atomic_flag_clear",
    ] {
        assert_eq!(
            err_in(name, std::slice::from_ref(&gi), &cl12),
            format!("use of undeclared identifier '{name}' (it needs OpenCL C 2.0 or newer)")
        );
    }
    // The 1.1 atomics keep their names.
    let r = ok_in("atomic_add", &[gi, Type::INT], &cl12);
    assert_eq!(
        r.builtin,
        Builtin::Atomic {
            op: AtomicOp::Add,
            legacy: false
        }
    );
}

#[test]
fn async_copies() {
    use Scalar::*;
    let local = ptr_to(v(Float, 4), AddressSpace::Local, false);
    let global = ptr_to(v(Float, 4), AddressSpace::Global, true);
    let event = EVENT;
    let r = ok(
        "async_work_group_copy",
        &[local, global, Type::INT, Type::INT],
    );
    assert_eq!(r.result, event);
    assert_eq!(r.params[3], event);
    let r = ok(
        "async_work_group_strided_copy",
        &[
            ptr_to(v(Float, 4), AddressSpace::Global, false),
            local,
            Type::INT,
            Type::INT,
            event,
        ],
    );
    assert_eq!(r.params[4], event);
    // Local to local, or const destinations, do not exist.
    assert!(resolve(
        "async_work_group_copy",
        &[local, local, Type::INT, event],
        &CTX
    )
    .is_err());
    assert!(resolve(
        "async_work_group_copy",
        &[global, local, Type::INT, event],
        &CTX
    )
    .is_err());
    let events = ptr_to(event, AddressSpace::Private, false);
    assert_eq!(
        ok("wait_group_events", &[Type::INT, events]).result,
        Type::Void
    );
    assert_eq!(ok("prefetch", &[global, sc(ULong)]).result, Type::Void);
}
