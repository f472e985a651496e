//! Where pointers point, before anything is emitted.
//!
//! OpenCL C pointers become a root (the object a pointer points into) plus
//! an index in the lowering (see `lower::pointers`). Which roots a pointer
//! variable, a returned pointer, an atomic or a narrowing cast may reach is
//! computed here once, over the HIR, as [`Provenance`]s: an object named by
//! what declares it ([`Origin`]) and the type it is seen as ([`View`]).
//! The lowering turns each into its concrete root per specialisation of a
//! function (`lower::pointers::roots`), so no function has to be lowered twice to
//! find out.
//!
//! The analysis is flow-insensitive within a function (a pointer variable
//! may hold any root it is ever given) and summarises each function in
//! terms of its own pointer parameters ([`Origin::Param`]), which a call
//! replaces by the roots of its arguments.
//!
//! Pointers stored in objects rather than pointer variables are tracked
//! the same way: an array of pointers as one variable (its elements
//! together); and, for the whole kernel, [`Shared`] places: a struct or
//! union member that is a pointer (or an array of them) by its record
//! type and member (a struct travels by value through helpers and
//! returns, so the member of every value of the type may hold any root
//! stored into that member anywhere in the kernel or what it calls), and
//! the pointers of one type that pointers to pointers reach (pointer
//! variables and arrays of pointers whose address is taken, and whatever
//! `*pp` is). [`Origin::Shared`] stands for what such a place holds. A
//! function's [`PointerFacts::shared`] gathers what it and its callees
//! store there; the kernel's are the complete sets.

use crate::builtins::Builtin;
use crate::hir::{self, ExprId, ExprKind as H, FunctionId, GlobalId, LocalId, StmtId, StmtKind};
use crate::lexer::{FxHashMap, FxHashSet};
use crate::types::{Record, Scalar, Type};
use naga::Handle;

/// The object a pointer points into, named by what declares it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The null pointer: nothing.
    Null,
    /// The function's pointer parameter at this position, as its caller
    /// (for a kernel, the launch) passes it.
    Param(usize),
    /// A variable of the function (private, `__local` or `__constant`).
    Local(LocalId),
    /// A program-scope variable.
    Global(GlobalId),
    /// A string literal: its bytes, and its `char` array type.
    Str(Box<[u8]>, Type),
    /// The program globals' block as a program-scope pointer variable to
    /// this type holds it (the only object such a variable may point into).
    Block(Type),
    /// Whatever a [`Shared`] place may hold anywhere in the kernel: its
    /// roots are the kernel's [`PointerFacts::shared`] for it.
    Shared(Shared),
}

/// Pointers stored in places shared by the whole kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shared {
    /// Member `field` of record type `record` (a pointer, or an array of
    /// them).
    Member(Handle<Record>, usize),
    /// Pointers of this type that pointers to pointers may reach: pointer
    /// variables and arrays of pointers whose address is taken, and
    /// `*pp` for every `pp` to this type.
    Cell(Type),
}

/// Where a pointer that is not in a pointer variable is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stored {
    /// An element of a local array of pointers (its roots are the
    /// variable's, [`PointerFacts::variables`]).
    Local(LocalId),
    /// A place shared by the kernel.
    Shared(Shared),
}

/// The type a pointer sees its object as, which decides its root for
/// objects seen through typed views (buffers) or cast (other memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum View {
    /// As the object was given: never cast.
    Natural,
    /// Cast only to `void *`.
    Untyped,
    /// Last cast to this (non-`void`) pointee type.
    As(Type),
}

impl View {
    /// This view after a cast to `to`.
    pub fn cast_to(self, to: Type) -> View {
        match (to, self) {
            (Type::Void, View::Natural) => View::Untyped,
            (Type::Void, view) => view,
            (to, _) => View::As(to),
        }
    }

