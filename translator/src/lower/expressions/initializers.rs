//! Aggregate values: initializer lists (`{1, 2, [5] = x}`) as naga
//! `Compose` trees, and program-scope `__constant` variables, whose
//! initializers become constant expressions of the module.
//!
//! The checker flattens a list into (path of member/element indices, value)
//! pairs and leaves out what is zero; here the pairs are regrouped into a
//! tree along the type, and every sub-object no pair reaches is a
//! `ZeroValue`. The same tree is emitted into the module's constant
//! expressions (program data) or into a function's expressions (a run-time
//! list such as `float a[3] = {x, y, 0}`).

use super::wide;
use crate::analysis::provenance::{self, Shared};
use crate::ast::AddressSpace;
use crate::diagnostic::Location;
use crate::hir::{self, ExprId, ExprKind as H};
use crate::lexer::FxHashMap;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::constants::{float_literal, literal};
use crate::lower::function::FnBuilder;
use crate::lower::naga_types::{naga_scalar, vector_size};
use crate::lower::pointers::stored::StoredRoots;
use crate::lower::pointers::{Place, Root};
use crate::types::{Scalar, Type};
use naga::{Handle, Span};

/// Program-scope data the kernel's module holds as constants.
#[derive(Default)]
pub(in crate::lower) struct ProgramConstants {
    /// Program-scope `__constant` variables used by this kernel.
    globals: FxHashMap<hir::GlobalId, Handle<naga::GlobalVariable>>,
    /// String literals used as arrays, by their bytes.
    strings: FxHashMap<Vec<u8>, Handle<naga::GlobalVariable>>,
}

/// Where the expressions of a value go.
pub(super) enum Arena<'f, 'a> {
    /// The module's constant expressions (global variable initializers),
    /// from the program's initialiser expressions.
    Constant,
    /// A function under construction, from the HIR function it lowers;
    /// leaves are evaluated at run time.
    Function(&'f mut FnBuilder<'a>),
}

/// One sub-object of a list initializer: given whole by `value`, or by
/// parts in `children` (index, sub-tree), or, with neither, zero.
#[derive(Default)]
struct InitTree {
    value: Option<ExprId>,
    children: Vec<(u64, InitTree)>,
}

impl InitTree {
    fn from_items(items: &[(Vec<u64>, ExprId)]) -> Self {
        let mut root = InitTree::default();
        for &(ref path, value) in items {
            let mut node = &mut root;
            for &i in path {
                let at = match node.children.iter().position(|(j, _)| *j == i) {
                    Some(at) => at,
                    None => {
                        node.children.push((i, InitTree::default()));
                        node.children.len() - 1
                    }
                };
                node = &mut node.children[at].1;
            }
            // A later designator overrides an earlier one (C99 6.7.8p19).
            *node = InitTree {
                value: Some(value),
                children: Vec::new(),
            };
        }
        root
    }

    fn child(&self, i: u64) -> Option<&InitTree> {
        self.children
            .iter()
            .find(|(j, _)| *j == i)
            .map(|(_, tree)| tree)
    }
}

impl<'a> ModuleBuilder<'a> {
    fn append(&mut self, arena: &mut Arena, e: naga::Expression) -> Handle<naga::Expression> {
        match arena {
            Arena::Constant => self.module.global_expressions.append(e, Span::UNDEFINED),
            Arena::Function(fb) => fb.add(e),
        }
    }

    /// The value of the list initializer `items` for an object of `ty`.
    pub(super) fn init_list(
        &mut self,
        arena: &mut Arena,
        ty: &Type,
        items: &[(Vec<u64>, ExprId)],
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let tree = InitTree::from_items(items);
        self.init_tree(arena, ty, &tree, None, location)
    }

    /// The value of the list initializer `items` of local array of
    /// pointers `array` (see `pointers/stored.rs`).
    pub(in crate::lower) fn pointer_array_list(
        &mut self,
        fb: &mut FnBuilder,
        array: hir::LocalId,
        items: &[(Vec<u64>, ExprId)],
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let tree = InitTree::from_items(items);
        let roots = fb.stored.get(&array).copied();
        let ty = fb.local(array).ty;
        self.init_tree(&mut Arena::Function(fb), &ty, &tree, roots, location)
    }

