//! Deep programs build, or fail with a clang-style error, on a thread with
//! a 1 MiB stack, as applications call `clBuildProgram` from: long chains
//! of operators, deep parentheses and blocks, long `else if` chains. Every
//! stage walks these trees by recursion (parser, checker, the commit of
//! its trees, analysis, lowering, naga's validator and writer, and the
//! drops of all of them); a chain of 700 `+` once overflowed such a stack.

use std::fmt::Write as _;

use translator::{BuildError, DeviceCaps};

/// The stack applications' threads may have: less than the 2 MiB of
/// Rust's spawned threads and the 8 MiB of a main thread.
const STACK: usize = 1 << 20;

/// Builds `source` on a thread with a [`STACK`]-byte stack: `Ok` with the
/// kernels' count, `Err` with the log. A stack overflow aborts the test
/// binary, which is what these tests guard against.
fn build_on_small_stack(source: String) -> Result<usize, String> {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(
            move || match translator::build(&source, "", &DeviceCaps::full()) {
                Ok(program) => Ok(program.kernels.len()),
                Err(BuildError::Compile { log }) => Err(log),
                Err(e) => Err(e.to_string()),
            },
        )
        .expect("spawn")
        .join()
        .expect("the build panicked")
}

fn builds(what: &str, source: String) {
    if let Err(log) = build_on_small_stack(source) {
        panic!("{what}: {}", &log[..log.len().min(2000)]);
    }
}

/// The nesting past which the parser reports an error
/// (`parse::MAX_NESTING`).
const LIMIT: usize = 10_000;

fn too_deep(what: &str, source: String) {
    match build_on_small_stack(source) {
        Ok(_) => panic!("{what}: built past the nesting limit"),
        Err(log) => {
            let expected = format!("error: nesting level exceeded maximum of {LIMIT}\n");
            assert!(log.contains(&expected), "{what}: {log}");
            // The parse stops there, as clang's does at its bracket depth.
            assert!(log.ends_with("1 error generated.\n"), "{what}: {log}");
        }
    }
}

fn kernel(body: &str) -> String {
    format!("kernel void k(global int *a, int c) {{\n{body}\n}}\n")
}

#[test]
fn long_operator_chains_build() {
    // The reproducer: 6,000 terms, 30 KB of source.
    let sum = vec!["a[1]"; 6_000].join(" + ");
    builds("sum", kernel(&format!("a[0] = {sum};")));
    let mixed: String = (0..4_000)
        .map(|i| format!("a[{}] * {i} - ", i % 7))
        .collect();
    builds("mixed", kernel(&format!("a[0] = {mixed}1;")));
    let logic = vec!["a[1] > c"; 3_000].join(" && ");
    builds("logical", kernel(&format!("a[0] = {logic};")));
    let commas = vec!["a[1]++"; 3_000].join(", ");
    builds("comma", kernel(&format!("{commas};")));
    let assign = vec!["a[1]"; 3_000].join(" = ");
    builds("assignments", kernel(&format!("{assign} = 0;")));
    let ternary: String = (0..3_000).map(|i| format!("c == {i} ? {i} : ")).collect();
    builds("conditional", kernel(&format!("a[0] = {ternary}0;")));
    let negations = "-~".repeat(2_000);
    builds("unary", kernel(&format!("a[0] = {negations}c;")));
    let casts = "(int)(uint)".repeat(1_500);
    builds("casts", kernel(&format!("a[0] = {casts}c;")));
    let swizzles = ".wzyx".repeat(3_000);
    builds(
        "postfix",
        kernel(&format!("int4 v = (int4)(c); a[0] = v{swizzles}.x;")),
    );
}

#[test]
fn deep_parentheses_blocks_and_statements_build() {
    let parens = format!("{}c{}", "(".repeat(2_000), ")".repeat(2_000));
    builds("parentheses", kernel(&format!("a[0] = {parens};")));
    let blocks = format!("{}a[0] = c;{}", "{".repeat(3_000), "}".repeat(3_000));
    builds("blocks", kernel(&blocks));
    let mut chain = String::from("if (c == 0) a[0] = 0;\n");
    for i in 1..5_000 {
        let _ = writeln!(chain, "else if (c == {i}) a[0] = {i};");
    }
    chain.push_str("else a[0] = -1;");
    builds("else if", kernel(&chain));
    let loops = "while (c > 0) ".repeat(2_000);
    builds("loops", kernel(&format!("{loops} c--;")));
    let cases: String = (0..3_000).map(|i| format!("case {i}: ")).collect();
    builds(
        "case labels",
        kernel(&format!(
            "switch (c) {{ {cases} a[0] = 1; break; default: break; }}"
        )),
    );
    // Gotos into and out of deep blocks and loops are restructured with a
    // guard per level.
    let into = format!(
        "if (c) goto deep; {}deep: a[0] = c; if (c > 1) goto top;{} top: a[1] = c;",
        "{".repeat(2_000),
        "}".repeat(2_000)
    );
    builds("gotos into blocks", kernel(&into));
    let loops = format!(
        "top: {} {{ c--; if (c == 7) goto top; if (c == 3) goto out; }} out: a[0] = c;",
        "while (c > 0) ".repeat(1_000)
    );
    builds("gotos out of loops", kernel(&loops));
    let inits = format!("{}1{}", "{".repeat(2_000), "}".repeat(2_000));
    // clang: a warning per level of braces around a scalar; it builds.
    let _ = build_on_small_stack(kernel(&format!("int x = {inits}; a[0] = x;")));
}

