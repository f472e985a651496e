//! Struct and union types: tags and their scopes, member checking, and the
//! hand-off to the layout engine.

use super::scopes::Key;
use super::{error_type, Checker, Symbol};
use crate::ast;
use crate::layout::{self, FieldSpec, RecordAttributes};
use crate::types::{Record, Type};
use std::rc::Rc;

impl Checker<'_> {
    /// The latest definition of a record: a pointer made while the tag was
    /// only declared still holds the incomplete version.
    pub(super) fn complete_record(&self, r: &Rc<Record>) -> Rc<Record> {
        self.records
            .get(r.id as usize)
            .cloned()
            .unwrap_or_else(|| r.clone())
    }

    fn new_record_id(&mut self, placeholder: Record) -> u32 {
        let id = self.records.len() as u32;
        self.records.push(Rc::new(Record { id, ..placeholder }));
        id
    }

    /// The type a struct/union specifier names, defining it if it has a body.
    pub(super) fn record_type(&mut self, spec: &ast::RecordSpec) -> Type {
        let name: Rc<str> = spec.tag.map_or_else(|| "".into(), |tag| self.spelling(tag));
        // Tags live in their own namespace (C99 6.2.3).
        let key = spec.tag.map(|tag| Key::tag(spec.kind, tag));
        let Some(members) = &spec.fields else {
            // A reference (`struct S x;`) or a forward declaration.
            if let Some(&Symbol::Tag(id)) = key.and_then(|k| self.scopes.lookup(k)) {
                return Type::Record(self.records[id as usize].clone());
            }
            let id = self.new_record_id(Record {
                kind: spec.kind,
                name: name.clone(),
                id: 0,
                complete: false,
                fields: Vec::new(),
                size: 0,
                align: 1,
            });
            if let Some(k) = key {
                self.declare(k, Symbol::Tag(id));
            }
            return Type::Record(self.records[id as usize].clone());
        };
        // A definition completes a tag declared in this same scope, or
        // starts a new type that hides any outer one.
        let forward = key.and_then(|k| match self.scopes.in_innermost(k) {
            Some(Symbol::Tag(id)) => Some(*id),
            _ => None,
        });
        if let Some(id) = forward {
            let previous = self.records[id as usize].clone();
            if previous.complete {
                if self.linking {
                    return self.merge_linked_record(spec, previous);
                }
                self.error(spec.tag_location, format!("redefinition of '{name}'"));
            }
        }
        let placeholder = Record {
            kind: spec.kind,
            name: name.clone(),
            id: 0,
            complete: false,
            fields: Vec::new(),
            size: 0,
            align: 1,
        };
        let id = forward.unwrap_or_else(|| self.new_record_id(placeholder));
        if let Some(k) = key {
            // Declared before the members so they can point to it.
            self.declare(k, Symbol::Tag(id));
        }
        let members = self.member_specs(members);
        let attributes = {
            let p = self.placement(&[&spec.attributes]);
            RecordAttributes {
                aligned: p.aligned,
                packed: p.packed,
            }
        };
        let address_bits = self.caps.address_bits;
        let record = match layout::layout_record(spec.kind, &members, attributes, address_bits) {
            Ok(l) => Record {
                kind: spec.kind,
                name,
                id,
                complete: true,
                fields: l.fields,
                size: l.size,
                align: l.align,
            },
            Err(field) => {
                self.error(
                    spec.location,
                    format!("field '{field}' has incomplete type"),
                );
                return error_type();
            }
        };
        if self.linking && spec.tag.is_none() {
            // An anonymous type repeated by linked units (a shared header)
            // has no tag to match: the same members make it the same type.
            let repeated = self.records.iter().find(|r| {
                r.complete
                    && r.name.is_empty()
                    && r.kind == record.kind
                    && r.fields == record.fields
                    && (r.size, r.align) == (record.size, record.align)
            });
            if let Some(previous) = repeated {
                return Type::Record(previous.clone());
            }
        }
        let record = Rc::new(record);
        self.records[id as usize] = record.clone();
        Type::Record(record)
    }

    /// A definition of a tag that linked units repeat: the same type when
    /// the members and layout are the same, else a redefinition error.
    fn merge_linked_record(&mut self, spec: &ast::RecordSpec, previous: Rc<Record>) -> Type {
        let Some(members) = &spec.fields else {
            return Type::Record(previous);
        };
        let members = self.member_specs(members);
        let attributes = {
            let p = self.placement(&[&spec.attributes]);
            RecordAttributes {
                aligned: p.aligned,
                packed: p.packed,
            }
        };
        let layout = layout::layout_record(spec.kind, &members, attributes, self.caps.address_bits);
        let same = layout.is_ok_and(|l| {
            spec.kind == previous.kind
                && l.fields == previous.fields
                && l.size == previous.size
                && l.align == previous.align
        });
        if !same {
            self.error(
                spec.tag_location,
                format!("redefinition of '{}' with different members", previous.name),
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
                // An anonymous struct or union member (C11): its fields are
                // not reachable by name yet, but it takes its room.
                if let Type::Record(_) = base {
                    out.push(FieldSpec {
                        name: "".into(),
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
                if width.is_some() {
                    self.error(location, "bit-fields are not supported in OpenCL C");
                }
                let Some((name, _)) = declarator.name else {
                    continue;
                };
                let name = self.spelling(name);
                let ty = self.declarator_type(base.clone(), quals, declarator, location);
                let placement = self.placement(&[&d.specs.attributes, &declarator.attributes]);
                let ty = self.apply_endian(ty, &placement, location);
                if ty == Type::Void || matches!(ty, Type::Array(_, 0)) {
                    self.error(location, format!("field '{name}' has incomplete type"));
                    continue;
                }
                if let Type::Record(r) = &ty {
                    if !self.complete_record(r).complete {
                        self.error(
                            location,
                            format!("field has incomplete type '{}'", ty.display()),
                        );
                        continue;
                    }
                }
                if quals.address_space.is_some() && declarator.derived.is_empty() {
                    self.error(location, "field may not be qualified with an address space");
                }
                if out.iter().any(|f| f.name == name) {
                    self.error(location, format!("duplicate member '{name}'"));
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