    /// The value of `tree` for an object of `ty`; `stored` is the root set
    /// of the pointers it holds outside records' members (an array of
    /// pointers').
    fn init_tree(
        &mut self,
        arena: &mut Arena,
        ty: &Type,
        tree: &InitTree,
        stored: Option<StoredRoots>,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        crate::stack::guard(|| {
            if let (Type::Pointer(_), Some(value)) = (ty, tree.value) {
                return self.stored_leaf(arena, value, stored, location);
            }
            if tree.value.is_none() && !tree.children.is_empty() && self.is_image(ty) {
                return self.init_image(arena, ty, tree, location);
            }
            let naga_ty = self.held_type(ty, location)?;
            if let Some(value) = tree.value {
                return self.init_leaf(arena, value);
            }
            if tree.children.is_empty() {
                return Ok(self.append(arena, naga::Expression::ZeroValue(naga_ty)));
            }
            let parts: Vec<Type> = match *ty {
                Type::Array(elem, n) => vec![self.program.types[elem]; n as usize],
                Type::Vector(s, n) => vec![Type::Scalar(s); usize::from(n)],
                Type::Record(r) => self.record(r).fields.iter().map(|f| f.ty).collect(),
                // `int x = { 5 };`: the one value is the scalar's.
                _ => {
                    return match tree.child(0) {
                        Some(sub) => self.init_tree(arena, ty, sub, stored, location),
                        None => Ok(self.append(arena, naga::Expression::ZeroValue(naga_ty))),
                    }
                }
            };
            let mut components = Vec::with_capacity(parts.len());
            for (i, part) in parts.iter().enumerate() {
                components.push(match tree.child(i as u64) {
                    Some(sub) => {
                        let stored = match (*ty, &mut *arena) {
                            (Type::Record(r), Arena::Function(fb))
                                if provenance::holds_pointers(&self.program.types, *part) =>
                            {
                                Some(self.shared_set(fb, Shared::Member(r, i), location)?)
                            }
                            _ => stored,
                        };
                        self.init_tree(arena, part, sub, stored, location)?
                    }
                    None => {
                        let zero_ty = self.held_type(part, location)?;
                        self.append(arena, naga::Expression::ZeroValue(zero_ty))
                    }
                });
            }
            if let Type::Vector(s, n) = *ty {
                if wide::is_wide(ty) {
                    return self.wide_from_scalars(arena, s, n, components);
                }
            }
            Ok(self.append(
                arena,
                naga::Expression::Compose {
                    ty: naga_ty,
                    components,
                },
            ))
        })
    }