    /// The view a callee's `self` over a root its caller sees as `caller`.
    fn after(self, caller: View) -> View {
        match self {
            View::Natural => caller,
            View::Untyped => caller.cast_to(Type::Void),
            View::As(to) => View::As(to),
        }
    }
}

/// One root a pointer may have.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Provenance {
    pub origin: Origin,
    pub view: View,
}

impl Provenance {
    fn natural(origin: Origin) -> Self {
        Provenance {
            origin,
            view: View::Natural,
        }
    }
}

/// A small set of roots, in the order they were found.
pub type Roots = Vec<Provenance>;

fn add(set: &mut Roots, p: Provenance) -> bool {
    if set.contains(&p) {
        return false;
    }
    set.push(p);
    true
}

fn add_all(set: &mut Roots, more: Roots) -> bool {
    more.into_iter()
        .fold(false, |changed, p| add(set, p) | changed)
}

/// What the lowering needs to know of a function's pointers, in terms of
/// its own parameters.
#[derive(Debug, Default)]
pub struct PointerFacts {
    /// The roots each pointer variable (parameters included) and each
    /// array of pointers may hold.
    pub variables: FxHashMap<LocalId, Roots>,
    /// The roots stored into each [`Shared`] place, here or in callees; a
    /// callee's own private variables are left out, as in
    /// [`Self::returns`].
    pub shared: FxHashMap<Shared, Roots>,
    /// The pointer variables and arrays of pointers whose address is
    /// taken: their pointers live in [`Shared::Cell`]s.
    pub cells: FxHashSet<LocalId>,
    /// The roots the pointers it returns may have.
    pub returns: Roots,
    /// The objects `float`/`double` atomics reach, here or in callees.
    pub float_atomics: Roots,
    /// The objects other atomics reach through a pointer cast from
    /// another type, here or in callees (`atomic_add((volatile local int
    /// *)floats, 1)`).
    pub cast_atomics: Roots,
    /// The objects stored through casts to a narrower scalar, here or in
    /// callees, with the narrowest scalar stored.
    pub narrowed: Vec<(Origin, Scalar)>,
    /// The objects a pointer cast or an integer's conversion to a pointer
    /// reaches with a pointee that is not `const`, here or in callees:
    /// they may be written even where their own pointer is to `const`
    /// (C lets a program cast `const` away and store to an object that is
    /// not itself read-only), so a kernel's `const` buffer among them
    /// cannot be bound read-only.
    pub unconst: Vec<Origin>,
    /// The objects a pointer cast sees as a struct, union or `bool`, here
    /// or in callees: outside buffers, such a view reads and writes bytes
    /// that only an object held as words has (`lower::records`).
    pub viewed_as_bytes: Vec<Origin>,
    /// The objects pointers converted to integers point into, here or in
    /// callees: in a kernel, an integer converted back to a pointer that
    /// is not computed from one by byte counts may point into any of them
    /// (`lower::pointers::integer_pointers`).
    pub escaped: Roots,
}

impl PointerFacts {
    /// The roots `variable` may hold (none for a non-pointer).
    pub fn variable(&self, variable: LocalId) -> &[Provenance] {
        self.variables.get(&variable).map_or(&[], Vec::as_slice)
    }

    fn narrow(&mut self, origin: Origin, stored: Scalar) -> bool {
        match self.narrowed.iter_mut().find(|(o, _)| *o == origin) {
            Some((_, s)) if stored.size() < s.size() => {
                *s = stored;
                true
            }
            Some(_) => false,
            None => {
                self.narrowed.push((origin, stored));
                true
            }
        }
    }
}

