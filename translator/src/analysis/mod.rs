//! Analysis: what the lowering needs to know of the program before it
//! emits anything, computed once over the HIR and kept in side tables
//! keyed by HIR handles.
//!
//! - [`provenance`]: the roots of every pointer variable and returned
//!   pointer, and the objects atomics and narrowing casts reach, per
//!   function in terms of its parameters;
//! - [`definitions`]: the integer variables that keep their initializer's
//!   value (for integers converted back to pointers);
//! - per kernel, the `__local` objects held as integer words ([`KernelFacts`]);
//! - [`records`]: which records are held as byte images;
//! - [`images`]: the texel kinds each image parameter is accessed as.
//!
//! Functions are analysed callees first: a call uses its callee's summary.

pub mod definitions;
pub mod images;
pub mod provenance;
pub mod records;

use crate::ast::AddressSpace;
use crate::hir::{self, ExprId, ExprKind as H, FunctionId, GlobalId, LocalId};
use crate::lexer::{FxHashMap, FxHashSet};
use crate::types::{Scalar, Type};
use provenance::{Origin, PointerFacts, View};

/// What the lowering needs to know of a program.
#[derive(Debug, Default)]
pub struct Analysis {
    functions: FxHashMap<FunctionId, FunctionFacts>,
    /// The program-scope `__constant` variables whose address the program
    /// takes: what a program-scope pointer variable to `__constant` data
    /// may point into.
    stored_constants: Vec<GlobalId>,
    kernels: FxHashMap<FunctionId, KernelFacts>,
    records: records::Records,
}

/// The facts of one function.
#[derive(Debug, Default)]
pub struct FunctionFacts {
    pub pointers: PointerFacts,
    /// Integer variables that keep their initializer's value, with it.
    pub kept_values: FxHashMap<LocalId, ExprId>,
    /// Private variables (a kernel's `__constant` ones included, which
    /// are private copies) held as `u32` words, a byte image, because a
    /// pointer cast reaches them and their elements have bytes naga does
    /// not hold: the padding of 3-vectors (`sizeof(float3) == 16`), which
    /// a store through the cast may write and a load read back, and
    /// `bool`s, which naga holds as no bytes at all; or because a cast
    /// sees them as a struct, union or `bool`, read and written as a byte
    /// image's members.
    pub word_privates: FxHashSet<LocalId>,
    /// For each image parameter (by position) that is read or written,
    /// here or in a callee, the texel kinds it is accessed as.
    pub image_uses: FxHashMap<usize, images::TexelKinds>,
}

/// The facts of one kernel: how its `__local` memory is held.
#[derive(Debug, Default)]
pub struct KernelFacts {
    /// `__local` objects held as integer words because `float`/`double`
    /// atomics reach them, or integer atomics through casts (Vulkan's
    /// atomics are integer ones): variables
    /// ([`Origin::Local`]) and `__local` pointer parameters
    /// ([`Origin::Param`]).
    pub float_words: Vec<Origin>,
    /// `__local` variables held as `u32` words: because a store through a
    /// cast of their address writes part of an element (see
    /// `lower::pointers::cast_memory`) or may land on a 3-vector's
    /// padding, because a cast reaches their `bool`s or sees them as a
    /// struct, union or `bool`, or because their elements are
    /// `char`s or `short`s, which take their real size only packed into
    /// words.
    pub word_locals: FxHashSet<LocalId>,
    /// Whether the kernel, or a function it calls, compares or subtracts
    /// two `__global` pointers: they may be rooted in different buffer
    /// arguments that the application set to one buffer, or to a buffer
    /// and a sub-buffer of it, so their addresses need each argument's
    /// allocation and origin from the launch (see
    /// `lower::pointers::chosen`). Kernels that do not keep their
    /// arguments' bindings as identities and pay nothing.
    pub compares_buffer_pointers: bool,
    /// The positions of `__local` pointer parameters whose memory is held
    /// as `u32` words because a store through a cast of their address
    /// writes part of an element, or a cast sees it as a struct, union or
    /// `bool`.
    pub word_params: FxHashSet<usize>,
}