#[test]
fn long_call_chains_build() {
    // Each helper calls the next: the checker's recursion check, the
    // analysis (callees first) and the lowering of calls all follow it.
    let mut source = String::from("int f0(int x) { return x + 1; }\n");
    for i in 1..2_000 {
        let _ = writeln!(source, "int f{i}(int x) {{ return f{}(x) + 1; }}", i - 1);
    }
    source.push_str("kernel void k(global int *a) { a[0] = f1999(a[0]); }\n");
    builds("calls", source);
}

#[test]
fn nesting_past_the_limit_is_one_clear_error() {
    let sum = vec!["a[1]"; LIMIT + 10].join(" + ");
    too_deep("sum", kernel(&format!("a[0] = {sum};")));
    let parens = format!("{}c{}", "(".repeat(LIMIT), ")".repeat(LIMIT));
    too_deep("parentheses", kernel(&format!("a[0] = {parens};")));
    // The 100k-arm chain, on one line: it once aborted on a 4.7 GB
    // allocation for the log.
    let mut chain = String::from("if (c == 0) a[0] = 0; ");
    for i in 1..100_000 {
        let _ = write!(chain, "else if (c == {i}) a[0] = {i}; ");
    }
    too_deep("else if", kernel(&chain));
}

#[test]
fn deeply_nested_types_build() {
    let dims = "[1]".repeat(3_000);
    builds(
        "array dimensions",
        kernel(&format!("int x{dims}; a[0] = sizeof(x);")),
    );
    let stars = "*".repeat(3_000);
    builds(
        "pointers",
        kernel(&format!("int {stars}p = 0; a[0] = sizeof(p);")),
    );
    let mut typedefs = String::from("typedef int T0;\n");
    for i in 1..3_000 {
        let _ = writeln!(typedefs, "typedef T{} *T{i};", i - 1);
    }
    builds(
        "typedefs",
        typedefs + &kernel("T2999 p = 0; a[0] = sizeof(p);"),
    );
    // Records in records: their lowering once asked how each is held
    // through every nested member, for every access (400 took 10 s).
    let mut records = String::from("struct S0 { int x; };\n");
    for i in 1..1_000 {
        let _ = writeln!(records, "struct S{i} {{ struct S{} s; }};", i - 1);
    }
    let init = format!("{}1{}", "{".repeat(1_000), "}".repeat(1_000));
    let member = ".s".repeat(999);
    builds(
        "records",
        records + &kernel(&format!("struct S999 v = {init}; a[0] = v{member}.x;")),
    );
}

#[test]
fn the_preprocessor_nests_within_its_own_limits() {
    // Deeper than these is an error of the preprocessor's; either way,
    // the build comes back.
    let parens = format!("#if {}1{}\n#endif\n", "(".repeat(5_000), ")".repeat(5_000));
    let _ = build_on_small_stack(parens + &kernel("a[0] = 1;"));
    let calls = format!("{}1{}", "F(".repeat(5_000), ")".repeat(5_000));
    let _ = build_on_small_stack(format!(
        "#define F(x) x\n{}",
        kernel(&format!("a[0] = {calls};"))
    ));
    let mut chain = String::from("#define A0 1\n");
    for i in 1..5_000 {
        let _ = writeln!(chain, "#define A{i} A{}", i - 1);
    }
    builds("macro chain", chain + &kernel("a[0] = A4999;"));
    let sum = vec!["1"; 50_000].join("+");
    builds(
        "#if chain",
        format!("#if {sum}\n#endif\n") + &kernel("a[0] = 1;"),
    );
    let ifs = format!("{}{}", "#if 1\n".repeat(5_000), "#endif\n".repeat(5_000));
    builds("#if nesting", ifs + &kernel("a[0] = 1;"));
}