/// Computes a function's [`PointerFacts`], given those of the functions it
/// calls (`callees`).
pub fn pointer_facts(
    program: &hir::Program,
    function: &hir::Function,
    kept: &FxHashMap<LocalId, ExprId>,
    callees: &FxHashMap<FunctionId, PointerFacts>,
    stored_constants: &[GlobalId],
) -> PointerFacts {
    let mut walk = Walk {
        program,
        function,
        kept,
        callees,
        stored_constants,
        facts: PointerFacts::default(),
        changed: false,
    };
    walk.facts.cells = pointer_cells(program, function);
    for (position, &param) in function.params.iter().enumerate() {
        let ty = function.locals[param].ty;
        if ty.is_pointer() {
            let param_root = Provenance::natural(Origin::Param(position));
            walk.facts.variables.insert(param, vec![param_root.clone()]);
            if walk.facts.cells.contains(&param) {
                walk.add_shared(Shared::Cell(ty), vec![param_root]);
            }
        }
    }
    // Variables given one another's pointers need the walk again until
    // nothing more flows; every set only grows, over finitely many roots.
    loop {
        walk.changed = false;
        walk.block(&function.body);
        if !walk.changed {
            return walk.facts;
        }
    }
}

struct Walk<'a> {
    program: &'a hir::Program,
    function: &'a hir::Function,
    kept: &'a FxHashMap<LocalId, ExprId>,
    callees: &'a FxHashMap<FunctionId, PointerFacts>,
    stored_constants: &'a [GlobalId],
    facts: PointerFacts,
    changed: bool,
}

