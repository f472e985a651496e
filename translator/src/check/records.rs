//! Struct and union types: tags and their scopes, member checking, and the
//! hand-off to the layout engine.

use super::scopes::Key;
use super::tree::Expr;
use super::{Checker, Symbol};
use crate::ast;
use crate::hir;
use crate::hir::ExprKind as H;
use crate::layout::{self, FieldSpec, RecordAttributes};
use crate::types::{Record, Type};
use naga::Handle;

impl Checker<'_> {
    pub(super) fn new_record(
        &mut self,
        kind: ast::RecordKind,
        name: hir::Symbol,
    ) -> Handle<Record> {
        self.program.types.add_record(Record {
            kind,
            name,
            complete: false,
            fields: Vec::new(),
            size: 0,
            align: 1,
        })
    }

    /// The type a struct/union specifier names, defining it if it has a body.
    pub(super) fn record_type(&mut self, spec: &ast::RecordSpec) -> Type {
        let name = spec.tag.map_or(hir::Symbol::EMPTY, |tag| self.symbol(tag));
        // Tags live in their own namespace (C99 6.2.3).
        let key = spec.tag.map(|tag| Key::tag(spec.kind, tag));
        let Some(members) = &spec.fields else {
            // A reference (`struct S x;`) or a forward declaration.
            if let Some(&Symbol::Tag(r)) = key.and_then(|k| self.scopes.lookup(k)) {
                return Type::Record(r);
            }
            let r = self.new_record(spec.kind, name);
            if let Some(k) = key {
                self.declare(k, Symbol::Tag(r));
            }
            return Type::Record(r);
        };
        // A definition completes a tag declared in this same scope, or
        // starts a new type that hides any outer one.
        let forward = key.and_then(|k| match self.scopes.in_innermost(k) {
            Some(Symbol::Tag(r)) => Some(*r),
            _ => None,
        });
        if let Some(r) = forward {
            if self.record(r).complete {
                if self.linking {
                    return self.merge_linked_record(spec, r);
                }
                let name = &self.program.names[name];
                self.error(spec.tag_location, format!("redefinition of '{name}'"));
            }
        }
        let r = forward.unwrap_or_else(|| self.new_record(spec.kind, name));
        if let Some(k) = key {
            // Declared before the members so they can point to it.
            self.declare(k, Symbol::Tag(r));
        }
        let mut fields = self.base_fields(r, &spec.bases);
        // The class's static data members are in scope for its members'
        // types (`int data[N];`).
        self.scopes.push();
        self.define_member_types(r, &spec.types);
        self.define_static_members(r, &spec.statics);
        fields.extend(self.member_specs(members));
        self.scopes.pop();
        let attributes = {
            let p = self.placement(&[&spec.attributes]);
            RecordAttributes {
                aligned: p.aligned,
                packed: p.packed,
                cxx: self.cxx,
            }
        };
        let layout =
            match layout::layout_record(spec.kind, &fields, attributes, &self.program.types) {
                Ok(l) => l,
                Err(field) => {
                    let field = &self.program.names[field];
                    self.error(
                        spec.location,
                        format!("field '{field}' has incomplete type"),
                    );
                    return Type::Error;
                }
            };
        if self.linking && spec.tag.is_none() {
            // An anonymous type repeated by linked units (a shared header)
            // has no tag to match: the same members make it the same type.
            let repeated = self.program.types.records().find(|(_, other)| {
                other.complete
                    && other.name == hir::Symbol::EMPTY
                    && other.kind == spec.kind
                    && other.fields == layout.fields
                    && (other.size, other.align) == (layout.size, layout.align)
            });
            if let Some((previous, _)) = repeated {
                return Type::Record(previous);
            }
        }
        if !spec.bases.is_empty() {
            self.reject_tail_padding_reuse(&layout.fields, spec.location);
        }
        for d in members.iter().filter(|d| d.mutable) {
            for (declarator, _) in &d.declarators {
                let Some((name, _)) = declarator.name else {
                    continue;
                };
                let symbol = self.symbol(name);
                if let Some(index) = layout.fields.iter().position(|f| f.name == symbol) {
                    self.mutable_fields.insert((r, index));
                }
            }
        }
        let record = self.program.types.record_mut(r);
        record.complete = true;
        record.fields = layout.fields;
        record.size = layout.size;
        record.align = layout.align;
        if self.cxx {
            self.note_class_members(r, spec);
        }
        if !spec.method_templates.is_empty() {
            self.note_member_templates(r, spec);
        }
        let defaults: Vec<ast::MemberInit> = (members.iter())
            .flat_map(|d| d.defaults.iter().cloned())
            .collect();
        if !defaults.is_empty() {
            self.member_defaults.insert(r, std::rc::Rc::new(defaults));
        }
        if spec.implicit_constructor {
            self.implicit_constructors.insert(r);
        }
        if !spec.methods.is_empty() {
            self.define_methods(r, spec);
        }
        Type::Record(r)
    }

    /// A definition of a tag that linked units repeat: the same type when
    /// the members and layout are the same, else a redefinition error.
    fn merge_linked_record(&mut self, spec: &ast::RecordSpec, previous: Handle<Record>) -> Type {
        let Some(members) = &spec.fields else {
            return Type::Record(previous);
        };
        let members = self.member_specs(members);
        let attributes = {
            let p = self.placement(&[&spec.attributes]);
            RecordAttributes {
                aligned: p.aligned,
                packed: p.packed,
                cxx: self.cxx,
            }
        };
        let layout = layout::layout_record(spec.kind, &members, attributes, &self.program.types);
        let earlier = self.record(previous);
        let same = layout.is_ok_and(|l| {
            spec.kind == earlier.kind
                && l.fields == earlier.fields
                && l.size == earlier.size
                && l.align == earlier.align
        });
        if !same {
            let name = &self.program.names[earlier.name];
            self.error(
                spec.tag_location,
                format!("redefinition of '{name}' with different members"),
            );
        }
        Type::Record(previous)
    }

    fn member_specs(&mut self, decls: &[ast::FieldDecl]) -> Vec<FieldSpec> {
        let mut out: Vec<FieldSpec> = Vec::new();
        for d in decls {
            let (base, quals) = self.base_type(&d.specs);
            let type_align = self.typedef_alignment(&d.specs);
            if d.declarators.is_empty() {
                // An anonymous struct or union member (C11): it takes its
                // room, and its fields are reached by name through it
                // (`field_path`).
                if let Type::Record(_) = base {
                    out.push(FieldSpec {
                        name: hir::Symbol::EMPTY,
                        ty: base,
                        type_align,
                        aligned: None,
                        packed: false,
                    });
                } else {
                    self.diags
                        .warning(d.location, "declaration does not declare anything");
                }
                continue;
            }
            for (declarator, width) in &d.declarators {
                let location = declarator.name.as_ref().map_or(d.location, |n| n.1);
                if self.reject_reference(declarator, "as members") {
                    continue;
                }
                if width.is_some() {
                    self.error(location, "bit-fields are not supported in OpenCL C");
                }
                let Some((name, _)) = declarator.name else {
                    continue;
                };
                let spelling = self.spelling(name);
                let ty = self.declarator_type(base, quals, declarator, location);
                let placement = self.placement(&[&d.specs.attributes, &declarator.attributes]);
                let ty = self.apply_endian(ty, &placement, location);
                if ty == Type::Void || matches!(ty, Type::Array(_, 0)) {
                    self.error(location, format!("field '{spelling}' has incomplete type"));
                    continue;
                }
                if ty.image().is_some() || ty.is_sampler() {
                    let message = format!(
                        "the '{}' type cannot be used to declare a structure or union field",
                        self.display(ty)
                    );
                    self.error(location, message);
                    continue;
                }
                if let Type::Record(r) = ty {
                    if !self.record(r).complete {
                        self.error(
                            location,
                            format!("field has incomplete type '{}'", self.display(ty)),
                        );
                        continue;
                    }
                }
                if quals.address_space.is_some() && declarator.derived.is_empty() {
                    self.error(location, "field may not be qualified with an address space");
                }
                let name = self.symbol(name);
                if out.iter().any(|f| f.name == name) {
                    self.error(location, format!("duplicate member '{spelling}'"));
                    continue;
                }
                let is_plain = declarator.derived.is_empty();
                out.push(FieldSpec {
                    name,
                    ty,
                    type_align: if is_plain { type_align } else { None },
                    aligned: placement.aligned,
                    packed: placement.packed,
                });
            }
        }
        out
    }

    /// `__builtin_offsetof(t, steps)`: the byte offset of the designated
    /// member in the host's layout of `t` (members of anonymous members
    /// included), or `None` after reporting why there is none. The offset
    /// is a `size_t` constant, and an expression where an array index is
    /// not constant (`b[i]`, as clang allows: it is then no constant
    /// expression): the constant part plus each such index times its
    /// element's size.
    pub(super) fn offset_of(
        &mut self,
        t: &ast::TypeName,
        steps: &[ast::OffsetofStep],
        span: crate::diagnostic::Span,
    ) -> Option<Expr> {
        let at = span.location();
        let size_t = Type::Scalar(self.size_type(false));
        let mut ty = self.type_name(t);
        let mut offset = 0u64;
        let mut terms: Vec<Expr> = Vec::new();
        for step in steps {
            match step {
                ast::OffsetofStep::Member(name) => {
                    let r = match ty {
                        Type::Record(r) if self.record(r).complete => r,
                        Type::Record(_) => {
                            let shown = self.display(ty);
                            self.error(at, format!("offsetof of incomplete type '{shown}'"));
                            return None;
                        }
                        t if t.is_error() => return None,
                        _ => {
                            let shown = self.display(ty);
                            self.error(
                                at,
                                format!("offsetof requires struct, union, or class type, '{shown}' invalid"),
                            );
                            return None;
                        }
                    };
                    let spelling = self.spelling(*name);
                    let Some(path) = self.field_path(r, &spelling) else {
                        let shown = self.display(ty);
                        // Where clang puts it: at the offsetof.
                        self.error(at, format!("no member named '{spelling}' in '{shown}'"));
                        return None;
                    };
                    let mut record = r;
                    for i in path {
                        let field = &self.record(record).fields[i];
                        offset += field.offset;
                        ty = field.ty;
                        if let Type::Record(inner) = ty {
                            record = inner;
                        }
                    }
                }
                ast::OffsetofStep::Index(index) => {
                    let Type::Array(elem, _) = ty else {
                        if !ty.is_error() {
                            let shown = self.display(ty);
                            self.error(
                                index.location,
                                format!("subscripted value is not an array ('{shown}')"),
                            );
                        }
                        return None;
                    };
                    ty = self.program.types[elem];
                    let size = self.type_size(ty)?;
                    if let Some(i) = self.const_int(index) {
                        offset = (i128::from(offset) + i * i128::from(size)) as u64;
                        continue;
                    }
                    let i = self.rvalue(index);
                    if i.ty.is_error() {
                        return None;
                    }
                    if !matches!(i.ty, Type::Scalar(s) if s.is_integer()) {
                        self.error(index.location, "array subscript is not an integer");
                        return None;
                    }
                    // In `size_t`, wrapping as the host's does: a negative
                    // index moves back.
                    let i = self.convert(i, size_t);
                    let size = self.int_const(size, size_t, index.span());
                    terms.push(Expr::new(
                        H::Binary(ast::BinaryOp::Mul, Box::new(i), Box::new(size)),
                        size_t,
                        index.span(),
                    ));
                }
            }
        }
        let constant = self.int_const(offset, size_t, span);
        Some(terms.into_iter().fold(constant, |sum, term| {
            Expr::new(
                H::Binary(ast::BinaryOp::Add, Box::new(sum), Box::new(term)),
                size_t,
                span,
            )
        }))
    }

    /// C's own `offsetof`, `&((T *)0)->member.path[i]`: the type and byte
    /// offset of the designated object, for an lvalue built from a null
    /// pointer constant cast to a pointer. `None` when `e` does not have
    /// that shape; nothing is reported then, and the expression is checked
    /// as written. A shape that matches but names no member is an error
    /// here.
    pub(super) fn null_based_place(&mut self, e: &ast::Expr) -> Option<(Type, u64)> {
        use ast::ExprKind as A;
        crate::stack::guard(|| match &e.kind {
            A::Unary(ast::UnaryOp::Deref, p) => self.null_pointer_cast(p),
            A::Member {
                base,
                name,
                name_location,
                arrow,
            } => {
                let (ty, offset) = if *arrow {
                    self.null_pointer_cast(base)?
                } else {
                    self.null_based_place(base)?
                };
                let Type::Record(r) = ty else {
                    return None;
                };
                let spelling = self.spelling(*name);
                let Some(path) = self.field_path(r, &spelling) else {
                    let shown = self.display(ty);
                    self.error(
                        *name_location,
                        format!("no member named '{spelling}' in '{shown}'"),
                    );
                    return Some((Type::Error, 0));
                };
                let (mut ty, mut offset, mut record) = (ty, offset, r);
                for i in path {
                    let field = &self.record(record).fields[i];
                    offset += field.offset;
                    ty = field.ty;
                    if let Type::Record(inner) = ty {
                        record = inner;
                    }
                }
                Some((ty, offset))
            }
            A::Index(operands) => {
                let (base, index) = &**operands;
                let (Type::Array(elem, _), offset) = self.null_based_place(base)? else {
                    return None;
                };
                let i = self.const_int(index)?;
                let elem = self.program.types[elem];
                let size = i128::from(self.type_size(elem)?);
                let offset = u64::try_from(i128::from(offset) + i * size).ok()?;
                Some((elem, offset))
            }
            _ => None,
        })
    }

    /// `(T *)0`: the pointee type `T`, at offset 0.
    fn null_pointer_cast(&mut self, e: &ast::Expr) -> Option<(Type, u64)> {
        let ast::ExprKind::Cast(t, zero) = &e.kind else {
            return None;
        };
        if !matches!(zero.kind, ast::ExprKind::IntLiteral(_)) || self.const_int(zero)? != 0 {
            return None;
        }
        let ty = self.type_name(t);
        let pointee = self.program.types.pointee(ty)?;
        Some((pointee.ty, 0))
    }

    /// The field indices that lead from record `r` to its member `name`:
    /// one for a member of its own, more for a member of an anonymous
    /// struct or union member (C11 6.7.2.1p13), searched in order.
    pub(super) fn field_path(&self, r: Handle<Record>, name: &str) -> Option<Vec<usize>> {
        let fields = &self.record(r).fields;
        if let Some(i) = fields
            .iter()
            .position(|f| f.name != hir::Symbol::EMPTY && &self.program.names[f.name] == name)
        {
            return Some(vec![i]);
        }
        fields.iter().enumerate().find_map(|(i, f)| match f.ty {
            Type::Record(inner) if f.name == hir::Symbol::EMPTY => {
                let mut path = self.field_path(inner, name)?;
                path.insert(0, i);
                Some(path)
            }
            _ => None,
        })
    }

    /// The alignment a typedef name carries (`typedef int a2
    /// __attribute__((aligned(2)))`), which replaces its type's.
    pub(super) fn typedef_alignment(&self, specs: &ast::DeclSpecs) -> Option<u64> {
        match &specs.ty {
            ast::TypeSpec::Typedef(name) => match self.scopes.lookup(name) {
                Some(Symbol::Typedef(_, _, align)) => *align,
                _ => None,
            },
            _ => None,
        }
    }
}