impl Analysis {
    /// The facts of a defined function.
    pub fn function(&self, f: FunctionId) -> Option<&FunctionFacts> {
        self.functions.get(&f)
    }

    pub fn kernel(&self, f: FunctionId) -> Option<&KernelFacts> {
        self.kernels.get(&f)
    }

    /// How each record is held.
    pub fn records(&self) -> &records::Records {
        &self.records
    }

    /// The program-scope `__constant` variables a program-scope pointer
    /// variable may point into, in the program's order.
    pub fn stored_constants(&self) -> &[GlobalId] {
        &self.stored_constants
    }
}

/// Analyses every defined function of `program`.
pub fn analyse(program: &hir::Program) -> Analysis {
    let mut analysis = Analysis {
        records: records::Records::of(program),
        stored_constants: stored_constants(program),
        ..Analysis::default()
    };
    let mut pointers = FxHashMap::default();
    let mut kept = FxHashMap::default();
    let mut compares = FxHashMap::default();
    let mut image_uses = FxHashMap::default();
    for id in callees_first(program) {
        let f = &program.functions[id];
        let uses = images::image_uses(f, &image_uses);
        image_uses.insert(id, uses);
        let reached = compares_buffer_pointers(program, f)
            || f.exprs.iter().any(|(_, e)| match e.kind {
                H::Call(callee, _) => compares.get(&callee).copied().unwrap_or(false),
                _ => false,
            });
        compares.insert(id, reached);
        // Only integers converted to pointers need them.
        let kept_values = if converts_integers_to_pointers(f) {
            definitions::kept_values(f)
        } else {
            FxHashMap::default()
        };
        let facts = provenance::pointer_facts(
            program,
            f,
            &kept_values,
            &pointers,
            &analysis.stored_constants,
        );
        pointers.insert(id, facts);
        kept.insert(id, kept_values);
    }
    for (id, facts) in pointers {
        if program.functions[id].kernel.is_some() {
            let mut kernel = kernel_facts(program, &program.functions[id], &facts);
            kernel.compares_buffer_pointers = compares.get(&id).copied().unwrap_or(false);
            analysis.kernels.insert(id, kernel);
        }
        let kept_values = kept.remove(&id).unwrap_or_default();
        let word_privates = word_privates(program, &program.functions[id], &facts);
        analysis.functions.insert(
            id,
            FunctionFacts {
                pointers: facts,
                kept_values,
                word_privates,
                image_uses: image_uses.remove(&id).unwrap_or_default(),
            },
        );
    }
    analysis
}

/// Whether `f` converts an integer to a pointer, which needs the values
/// its integer variables keep ([`definitions`]).
pub fn converts_integers_to_pointers(f: &hir::Function) -> bool {
    f.exprs.iter().any(|(_, e)| match e.kind {
        H::Convert(x) => e.ty.is_pointer() && !f.exprs[x].ty.is_pointer(),
        _ => false,
    })
}

/// The program-scope `__constant` variables whose address is taken in a
/// function or an initializer, in the program's order.
fn stored_constants(program: &hir::Program) -> Vec<GlobalId> {
    let mut taken = FxHashSet::default();
    let mut note = |exprs: &naga::Arena<hir::Expr>| {
        for (_, e) in exprs.iter() {
            if let H::AddressOf(x) | H::Decay(x) = e.kind {
                let mut x = x;
                // `&table[i].m`: the variable's address too.
                while let H::Index(base, _) | H::Member(base, _) = exprs[x].kind {
                    x = base;
                }
                if let H::Global(id) = exprs[x].kind {
                    if program.globals[id].space == AddressSpace::Constant {
                        taken.insert(id);
                    }
                }
            }
        }
    };
    for (_, f) in program.functions.iter() {
        note(&f.exprs);
    }
    note(&program.global_exprs);
    program
        .globals
        .iter()
        .map(|(id, _)| id)
        .filter(|id| taken.contains(id))
        .collect()
}