    /// A list initializer of a record held as a byte image (see
    /// `records.rs`): a zeroed image in a temporary, each given sub-object
    /// stored into it where it lies.
    fn init_image(
        &mut self,
        arena: &mut Arena,
        ty: &Type,
        tree: &InitTree,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let Arena::Function(fb) = arena else {
            return self.constant_image(ty, tree, location);
        };
        let image_ty = self.image_type(ty);
        let var = fb.function.local_variables.append(
            naga::LocalVariable {
                name: None,
                ty: image_ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let words = fb.add(naga::Expression::LocalVariable(var));
        let zero = fb.add(naga::Expression::ZeroValue(image_ty));
        fb.push(naga::Statement::Store {
            pointer: words,
            value: zero,
        });
        let whole = self.image_place(fb, words, None, ty);
        self.init_into(fb, whole, tree, location)?;
        Ok(fb.add(naga::Expression::Load { pointer: words }))
    }

    /// Stores the values of `tree` into `place`, part by part.
    fn init_into(
        &mut self,
        fb: &mut FnBuilder,
        place: Place,
        tree: &InitTree,
        location: Location,
    ) -> LResult<()> {
        crate::stack::guard(|| {
            if let Some(value) = tree.value {
                if fb.expr(value).ty.is_pointer() {
                    let at = fb.expr(value).span.location();
                    return Err(self.pointer_in_bytes(at));
                }
                let value = self.plain(fb, value)?;
                return self.store(fb, place, super::Value::Plain(value), location, None);
            }
            for (i, sub) in &tree.children {
                let part = self.sub_place(fb, place.clone(), *i, location)?;
                self.init_into(fb, part, sub, location)?;
            }
            Ok(())
        })
    }

    /// A program-scope list initializer of a record held as a byte image:
    /// its bytes computed here, as the image's words.
    fn constant_image(
        &mut self,
        ty: &Type,
        tree: &InitTree,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let mut bytes = vec![0u8; self.image_words(ty) as usize * 4];
        self.constant_bytes(ty, tree, 0, &mut bytes, location)?;
        let components = bytes
            .chunks(4)
            .map(|w| {
                let word = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                self.module.global_expressions.append(
                    naga::Expression::Literal(naga::Literal::U32(word)),
                    Span::UNDEFINED,
                )
            })
            .collect();
        let ty = self.image_type(ty);
        Ok(self.module.global_expressions.append(
            naga::Expression::Compose { ty, components },
            Span::UNDEFINED,
        ))
    }

    /// Writes the constant values of `tree`, an object of `ty` at byte
    /// `offset`, into `bytes` (the host's little-endian encoding).
    fn constant_bytes(
        &mut self,
        ty: &Type,
        tree: &InitTree,
        offset: usize,
        bytes: &mut [u8],
        location: Location,
    ) -> LResult<()> {
        crate::stack::guard(|| {
            let exprs = &self.program.global_exprs;
            if let Some(value) = tree.value {
                let at = exprs[value].span;
                if ty.is_pointer() {
                    return self.constant_pointer_bytes(ty, value, offset, bytes);
                }
                let Some(s) = ty
                    .element()
                    .filter(|_| !matches!(ty, Type::Array(..) | Type::Record(_)))
                else {
                    return Err(self.error(
                    at,
                    "this initializer of a program-scope union, struct or __global variable is not a constant the translator can evaluate yet",
                ));
                };
                let lanes = constant_lanes(exprs, value).unwrap_or_default();
                if lanes.is_empty() {
                    return Err(self.error(
                    at,
                    "this initializer of a program-scope variable is not a constant the translator can evaluate yet",
                ));
                }
                let size = s.size() as usize;
                for (k, lane) in lanes.iter().enumerate() {
                    let Some(bits) = lane.bits_as(s) else {
                        return Err(self.error(
                        at,
                        format!(
                            "constant '{}' values in program-scope unions, structs and __global variables are not supported yet by this translator",
                            s.name()
                        ),
                    ));
                    };
                    let at = offset + k * size;
                    bytes[at..at + size].copy_from_slice(&bits.to_le_bytes()[..size]);
                }
                return Ok(());
            }
            for (i, sub) in &tree.children {
                let (part, at) = match *ty {
                    Type::Record(r) => {
                        let Some(f) = self.record(r).fields.get(*i as usize) else {
                            return Err(
                                self.error(location, "internal compiler error: no such member")
                            );
                        };
                        (f.ty, f.offset as usize)
                    }
                    Type::Array(elem, _) => {
                        let elem = self.program.types[elem];
                        let size = self.type_size(&elem).unwrap_or(0) as usize;
                        (elem, *i as usize * size)
                    }
                    Type::Vector(s, _) => (Type::Scalar(s), *i as usize * s.size() as usize),
                    t => (t, 0),
                };
                self.constant_bytes(&part, sub, offset + at, bytes, location)?;
            }
            Ok(())
        })
    }

    /// Writes the initial value of a pointer of type `ty` in the program
    /// globals' block (an element of a program-scope array of pointers),
    /// as a program-scope pointer variable holds it
    /// (`pointers/program_pointers.rs`).
    fn constant_pointer_bytes(
        &mut self,
        ty: &Type,
        value: ExprId,
        offset: usize,
        bytes: &mut [u8],
    ) -> LResult<()> {
        let block = self.globals_block;
        let offset_of = |id| block.offset(id);
        let wide = self.type_size(ty) == Some(8);
        match crate::lower::pointers::program_pointers::initial_pointer(
            self.program,
            value,
            &offset_of,
        ) {
            Some((address, tag)) if tag == 0 || wide => {
                bytes[offset..offset + 4].copy_from_slice(&(address as u32).to_le_bytes());
                if wide {
                    bytes[offset + 4..offset + 8].copy_from_slice(&tag.to_le_bytes());
                }
                Ok(())
            }
            _ => Err(self.error(
                self.program.global_exprs[value].span,
                "a program-scope pointer can only be initialised with the address of a program-scope __global or __constant variable (or null) in this translator",
            )),
        }
    }

    /// Writes the initial bytes of an object of `ty` that lies at byte
    /// `offset` of `bytes`, from its constant initializer `init` (a list,
    /// or one value, of the program's initialiser expressions).
    pub(in crate::lower) fn constant_object_bytes(
        &mut self,
        ty: &Type,
        id: ExprId,
        offset: usize,
        bytes: &mut [u8],
    ) -> LResult<()> {
        let init = &self.program.global_exprs[id];
        let tree = match &init.kind {
            H::InitList(items) => InitTree::from_items(items),
            _ => InitTree {
                value: Some(id),
                children: Vec::new(),
            },
        };
        self.constant_bytes(ty, &tree, offset, bytes, init.span.location())
    }

    /// The naga type of a sub-object of `ty`: a pointer is a stored one.
    fn held_type(&mut self, ty: &Type, location: Location) -> LResult<Handle<naga::Type>> {
        match ty {
            Type::Pointer(_) => Ok(self.stored_pointer_type()),
            _ => self.value_type(ty, location),
        }
    }

    /// A pointer given in a list, as a stored pointer of root set `stored`.
    fn stored_leaf(
        &mut self,
        arena: &mut Arena,
        value: ExprId,
        stored: Option<StoredRoots>,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        match (arena, stored) {
            (Arena::Function(fb), Some(roots)) => {
                let at = fb.expr(value).span.location();
                let pointer = self.pointer(fb, value)?;
                self.encode_stored(fb, pointer, roots, at)
            }
            (Arena::Constant, _) => Err(self.error(
                location,
                "program-scope arrays of pointers and program-scope structs with pointer members are not supported yet by this translator",
            )),
            (Arena::Function(_), None) => Err(self.error(
                location,
                "this list of pointers (a compound literal of an array of pointers) is not supported yet by this translator",
            )),
        }
    }

    fn init_leaf(&mut self, arena: &mut Arena, value: ExprId) -> LResult<Handle<naga::Expression>> {
        match arena {
            Arena::Function(fb) => self.plain(fb, value),
            Arena::Constant => self.constant_expr(value),
        }
    }

    /// Program initialiser expression `e` as a constant expression of the
    /// module. The checker has folded arithmetic on constants, so what
    /// remains are literals and the aggregates built of them.
    fn constant_expr(&mut self, id: ExprId) -> LResult<Handle<naga::Expression>> {
        crate::stack::guard(|| {
            let exprs = &self.program.global_exprs;
            let e = &exprs[id];
            let location = e.span.location();
            let expr = match (&e.kind, &e.ty) {
            (&H::Int(bits), &Type::Scalar(s)) => naga::Expression::Literal(literal(s, bits)),
            (&H::Float(v), &Type::Scalar(s)) => naga::Expression::Literal(float_literal(s, v)),
            (H::Int(_) | H::Float(_) | H::Splat(_) | H::VectorLiteral(_), &Type::Vector(s, n))
                if wide::is_wide(&e.ty) =>
            {
                let Some(lanes) = constant_lanes(exprs, id) else {
                    return Err(self.error(
                        location,
                        "this initializer of a program-scope variable is not a constant the translator can evaluate yet",
                    ));
                };
                let scalars = lanes
                    .iter()
                    .map(|lane| self.constant_scalar(*lane))
                    .collect();
                return self.wide_from_scalars(&mut Arena::Constant, s, n, scalars);
            }
            (&H::Int(_) | &H::Float(_), &Type::Vector(s, n)) => {
                let lane = constant_lanes(exprs, id).and_then(|l| l.first().copied());
                let Some(lane) = lane else {
                    return Err(self.error(location, "internal compiler error: not a constant"));
                };
                let value = self.constant_scalar(ConstScalar { scalar: s, ..lane });
                let size = vector_size(n).ok_or_else(|| {
                    self.error(location, "this vector width is not supported yet by this translator")
                })?;
                naga::Expression::Splat { size, value }
            }
            (&H::Splat(x), &Type::Vector(_, n)) => {
                let value = self.constant_expr(x)?;
                let size = vector_size(n).ok_or_else(|| {
                    self.error(location, "this vector width is not supported yet by this translator")
                })?;
                naga::Expression::Splat { size, value }
            }
            (H::VectorLiteral(parts), _) => {
                let ty = self.value_type(&e.ty, location)?;
                let mut components = Vec::with_capacity(parts.len());
                for &p in parts {
                    components.push(self.constant_expr(p)?);
                }
                naga::Expression::Compose { ty, components }
            }
            (H::InitList(items), ty) => return self.init_list(&mut Arena::Constant, ty, items, location),
            _ => {
                return Err(self.error(
                    location,
                    "this initializer of a program-scope variable is not a constant the translator can evaluate yet",
                ))
            }
        };
            Ok(self.module.global_expressions.append(expr, Span::UNDEFINED))
        })
    }

    /// A wide vector from its `n` scalar lanes, in `arena`.
    fn wide_from_scalars(
        &mut self,
        arena: &mut Arena,
        s: Scalar,
        n: u8,
        scalars: Vec<Handle<naga::Expression>>,
    ) -> LResult<Handle<naga::Expression>> {
        let part_ty = self.add_type(naga::TypeInner::Vector {
            size: naga::VectorSize::Quad,
            scalar: naga_scalar(s),
        });
        let mut parts = Vec::new();
        for group in scalars.chunks(usize::from(wide::PART_LANES)) {
            let compose = naga::Expression::Compose {
                ty: part_ty,
                components: group.to_vec(),
            };
            parts.push(self.append(arena, compose));
        }
        let ty = self.wide_type(s, n);
        Ok(self.append(
            arena,
            naga::Expression::Compose {
                ty,
                components: parts,
            },
        ))
    }

    /// The naga variable of the program-scope variable `id`, made on first
    /// use in this kernel's module. `__constant` data becomes a private
    /// variable with a constant initializer: read-only, so every work-item
    /// seeing its own copy is indistinguishable from sharing one.
    /// The program-scope `__constant` variable whose module variable is
    /// `global`, if it is one.
    pub(in crate::lower) fn constant_of(
        &self,
        global: Handle<naga::GlobalVariable>,
    ) -> Option<hir::GlobalId> {
        let constants = &self.constants.globals;
        constants
            .iter()
            .find(|(_, &g)| g == global)
            .map(|(&id, _)| id)
    }

    pub(in crate::lower) fn program_global(
        &mut self,
        id: hir::GlobalId,
        location: Location,
    ) -> LResult<Handle<naga::GlobalVariable>> {
        if let Some(&g) = self.constants.globals.get(&id) {
            return Ok(g);
        }
        let global = &self.program.globals[id];
        if global.space != AddressSpace::Constant {
            // They live in the program's block (`program_globals.rs`).
            return Err(self.error(
                location,
                "internal compiler error: a program-scope __global variable reached the lowering of __constant data",
            ));
        }
        let global_ty = global.ty;
        let (name, declared_at) = (self.name(global.name).to_string(), global.span.location());
        let ty = self.value_type(&global.ty, declared_at)?;
        let init = match global.init {
            Some(e) => self.constant_expr(e)?,
            None => self
                .module
                .global_expressions
                .append(naga::Expression::ZeroValue(ty), Span::UNDEFINED),
        };
        let handle = self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some(name),
                space: naga::AddressSpace::Private,
                binding: None,
                ty,
                init: Some(init),
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        );
        self.constants.globals.insert(id, handle);
        // Pointers into it count elements held as byte images, as a
        // private array's do (`functions.rs`, `declare_locals`).
        let element = self.element_of(&global_ty).unwrap_or(global_ty);
        if self.is_image(&element) {
            self.note_image_root(None, Root::Global(handle), &element);
        }
        Ok(handle)
    }

    /// A string literal used as an array, as `__constant char *s = "abc"`
    /// uses it: a private global holding its bytes and its NUL, one per
    /// distinct literal (writing to it is undefined in C).
    pub(in crate::lower) fn string_literal_global(
        &mut self,
        bytes: &[u8],
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::GlobalVariable>> {
        if let Some(&g) = self.constants.strings.get(bytes) {
            return Ok(g);
        }
        let naga_ty = self.value_type(ty, location)?;
        let components = bytes
            .iter()
            .chain(std::iter::once(&0))
            .map(|&b| {
                let bits = crate::literal::wrap(i64::from(b as i8), Scalar::Char);
                let byte = naga::Expression::Literal(literal(Scalar::Char, bits));
                self.module.global_expressions.append(byte, Span::UNDEFINED)
            })
            .collect();
        let init = self.module.global_expressions.append(
            naga::Expression::Compose {
                ty: naga_ty,
                components,
            },
            Span::UNDEFINED,
        );
        let handle = self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some(format!("string_literal_{}", self.constants.strings.len())),
                space: naga::AddressSpace::Private,
                binding: None,
                ty: naga_ty,
                init: Some(init),
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        );
        self.constants.strings.insert(bytes.to_vec(), handle);
        Ok(handle)
    }
}

/// A scalar of a constant initializer: an integer's bits or a float's
/// value, as a constant of `scalar`.
#[derive(Clone, Copy)]
struct ConstScalar {
    value: ConstValue,
    scalar: Scalar,
}

#[derive(Clone, Copy)]
enum ConstValue {
    Int(u64),
    Float(f64),
}

impl ConstScalar {
    /// The bits of the constant stored as `s`, or `None` when it cannot
    /// be. A `half` rounds to nearest even, as its literals do.
    fn bits_as(self, s: Scalar) -> Option<u64> {
        let from_float = |v: f64| match s {
            Scalar::Half => Some(u64::from(::half::f16::from_f64(v).to_bits())),
            Scalar::Float => Some(u64::from((v as f32).to_bits())),
            Scalar::Double => Some(v.to_bits()),
            _ => None,
        };
        match (self.value, s) {
            (ConstValue::Int(bits), Scalar::Bool) => Some(u64::from(bits != 0)),
            (ConstValue::Int(bits), s) if s.is_integer() => Some(bits),
            (ConstValue::Int(bits), _) => from_float(bits as i64 as f64),
            (ConstValue::Float(v), s) if s.is_float() => from_float(v),
            _ => None,
        }
    }
}

impl ModuleBuilder<'_> {
    /// A constant scalar as a literal of the module's constants.
    fn constant_scalar(&mut self, c: ConstScalar) -> Handle<naga::Expression> {
        let literal = match c.value {
            ConstValue::Int(bits) => literal(c.scalar, bits),
            ConstValue::Float(v) => float_literal(c.scalar, v),
        };
        self.module
            .global_expressions
            .append(naga::Expression::Literal(literal), Span::UNDEFINED)
    }
}

/// The scalar lanes of a constant vector expression (a literal splat, a
/// splat or a vector literal of constants), or `None` when it is another
/// kind of expression.
fn constant_lanes(exprs: &naga::Arena<hir::Expr>, e: ExprId) -> Option<Vec<ConstScalar>> {
    let e = &exprs[e];
    let n = usize::from(wide::width_of(&e.ty));
    let scalar = e.ty.element()?;
    match e.kind {
        H::Int(bits) => Some(vec![
            ConstScalar {
                value: ConstValue::Int(bits),
                scalar
            };
            n
        ]),
        H::Float(v) => Some(vec![
            ConstScalar {
                value: ConstValue::Float(v),
                scalar
            };
            n
        ]),
        H::Splat(x) => {
            let lane = constant_lanes(exprs, x)?;
            Some(vec![*lane.first()?; n])
        }
        H::VectorLiteral(ref parts) => {
            let mut lanes = Vec::with_capacity(n);
            for &p in parts {
                lanes.extend(constant_lanes(exprs, p)?);
            }
            Some(lanes)
        }
        _ => None,
    }
}