impl Walk<'_> {
    fn block(&mut self, block: &[StmtId]) {
        for &s in block {
            self.statement(s);
        }
    }

    fn statement(&mut self, s: StmtId) {
        crate::stack::guard(|| {
            let kind = &self.function.stmts[s].kind;
            match *kind {
                StmtKind::Init(local, value) => {
                    self.expr(value);
                    self.flow_into(local, value);
                    if let H::InitList(ref items) = self.function.exprs[value].kind {
                        let ty = self.function.locals[local].ty;
                        for (path, item) in items {
                            if self.path_stores(ty, path).is_none() {
                                self.flow_into_array(local, *item);
                            }
                        }
                    }
                }
                StmtKind::Return(Some(value)) => {
                    self.expr(value);
                    if self.function.exprs[value].ty.is_pointer() {
                        let roots = self.roots(value);
                        self.changed |= add_all(&mut self.facts.returns, roots);
                    }
                }
                _ => {
                    let (mut exprs, mut nested) = (Vec::new(), Vec::new());
                    kind.for_each_child(&mut |e| exprs.push(e), &mut |c| nested.push(c));
                    for e in exprs {
                        self.expr(e);
                    }
                    self.block(&nested);
                }
            }
        })
    }

    /// Records what expression `e` (and its operands) tell of pointers.
    fn expr(&mut self, e: ExprId) {
        crate::stack::guard(|| {
            let node = &self.function.exprs[e];
            node.kind.for_each_child(&mut |&c| self.expr(c));
            match node.kind {
                H::Assign(target, value) => match self.function.exprs[target].kind {
                    H::Local(local) => self.flow_into(local, value),
                    _ if node.ty.is_pointer() => match self.stored(target) {
                        Some(Stored::Local(local)) => self.flow_into_array(local, value),
                        Some(Stored::Shared(shared)) => self.flow_into_shared(shared, value),
                        None => {}
                    },
                    _ => {}
                },
                // Pointers a list puts into records' members.
                H::InitList(ref items) if self.holds_pointers(node.ty) => {
                    for (path, item) in items {
                        if let Some(Stored::Shared(shared)) = self.path_stores(node.ty, path) {
                            self.flow_into_shared(shared, *item);
                        }
                    }
                }
                H::PointerCast(inner) => {
                    let stored = self.pointee(node.ty).and_then(|t| t.element());
                    if let Some(stored) = stored {
                        for p in self.roots(inner) {
                            self.changed |= self.facts.narrow(p.origin, stored);
                        }
                    }
                    let to = self.pointee(node.ty);
                    let bytes = to.is_some_and(|t| {
                        matches!(
                            self.program.types.innermost_element(t),
                            Type::Record(_) | Type::Scalar(Scalar::Bool)
                        )
                    });
                    if bytes {
                        for p in self.roots(inner) {
                            if !self.facts.viewed_as_bytes.contains(&p.origin) {
                                self.facts.viewed_as_bytes.push(p.origin);
                                self.changed = true;
                            }
                        }
                    }
                    self.unconst(e, node.ty);
                }
                H::Convert(_) if node.ty.is_pointer() => self.unconst(e, node.ty),
                H::Convert(x) if self.function.exprs[x].ty.is_pointer() => {
                    let roots = self.roots(x);
                    self.changed |= add_all(&mut self.facts.escaped, roots);
                }
                H::Builtin(Builtin::Atomic { .. } | Builtin::C11Atomic { .. }, ref args) => {
                    self.atomic(args);
                }
                H::Call(callee, ref args) => self.call_effects(callee, args),
                _ => {}
            }
        })
    }

    /// Notes the objects `e`, a cast to pointer type `ty`, reaches when
    /// `ty`'s pointee is not `const`.
    fn unconst(&mut self, e: ExprId, ty: Type) {
        let Type::Pointer(p) = ty else { return };
        if self.program.types[p].is_const {
            return;
        }
        for p in self.roots(e) {
            if !self.facts.unconst.contains(&p.origin) {
                self.facts.unconst.push(p.origin);
                self.changed = true;
            }
        }
    }

    /// Whether values of `ty` hold pointers: a pointer, or an array or
    /// record with one inside.
    fn holds_pointers(&self, ty: Type) -> bool {
        holds_pointers(&self.program.types, ty)
    }

    /// Where the pointer-typed place `e` (an element of an array of
    /// pointers, a member) is stored; `None` for a pointer variable or
    /// memory reached through a pointer.
    fn stored(&self, e: ExprId) -> Option<Stored> {
        stored_place(self.function, &self.facts.cells, e)
    }

    /// Where the sub-object at `path` (member and element indices, as an
    /// initializer list gives them) of an object of `ty` lies: in the
    /// innermost record member on the way (`None` when there is none, so
    /// the object itself, an array of pointers, holds it).
    fn path_stores(&self, ty: Type, path: &[u64]) -> Option<Stored> {
        path_stores(&self.program.types, ty, path)
    }

    /// `array[i] = value`, for a local array of pointers.
    fn flow_into_array(&mut self, array: LocalId, value: ExprId) {
        if !self.function.exprs[value].ty.is_pointer() {
            return;
        }
        let roots = self.roots(value);
        let set = self.facts.variables.entry(array).or_default();
        self.changed |= add_all(set, roots);
    }

    /// `place = value`, for a shared place (a struct's pointer member,
    /// `*pp`).
    fn flow_into_shared(&mut self, shared: Shared, value: ExprId) {
        if !self.function.exprs[value].ty.is_pointer() {
            return;
        }
        let roots = self.roots(value);
        self.add_shared(shared, roots);
    }

    fn add_shared(&mut self, shared: Shared, roots: Roots) {
        // A place given its own roots adds nothing.
        let roots = roots
            .into_iter()
            .filter(|p| p.origin != Origin::Shared(shared))
            .collect();
        let set = self.facts.shared.entry(shared).or_default();
        self.changed |= add_all(set, roots);
    }

    /// `variable = value`, for a pointer variable.
    fn flow_into(&mut self, variable: LocalId, value: ExprId) {
        if !self.function.locals[variable].ty.is_pointer() {
            return;
        }
        let roots = self.roots(value);
        if self.facts.cells.contains(&variable) {
            let ty = self.function.locals[variable].ty;
            self.add_shared(Shared::Cell(ty), roots.clone());
        }
        let set = self.facts.variables.entry(variable).or_default();
        self.changed |= add_all(set, roots);
    }

    /// An atomic on the object its first argument points to.
    fn atomic(&mut self, args: &[ExprId]) {
        let Some(&object) = args.first() else { return };
        let value = self.pointee(self.function.exprs[object].ty);
        if matches!(value, Some(Type::Scalar(Scalar::Float | Scalar::Double))) {
            let roots = self.roots(object);
            self.changed |= add_all(&mut self.facts.float_atomics, roots);
        } else {
            let cast: Roots = (self.roots(object).into_iter())
                .filter(|p| p.view != View::Natural)
                .collect();
            self.changed |= add_all(&mut self.facts.cast_atomics, cast);
        }
    }

    /// What a callee's atomics and narrowing casts do to the objects its
    /// arguments point into.
    fn call_effects(&mut self, callee: FunctionId, args: &[ExprId]) {
        let Some(facts) = self.callees.get(&callee) else {
            return;
        };
        let atomics = self.instantiate(&facts.float_atomics, args);
        self.changed |= add_all(&mut self.facts.float_atomics, atomics);
        let atomics = self.instantiate(&facts.cast_atomics, args);
        self.changed |= add_all(&mut self.facts.cast_atomics, atomics);
        let escaped = self.instantiate(&facts.escaped, args);
        self.changed |= add_all(&mut self.facts.escaped, escaped);
        for (&shared, roots) in &facts.shared {
            let roots = self.instantiate(roots, args);
            self.add_shared(shared, roots);
        }
        for (origin, stored) in &facts.narrowed {
            let root = Provenance::natural(origin.clone());
            for p in self.instantiate(std::slice::from_ref(&root), args) {
                self.changed |= self.facts.narrow(p.origin, *stored);
            }
        }
        let viewed: Roots = facts
            .viewed_as_bytes
            .iter()
            .map(|o| Provenance::natural(o.clone()))
            .collect();
        for p in self.instantiate(&viewed, args) {
            if !self.facts.viewed_as_bytes.contains(&p.origin) {
                self.facts.viewed_as_bytes.push(p.origin);
                self.changed = true;
            }
        }
        let unconst: Roots = facts
            .unconst
            .iter()
            .map(|o| Provenance::natural(o.clone()))
            .collect();
        for p in self.instantiate(&unconst, args) {
            if !self.facts.unconst.contains(&p.origin) {
                self.facts.unconst.push(p.origin);
                self.changed = true;
            }
        }
    }

    /// A callee's roots in the caller's terms: each of its parameters
    /// becomes what the call passes; objects of the callee's own (private
    /// variables) mean nothing here and are left out.
    fn instantiate(&self, roots: &[Provenance], args: &[ExprId]) -> Roots {
        let mut out = Roots::new();
        for p in roots {
            match &p.origin {
                Origin::Param(i) => {
                    let Some(&arg) = args.get(*i) else { continue };
                    for a in self.roots(arg) {
                        let view = p.view.after(a.view);
                        add(&mut out, Provenance { view, ..a });
                    }
                }
                Origin::Local(_) => {}
                _ => {
                    add(&mut out, p.clone());
                }
            }
        }
        out
    }

    fn pointee(&self, ty: Type) -> Option<Type> {
        self.program.types.pointee(ty).map(|p| p.ty)
    }

    /// The roots pointer expression `e` may have.
    fn roots(&self, e: ExprId) -> Roots {
        let node = &self.function.exprs[e];
        if node.ty.is_pointer() && is_null_constant(self.function, e) {
            return vec![Provenance::natural(Origin::Null)];
        }
        match node.kind {
            H::Local(local) if self.facts.cells.contains(&local) => {
                let shared = Shared::Cell(node.ty);
                vec![Provenance::natural(Origin::Shared(shared))]
            }
            H::Local(local) => self.facts.variable(local).to_vec(),
            // A program-scope pointer variable: null, the block, or for a
            // pointer to `__constant` data any program-scope `__constant`
            // variable whose address is taken, seen as its pointee.
            H::Global(_) => self.program_pointer_roots(node.ty),
            // An element of a program-scope array of pointers: as a
            // program-scope pointer variable.
            H::Index(base, _)
                if node.ty.is_pointer()
                    && matches!(self.function.exprs[base].kind, H::Global(_)) =>
            {
                self.program_pointer_roots(node.ty)
            }
            H::Decay(object) | H::AddressOf(object) => self.object(object),
            // A pointer read from where it is stored, which may be null
            // (zeroed, or an element no list gave).
            H::Index(..) | H::Member(..) | H::Deref(_) => match self.stored(e) {
                Some(Stored::Local(array)) => {
                    let mut roots = vec![Provenance::natural(Origin::Null)];
                    add_all(&mut roots, self.facts.variable(array).to_vec());
                    roots
                }
                Some(Stored::Shared(shared)) => vec![Provenance::natural(Origin::Shared(shared))],
                None => Roots::new(),
            },
            H::PointerOffset(p, _)
            | H::Comma(_, p)
            | H::Assign(_, p)
            | H::IncDec { target: p, .. }
            | H::CompoundAssign { target: p, .. } => self.roots(p),
            H::PointerCast(inner) => {
                let from = self.pointee(self.function.exprs[inner].ty);
                let to = self.pointee(node.ty);
                self.cast(self.roots(inner), from, to)
            }
            H::Conditional(_, a, b) => {
                let mut both = self.roots(a);
                add_all(&mut both, self.roots(b));
                both
            }
            H::Call(callee, ref args) => match self.callees.get(&callee) {
                Some(facts) => self.instantiate(&facts.returns, args),
                None => Roots::new(),
            },
            H::Convert(x) => match pointer_origin(self.function, self.kept, x) {
                Some(origin) => {
                    let from = self.pointee(self.function.exprs[origin].ty);
                    self.cast(self.roots(origin), from, self.pointee(node.ty))
                }
                None => self.decoded(node.ty),
            },
            // The pointer where it is in the named space, NULL elsewhere
            // (see `lower::pointers::address_spaces`).
            H::Builtin(Builtin::ToGlobal | Builtin::ToLocal | Builtin::ToPrivate, ref args) => {
                let mut roots = args.first().map_or_else(Roots::new, |&p| self.roots(p));
                add(&mut roots, Provenance::natural(Origin::Null));
                roots
            }
            _ => Roots::new(),
        }
    }

    /// The roots a program-scope pointer of type `ty` (a variable, or an
    /// element of an array of them) may hold: null, the block, or for a
    /// pointer to `__constant` data any program-scope `__constant`
    /// variable whose address is taken, seen as its pointee.
    fn program_pointer_roots(&self, ty: Type) -> Roots {
        match self.program.types.pointee(ty) {
            Some(pointee) => {
                let mut roots = vec![
                    Provenance::natural(Origin::Null),
                    Provenance::natural(Origin::Block(pointee.ty)),
                ];
                if pointee_may_be_constant(pointee.space) {
                    for &c in self.stored_constants {
                        let from = self.program.types.array_element(self.program.globals[c].ty);
                        let from = from.unwrap_or(self.program.globals[c].ty);
                        let root = vec![Provenance::natural(Origin::Global(c))];
                        roots.extend(self.cast(root, Some(from), Some(pointee.ty)));
                    }
                }
                roots
            }
            None => Roots::new(),
        }
    }

    /// The roots of an integer converted to a pointer of type `ty` that is
    /// not computed from a pointer by byte counts: in a kernel, null or
    /// any object whose pointer it converted to an integer, seen as `ty`
    /// points (see `lower::pointers::integer_pointers`); none elsewhere.
    fn decoded(&self, ty: Type) -> Roots {
        if self.function.kernel.is_none() || self.facts.escaped.is_empty() {
            return Roots::new();
        }
        let to = self.pointee(ty);
        let mut roots = vec![Provenance::natural(Origin::Null)];
        for p in &self.facts.escaped {
            let view = match to {
                Some(to) => p.view.cast_to(to),
                None => p.view,
            };
            add(&mut roots, Provenance { view, ..p.clone() });
        }
        roots
    }

    /// The roots of `&object`, where `object` is a place (or an array).
    fn object(&self, object: ExprId) -> Roots {
        let node = &self.function.exprs[object];
        match node.kind {
            H::Local(local) => vec![Provenance::natural(Origin::Local(local))],
            H::Global(global) => vec![Provenance::natural(Origin::Global(global))],
            H::Str(ref bytes) => vec![Provenance::natural(Origin::Str(
                bytes.clone().into_boxed_slice(),
                node.ty,
            ))],
            H::Index(base, _) if self.function.exprs[base].ty.is_pointer() => self.roots(base),
            H::Index(base, _) => self.object(base),
            H::Deref(p) => self.roots(p),
            // A member (an array's first element): the record's memory
            // seen as the member's type.
            H::Member(base, _) => {
                let member = self.program.types.array_element(node.ty).unwrap_or(node.ty);
                let record = self.function.exprs[base].ty;
                self.cast(self.object(base), Some(record), Some(member))
            }
            _ => Roots::new(),
        }
    }

    /// `roots` seen through a cast from `from` to `to`.
    fn cast(&self, roots: Roots, from: Option<Type>, to: Option<Type>) -> Roots {
        match (from, to) {
            (Some(from), Some(to)) if from != to => roots
                .into_iter()
                .map(|p| Provenance {
                    view: p.view.cast_to(to),
                    ..p
                })
                .collect(),
            _ => roots,
        }
    }
}