/// The defined functions, each after every function it calls. OpenCL C has
/// no recursion; a cycle (reported by the checker) is cut where it closes.
fn callees_first(program: &hir::Program) -> Vec<FunctionId> {
    fn visit(
        program: &hir::Program,
        id: FunctionId,
        seen: &mut FxHashSet<FunctionId>,
        order: &mut Vec<FunctionId>,
    ) {
        crate::stack::guard(|| {
            if !seen.insert(id) {
                return;
            }
            let f = &program.functions[id];
            for (_, e) in f.exprs.iter() {
                if let H::Call(callee, _) = e.kind {
                    visit(program, callee, seen, order);
                }
            }
            if f.defined {
                order.push(id);
            }
        })
    }
    let (mut seen, mut order) = (FxHashSet::default(), Vec::new());
    for (id, _) in program.functions.iter() {
        visit(program, id, &mut seen, &mut order);
    }
    order
}

fn kernel_facts(program: &hir::Program, f: &hir::Function, facts: &PointerFacts) -> KernelFacts {
    let types = &program.types;
    // The element type of an object: an array's, else its own.
    let element_of = |ty: Type| types.array_element(ty).unwrap_or(ty);
    let local_memory = |origin: &Origin| -> Option<Type> {
        match *origin {
            Origin::Local(l) if f.locals[l].space == AddressSpace::Local => {
                Some(element_of(f.locals[l].ty))
            }
            Origin::Param(i) => {
                let pointee = types.pointee(f.locals[*f.params.get(i)?].ty)?;
                (pointee.space == AddressSpace::Local).then_some(pointee.ty)
            }
            _ => None,
        }
    };
    let mut float_words = Vec::new();
    for p in &facts.float_atomics {
        let Some(element) = local_memory(&p.origin) else {
            continue;
        };
        // Only an atomic on the object as itself (not through a cast) is
        // on its words.
        let uncast = match p.view {
            View::Natural => true,
            View::As(t) => t == element,
            View::Untyped => false,
        };
        if uncast && !float_words.contains(&p.origin) {
            float_words.push(p.origin.clone());
        }
    }
    // Integer atomics through casts of `float`/`double` memory work on
    // its words too.
    for p in &facts.cast_atomics {
        let element = local_memory(&p.origin).map(|t| types.innermost_element(t));
        let float = matches!(element, Some(Type::Scalar(Scalar::Float | Scalar::Double)));
        if float && !float_words.contains(&p.origin) {
            float_words.push(p.origin.clone());
        }
    }
    let mut word_locals = FxHashSet::default();
    let mut word_params = FxHashSet::default();
    for (origin, stored) in &facts.narrowed {
        match *origin {
            Origin::Local(l) => {
                let local = &f.locals[l];
                if local.space == AddressSpace::Local
                    && (needs_word_units(element_of(local.ty), *stored)
                        || has_unheld_bytes(types.innermost_element(local.ty)))
                {
                    word_locals.insert(l);
                }
            }
            Origin::Param(i) => {
                let pointee = f
                    .params
                    .get(i)
                    .and_then(|&p| types.pointee(f.locals[p].ty))
                    .filter(|p| p.space == AddressSpace::Local);
                // Atomics on floats hold the memory as words of their own.
                if pointee.is_some_and(|p| needs_word_units(p.ty, *stored))
                    && !float_words.contains(origin)
                {
                    word_params.insert(i);
                }
            }
            _ => {}
        }
    }
    // `__local` memory seen as a struct, union or `bool` through a cast.
    for origin in &facts.viewed_as_bytes {
        match *origin {
            Origin::Local(l) if f.locals[l].space == AddressSpace::Local => {
                word_locals.insert(l);
            }
            Origin::Param(i) if local_memory(origin).is_some() && !float_words.contains(origin) => {
                word_params.insert(i);
            }
            _ => {}
        }
    }
    // `__local` variables of `char`s or `short`s take their real size
    // only packed into words.
    word_locals.extend(f.locals.iter().filter_map(|(l, local)| {
        let packed = local.space == AddressSpace::Local
            && has_packed_bytes(types.innermost_element(local.ty));
        packed.then_some(l)
    }));
    KernelFacts {
        float_words,
        word_locals,
        compares_buffer_pointers: false,
        word_params,
    }
}

