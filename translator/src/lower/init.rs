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

use super::{
    float_literal, literal, naga_scalar, vector_size, wide, FnBuilder, LResult, ModuleBuilder,
    Place,
};
use crate::ast::AddressSpace;
use crate::diagnostic::Location;
use crate::hir::{self, Expr, ExprKind as H};
use crate::types::{Scalar, Type};
use naga::{Handle, Span};

/// Where the expressions of a value go.
pub(super) enum Arena<'f> {
    /// The module's constant expressions (global variable initializers).
    Constant,
    /// A function under construction; leaves are evaluated at run time.
    Function(&'f mut FnBuilder),
}

/// One sub-object of a list initializer: given whole by `value`, or by
/// parts in `children` (index, sub-tree), or, with neither, zero.
#[derive(Default)]
struct InitTree<'e> {
    value: Option<&'e Expr>,
    children: Vec<(u64, InitTree<'e>)>,
}

impl<'e> InitTree<'e> {
    fn from_items(items: &'e [(Vec<u64>, Expr)]) -> Self {
        let mut root = InitTree::default();
        for (path, value) in items {
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

    fn child(&self, i: u64) -> Option<&InitTree<'e>> {
        self.children
            .iter()
            .find(|(j, _)| *j == i)
            .map(|(_, tree)| tree)
    }
}

impl ModuleBuilder<'_> {
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
        items: &[(Vec<u64>, Expr)],
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let tree = InitTree::from_items(items);
        self.init_tree(arena, ty, &tree, location)
    }

    fn init_tree(
        &mut self,
        arena: &mut Arena,
        ty: &Type,
        tree: &InitTree,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        if tree.value.is_none() && !tree.children.is_empty() && self.is_image(ty) {
            return self.init_image(arena, ty, tree, location);
        }
        let naga_ty = self.value_type(ty, location)?;
        if let Some(value) = tree.value {
            return self.init_leaf(arena, value);
        }
        if tree.children.is_empty() {
            return Ok(self.append(arena, naga::Expression::ZeroValue(naga_ty)));
        }
        let parts: Vec<Type> = match ty {
            Type::Array(elem, n) => vec![(**elem).clone(); *n as usize],
            Type::Vector(s, n) => vec![Type::Scalar(*s); usize::from(*n)],
            Type::Record(r) => {
                let complete = self.program.records.get(r.id as usize).unwrap_or(r);
                complete.fields.iter().map(|f| f.ty.clone()).collect()
            }
            // `int x = { 5 };`: the one value is the scalar's.
            _ => {
                return match tree.child(0) {
                    Some(sub) => self.init_tree(arena, ty, sub, location),
                    None => Ok(self.append(arena, naga::Expression::ZeroValue(naga_ty))),
                }
            }
        };
        let mut components = Vec::with_capacity(parts.len());
        for (i, part) in parts.iter().enumerate() {
            components.push(match tree.child(i as u64) {
                Some(sub) => self.init_tree(arena, part, sub, location)?,
                None => {
                    let zero_ty = self.value_type(part, location)?;
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
            return Err(self.error(
                location,
                format!(
                    "program-scope initializers of '{}' (a union, or a struct with members narrower than 32 bits) are not supported yet by this translator",
                    ty.display()
                ),
            ));
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
        if let Some(value) = tree.value {
            let value = self.plain(fb, value)?;
            return self.store(fb, place, super::Value::Plain(value), location, None);
        }
        for (i, sub) in &tree.children {
            let part = self.sub_place(fb, place.clone(), *i, location)?;
            self.init_into(fb, part, sub, location)?;
        }
        Ok(())
    }

    fn init_leaf(&mut self, arena: &mut Arena, value: &Expr) -> LResult<Handle<naga::Expression>> {
        match arena {
            Arena::Function(fb) => self.plain(fb, value),
            Arena::Constant => self.constant_expr(value),
        }
    }

    /// `e` as a constant expression of the module. The checker has folded
    /// arithmetic on constants, so what remains are literals and the
    /// aggregates built of them.
    fn constant_expr(&mut self, e: &Expr) -> LResult<Handle<naga::Expression>> {
        let location = e.location;
        let expr = match (&e.kind, &e.ty) {
            (H::Int(bits), Type::Scalar(s)) => naga::Expression::Literal(literal(*s, *bits)),
            (H::Float(v), Type::Scalar(s)) => naga::Expression::Literal(float_literal(*s, *v)),
            (H::Int(_) | H::Float(_) | H::Splat(_) | H::VectorLiteral(_), Type::Vector(s, n))
                if wide::is_wide(&e.ty) =>
            {
                let Some(lanes) = constant_lanes(e) else {
                    return Err(self.error(
                        location,
                        "this initializer of a program-scope variable is not a constant the translator can evaluate yet",
                    ));
                };
                let mut scalars = Vec::with_capacity(lanes.len());
                for lane in &lanes {
                    scalars.push(self.constant_expr(lane)?);
                }
                return self.wide_from_scalars(&mut Arena::Constant, *s, *n, scalars);
            }
            (H::Int(_) | H::Float(_), Type::Vector(s, n)) => {
                let scalar = Expr::new(e.kind.clone(), Type::Scalar(*s), location);
                let value = self.constant_expr(&scalar)?;
                let size = vector_size(*n).ok_or_else(|| {
                    self.error(location, "this vector width is not supported yet by this translator")
                })?;
                naga::Expression::Splat { size, value }
            }
            (H::Splat(x), Type::Vector(_, n)) => {
                let value = self.constant_expr(x)?;
                let size = vector_size(*n).ok_or_else(|| {
                    self.error(location, "this vector width is not supported yet by this translator")
                })?;
                naga::Expression::Splat { size, value }
            }
            (H::VectorLiteral(parts), _) => {
                let ty = self.value_type(&e.ty, location)?;
                let mut components = Vec::with_capacity(parts.len());
                for p in parts {
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
    pub(super) fn program_global(
        &mut self,
        id: hir::GlobalId,
        location: Location,
    ) -> LResult<Handle<naga::GlobalVariable>> {
        if let Some(&g) = self.program_globals.get(&id) {
            return Ok(g);
        }
        let global = &self.program.globals[id];
        if global.space != AddressSpace::Constant {
            return Err(self.error(
                location,
                "program-scope variables in the global address space are not supported yet by this translator",
            ));
        }
        let (name, declared_at) = (global.name.to_string(), global.location);
        let ty = self.value_type(&global.ty, declared_at)?;
        let init = match &global.init {
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
        self.program_globals.insert(id, handle);
        Ok(handle)
    }
}

/// The scalar lanes of a constant vector expression (a literal splat, a
/// splat or a vector literal of constants), or `None` when it is another
/// kind of expression.
fn constant_lanes(e: &Expr) -> Option<Vec<Expr>> {
    let n = usize::from(wide::width_of(&e.ty));
    let scalar_ty = Type::Scalar(e.ty.element()?);
    match &e.kind {
        H::Int(_) | H::Float(_) if n == 1 => Some(vec![e.clone()]),
        H::Int(_) | H::Float(_) => {
            let lane = Expr::new(e.kind.clone(), scalar_ty, e.location);
            Some(vec![lane; n])
        }
        H::Splat(x) => Some(vec![(**x).clone(); n]),
        H::VectorLiteral(parts) => {
            let mut lanes = Vec::with_capacity(n);
            for p in parts {
                lanes.extend(constant_lanes(p)?);
            }
            Some(lanes)
        }
        _ => None,
    }
}