/// Whether values of `ty` hold pointers: a pointer, or an array or record
/// with one inside.
pub fn holds_pointers(types: &crate::types::Types, ty: Type) -> bool {
    crate::stack::guard(|| match ty {
        Type::Pointer(_) => true,
        Type::Array(..) => holds_pointers(types, types.innermost_element(ty)),
        Type::Record(r) => types[r].fields.iter().any(|f| holds_pointers(types, f.ty)),
        _ => false,
    })
}

/// Where the pointer-typed place `e` is stored: an element of a local
/// array of pointers, a record's member (through any elements of an array
/// member), or a [`Shared::Cell`] (a pointer variable or array of pointers
/// in `cells`, whose address is taken, or a pointer reached through a
/// pointer); `None` for a pointer variable or a program-scope object.
pub fn stored_place(
    function: &hir::Function,
    cells: &FxHashSet<LocalId>,
    e: ExprId,
) -> Option<Stored> {
    let ty = function.exprs[e].ty;
    let cell = Some(Stored::Shared(Shared::Cell(ty)));
    let mut at = e;
    loop {
        let node = &function.exprs[at];
        match node.kind {
            H::Index(base, _) if function.exprs[base].ty.is_array() => at = base,
            H::Index(base, _) | H::Deref(base) if function.exprs[base].ty.is_pointer() => {
                return cell
            }
            H::Member(base, field) => match function.exprs[base].ty {
                Type::Record(record) => return Some(Stored::Shared(Shared::Member(record, field))),
                _ => return None,
            },
            H::Local(local) if cells.contains(&local) => return cell,
            H::Local(local) if node.ty.is_array() && at != e => {
                return (function.locals[local].space == crate::ast::AddressSpace::Private)
                    .then_some(Stored::Local(local))
            }
            _ => return None,
        }
    }
}