/// The private variables of `f` held as words ([`FunctionFacts::word_privates`]):
/// those a pointer cast reaches, here or in a callee given their address,
/// whose innermost elements are 3-vectors or `bool`s, and those a cast
/// sees as a struct, union or `bool`.
fn word_privates(
    program: &hir::Program,
    f: &hir::Function,
    facts: &PointerFacts,
) -> FxHashSet<LocalId> {
    let types = &program.types;
    let mut out = FxHashSet::default();
    let private = |l: LocalId| {
        matches!(
            f.locals[l].space,
            AddressSpace::Private | AddressSpace::Constant
        )
    };
    for (origin, _) in &facts.narrowed {
        let Origin::Local(l) = *origin else {
            continue;
        };
        if private(l) && has_unheld_bytes(types.innermost_element(f.locals[l].ty)) {
            out.insert(l);
        }
    }
    // Seen as a struct, union or `bool` through a cast: its bytes are
    // read and written as a byte image's.
    for origin in &facts.viewed_as_bytes {
        if let Origin::Local(l) = *origin {
            if private(l) && !types.innermost_element(f.locals[l].ty).is_pointer() {
                out.insert(l);
            }
        }
    }
    out
}

/// Whether objects of `element` have bytes that naga's types of them do
/// not hold: a 3-vector's padding, a `bool`'s byte.
fn has_unheld_bytes(element: Type) -> bool {
    matches!(element, Type::Vector(_, 3) | Type::Scalar(Scalar::Bool))
}

/// Whether `f` itself compares (`==`, `<`, ...) or subtracts two pointers
/// that may point into buffers (`__global`, `__constant` or generic),
/// neither a null pointer constant, or converts one to an integer (which
/// it may compare or subtract as such): the operations whose result
/// depends on whether two buffer arguments share an allocation.
fn compares_buffer_pointers(program: &hir::Program, f: &hir::Function) -> bool {
    use crate::ast::BinaryOp as B;
    let global = |e: ExprId| {
        let buffer = program.types.pointee(f.exprs[e].ty).is_some_and(|p| {
            matches!(
                p.space,
                AddressSpace::Global | AddressSpace::Constant | AddressSpace::Generic
            )
        });
        buffer && !provenance::is_null_constant(f, e)
    };
    f.exprs.iter().any(|(_, e)| match e.kind {
        H::Binary(op, a, b) => {
            matches!(op, B::Eq | B::Ne | B::Lt | B::Le | B::Gt | B::Ge | B::Sub)
                && global(a)
                && global(b)
        }
        H::Convert(a) => e.ty.is_integer() && global(a),
        _ => false,
    })
}

/// Whether `__local` memory of `element`s (`char`/`short` scalars or
/// vectors) takes its real size only as `u32` words shared by several
/// elements: naga has no 8- or 16-bit types, and a lane of its own per
/// `char` would take four times the bytes of the device's local memory.
fn has_packed_bytes(element: Type) -> bool {
    match element {
        Type::Scalar(s) | Type::Vector(s, _) => s.is_integer() && s != Scalar::Bool && s.size() < 4,
        _ => false,
    }
}

/// Whether a store of `stored` scalars into an object of `element`s would
/// write part of a unit that cannot be updated atomically (only 32-bit
/// integer scalars can), or may land on a 3-vector's padding.
fn needs_word_units(element: Type, stored: Scalar) -> bool {
    match element {
        // Its padding, which a store through the cast may write.
        Type::Vector(s, 3) if s != Scalar::Bool => true,
        Type::Scalar(Scalar::Int | Scalar::UInt) => false,
        Type::Scalar(s) | Type::Vector(s, _) => {
            !matches!(s, Scalar::Bool | Scalar::Half)
                && (stored.size() < s.size() || stored.size() < 4)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::provenance::{Origin, Provenance, View};
    use super::*;
    use crate::{BuildOptions, DeviceCaps};

    /// The checked program of `source` and its analysis.
    fn analysed(source: &str) -> (hir::Program, Analysis) {
        let options = BuildOptions::parse("-cl-std=CL2.0").expect("options");
        let prelude = crate::preprocess::PreludeCache::default();
        let front = crate::front::FrontEnd::run(
            &prelude,
            "<source>",
            source,
            &options,
            &DeviceCaps::full(),
        );
        front.log().expect("the source checks");
        let analysis = analyse(&front.program);
        (front.program, analysis)
    }

    fn function(program: &hir::Program, name: &str) -> FunctionId {
        program
            .functions
            .iter()
            .find(|(_, f)| &program.names[f.name] == name)
            .map(|(id, _)| id)
            .expect("a function of that name")
    }

    fn local(program: &hir::Program, f: FunctionId, name: &str) -> LocalId {
        program.functions[f]
            .locals
            .iter()
            .find(|(_, l)| &program.names[l.name] == name)
            .map(|(id, _)| id)
            .expect("a variable of that name")
    }

    fn natural(origin: Origin) -> Provenance {
        Provenance {
            origin,
            view: View::Natural,
        }
    }

    #[test]
    fn a_variable_holds_every_root_it_is_given() {
        let (program, analysis) = analysed(
            "kernel void k(global float *a, global float *b, int n) {
                global float *src = a, *dst = b;
                for (int i = 0; i < n; i++) {
                    global float *t = src; src = dst; dst = t;
                }
                dst[0] = src[0];
            }",
        );
        let k = function(&program, "k");
        let facts = &analysis.function(k).expect("facts").pointers;
        for name in ["src", "dst", "t"] {
            let roots = facts.variable(local(&program, k, name));
            assert_eq!(roots.len(), 2, "{name}: {roots:?}");
            for param in [0, 1] {
                assert!(roots.contains(&natural(Origin::Param(param))), "{name}");
            }
        }
    }

    #[test]
    fn a_call_returns_what_its_arguments_point_to() {
        let (program, analysis) = analysed(
            "global int *pick(global int *x, global int *y, int c) { return c ? x : y; }
            kernel void k(global int *a, global int *b) {
                global int *p = pick(b, a, 1);
                global uint *q = (global uint *)pick(a, a, 0);
                *p = *q;
            }",
        );
        let pick = function(&program, "pick");
        let returns = &analysis.function(pick).expect("facts").pointers.returns;
        assert_eq!(
            returns,
            &[natural(Origin::Param(0)), natural(Origin::Param(1))]
        );
        let k = function(&program, "k");
        let facts = &analysis.function(k).expect("facts").pointers;
        let p = facts.variable(local(&program, k, "p"));
        assert_eq!(p, [natural(Origin::Param(1)), natural(Origin::Param(0))]);
        let q = facts.variable(local(&program, k, "q"));
        let uint = crate::types::Type::Scalar(crate::types::Scalar::UInt);
        assert_eq!(
            q,
            [Provenance {
                origin: Origin::Param(0),
                view: View::As(uint)
            }]
        );
    }

    #[test]
    fn private_objects_with_bytes_naga_does_not_hold_are_words_once_cast() {
        let (program, analysis) = analysed(
            "typedef struct { int a; float b; } Q;
            void put(private float3 *v) { vstore3((float3)(1.0f), 0, (private float *)v + 1); }
            kernel void k(global float *out) {
                float3 cast[2], passed[2], plain[2];
                bool flags[4], kept[4];
                float viewed[4], floats[4];
                vstore3((float3)(2.0f), 0, (private float *)cast + 3);
                put(passed);
                plain[0] = (float3)(3.0f);
                out[0] = ((private uchar *)flags)[1] + kept[0] + plain[1].x;
                out[1] = ((private Q *)viewed)->b + ((private int *)floats)[1];
            }",
        );
        let k = function(&program, "k");
        let words = &analysis.function(k).expect("facts").word_privates;
        for (name, held) in [
            ("cast", true),
            ("passed", true),
            ("plain", false),
            ("flags", true),
            ("kept", false),
            ("viewed", true),
            ("floats", false),
        ] {
            let l = local(&program, k, name);
            assert_eq!(words.contains(&l), held, "{name}");
        }
    }

    #[test]
    fn local_memory_that_float_atomics_reach_is_held_as_words() {
        let (program, analysis) = analysed(
            "void add(local float *s, float v) { atomic_fetch_add((volatile local atomic_float *)s, v); }
            kernel void k(global float *out, local float *scratch) {
                local float sum;
                local float other;
                add(&sum, out[0]);
                atomic_fetch_add((volatile local atomic_float *)scratch, 1.0f);
                other = sum;
                out[0] = other;
            }",
        );
        let k = function(&program, "k");
        let facts = analysis.kernel(k).expect("kernel facts");
        let sum = Origin::Local(local(&program, k, "sum"));
        assert!(facts.float_words.contains(&sum), "{:?}", facts.float_words);
        // `scratch`, the kernel's parameter 1.
        assert!(facts.float_words.contains(&Origin::Param(1)));
        let other = Origin::Local(local(&program, k, "other"));
        assert!(!facts.float_words.contains(&other));
    }

    #[test]
    fn narrow_stores_through_casts_hold_local_memory_as_words() {
        let (program, analysis) = analysed(
            "void poke(local uchar *bytes, int i) { bytes[i] = 1; }
            kernel void k(global float *out) {
                local float through_helper[4];
                local float through_variable[4];
                local float untouched[4];
                local uint words[4];
                poke((local uchar *)through_helper, 1);
                local float *p = through_variable;
                ((local uchar *)p)[2] = 3;
                ((local uchar *)words)[0] = 5;
                out[0] = through_helper[0] + through_variable[0] + untouched[0] + words[0];
            }",
        );
        let k = function(&program, "k");
        let facts = analysis.kernel(k).expect("kernel facts");
        let held = |name| facts.word_locals.contains(&local(&program, k, name));
        assert!(held("through_helper"));
        assert!(held("through_variable"));
        assert!(!held("untouched"));
        // 32-bit integers are updated atomically as they are.
        assert!(!held("words"));
    }

    #[test]
    fn narrow_stores_through_casts_hold_local_arguments_as_words() {
        let (program, analysis) = analysed(
            "local float *same(local float *p) { return p; }
            kernel void k(local float *returned, local int *words, local float4 *direct,
                          local float *untouched) {
                ((local uchar *)same(returned))[1] = 1;
                ((local short *)words)[1] = 2;
                ((local char *)direct)[3] = 3;
                untouched[0] = 4;
            }",
        );
        let k = function(&program, "k");
        let facts = analysis.kernel(k).expect("kernel facts");
        assert!(facts.word_params.contains(&0));
        // 32-bit integers are updated atomically as they are.
        assert!(!facts.word_params.contains(&1));
        assert!(facts.word_params.contains(&2));
        assert!(!facts.word_params.contains(&3));
    }

    #[test]
    fn integers_that_keep_their_value_are_known() {
        let (program, analysis) = analysed(
            "kernel void k(global int *a, int n) {
                uintptr_t kept = (uintptr_t)a;
                uintptr_t changed = (uintptr_t)a;
                changed += 4;
                *(global int *)(kept + 4) = *(global int *)changed;
            }",
        );
        let k = function(&program, "k");
        let kept = &analysis.function(k).expect("facts").kept_values;
        assert!(kept.contains_key(&local(&program, k, "kept")));
        assert!(!kept.contains_key(&local(&program, k, "changed")));
    }
}