/// The shared cell local `local` (a pointer variable or an array of
/// pointers) keeps its pointers in, when its address is taken.
pub fn stored_cell(
    program: &hir::Program,
    function: &hir::Function,
    cells: &FxHashSet<LocalId>,
    local: LocalId,
) -> Option<Shared> {
    let ty = program.types.innermost_element(function.locals[local].ty);
    cells.contains(&local).then_some(Shared::Cell(ty))
}

/// The pointer variables and arrays of pointers of `function` whose
/// address is taken (`&p`, `&ptrs[1]`, `ptrs` as a pointer).
pub fn pointer_cells(program: &hir::Program, function: &hir::Function) -> FxHashSet<LocalId> {
    let mut cells = FxHashSet::default();
    for (_, e) in function.exprs.iter() {
        let (H::AddressOf(mut x) | H::Decay(mut x)) = e.kind else {
            continue;
        };
        while let H::Index(base, _) = function.exprs[x].kind {
            if !function.exprs[base].ty.is_array() {
                break;
            }
            x = base;
        }
        if let H::Local(local) = function.exprs[x].kind {
            let ty = function.locals[local].ty;
            if program.types.innermost_element(ty).is_pointer() {
                cells.insert(local);
            }
        }
    }
    cells
}

/// Where the sub-object at `path` of an object of `ty` lies: in the
/// innermost record member on the way, or `None` (the object itself).
pub fn path_stores(types: &crate::types::Types, mut ty: Type, path: &[u64]) -> Option<Stored> {
    let mut stored = None;
    for &i in path {
        ty = match ty {
            Type::Array(..) => types.array_element(ty)?,
            Type::Record(record) => {
                let field = types[record].fields.get(i as usize)?;
                stored = Some(Stored::Shared(Shared::Member(record, i as usize)));
                field.ty
            }
            _ => return stored,
        };
    }
    stored
}

/// Whether a pointer into `space` may point at `__constant` data.
pub fn pointee_may_be_constant(space: crate::ast::AddressSpace) -> bool {
    matches!(
        space,
        crate::ast::AddressSpace::Constant | crate::ast::AddressSpace::Generic
    )
}

/// `0` or `(T *)0`: a null pointer constant.
pub fn is_null_constant(function: &hir::Function, e: ExprId) -> bool {
    match function.exprs[e].kind {
        H::Int(0) => true,
        H::PointerCast(inner) => is_null_constant(function, inner),
        _ => false,
    }
}

/// A byte count added to (or, `subtract`, taken from) a pointer's address.
pub struct ByteOffset {
    pub subtract: bool,
    pub bytes: ExprId,
}

/// The pointer the integer `e` was computed from, seen through integer
/// conversions and the variables in `kept` that keep their initializer's
/// value (see `definitions.rs`).
pub fn pointer_origin(
    function: &hir::Function,
    kept: &FxHashMap<LocalId, ExprId>,
    e: ExprId,
) -> Option<ExprId> {
    byte_offsets(function, kept, e).map(|(origin, _)| origin)
}

/// [`pointer_origin`], with the byte counts added to and subtracted from
/// the pointer on the way.
pub fn byte_offsets(
    function: &hir::Function,
    kept: &FxHashMap<LocalId, ExprId>,
    e: ExprId,
) -> Option<(ExprId, Vec<ByteOffset>)> {
    let exprs = &function.exprs;
    let node = &exprs[e];
    match node.kind {
        H::Convert(x) if exprs[x].ty.is_pointer() => Some((x, Vec::new())),
        H::Convert(x) if matches!(exprs[x].ty, Type::Scalar(_)) => byte_offsets(function, kept, x),
        H::Local(id) if matches!(node.ty, Type::Scalar(_)) => {
            byte_offsets(function, kept, *kept.get(&id)?)
        }
        H::Binary(crate::ast::BinaryOp::Add, a, b) => {
            let (origin, mut offsets, bytes) = match byte_offsets(function, kept, a) {
                Some((origin, offsets)) => (origin, offsets, b),
                None => {
                    let (origin, offsets) = byte_offsets(function, kept, b)?;
                    (origin, offsets, a)
                }
            };
            offsets.push(ByteOffset {
                subtract: false,
                bytes,
            });
            Some((origin, offsets))
        }
        H::Binary(crate::ast::BinaryOp::Sub, a, b) => {
            let (origin, mut offsets) = byte_offsets(function, kept, a)?;
            offsets.push(ByteOffset {
                subtract: true,
                bytes: b,
            });
            Some((origin, offsets))
        }
        _ => None,
    }
}
