//! One function body into HIR statements. SPIR-V's blocks become a flat
//! run of labelled statements ending in gotos, which `gotos::eliminate`
//! restructures as it does C's `goto`; each result id becomes a local
//! initialised where the instruction stands (a load reads memory where the
//! load is), an `OpPhi` a local its predecessors assign before they jump.
//! Pointers built by access chains and casts are pure, so they are not
//! stored: each use builds the member, element or offset expression again,
//! which keeps every pointer's root visible to the analysis.

use super::build::{ModuleScope, ModuleVariable, Reader};
use super::constants::{constant_expr, zero};
use crate::ast::{AddressSpace, BinaryOp};
use crate::builtins::resolve;
use crate::diagnostic::Span;
use crate::hir::{
    Block, Expr, ExprId, ExprKind, Function, FunctionId, Label, Local, LocalId, Stmt, StmtKind,
    Symbol,
};
use crate::types::{Pointee, Scalar, Type};
use rspirv::dr::{self, Instruction, Operand};
use rspirv::spirv::{FunctionParameterAttribute, Op};
use std::collections::HashMap;

pub(super) type R<T> = Result<T, String>;

/// What a result id stands for in the function.
#[derive(Clone, Debug)]
pub(super) enum Value {
    /// A value held in a local.
    Local(LocalId),
    /// The address of a local variable (`OpVariable`, a by-value
    /// parameter, a `__local` variable), of pointer type `Type`.
    Variable(LocalId, Type),
    /// The address of a program-scope variable.
    Global(crate::hir::GlobalId, Type),
    /// The address of a built-in input variable.
    Builtin(rspirv::spirv::BuiltIn),
    /// An access chain: `base` offset by `first` elements (the `Ptr`
    /// chains), then into member, element or lane `indices`; of pointer
    /// type `ty`.
    Chain {
        base: u32,
        first: Option<u32>,
        indices: Vec<u32>,
        ty: Type,
    },
    /// A parameter pointing to arrays of type `Type` in a buffer, held as
    /// a pointer to their first element.
    ArrayParameter(LocalId, Type),
    /// `value` as a pointer of type `ty` (pointer bitcasts and the generic
    /// casts).
    Cast { value: u32, ty: Type },
}

/// An `OpPhi`: its local, and its value for each predecessor as
/// `(value, predecessor)` pairs.
type Phi = (LocalId, Vec<(u32, u32)>);

/// Where a pointer points, as an address or as the lvalue it addresses
/// (with its address space), whichever is at hand.
enum Place {
    Pointer(ExprId),
    Lvalue(ExprId, AddressSpace),
    /// An array of type `Type` seen at the address of its first element
    /// (a pointer cast to an array pointer, LLVM's way of viewing a union
    /// or a struct as an array): the pointer model keeps no pointers to
    /// arrays in buffers, so its elements are reached by offsets.
    ArrayAt(ExprId, Type),
}

pub(super) struct FunctionReader<'r, 'm> {
    pub reader: &'r mut Reader,
    pub scope: &'r ModuleScope<'m>,
    pub handle: FunctionId,
    pub f: Function,
    pub values: HashMap<u32, Value>,
    labels: HashMap<u32, Label>,
    /// The `OpPhi`s of each block (by label id): the local and the
    /// `(value, predecessor)` pairs.
    phis: HashMap<u32, Vec<Phi>>,
    /// The label of the block being read.
    pub block: u32,
    /// The statements of the block being read.
    pub out: Block,
    /// Integers made by `OpConvertPtrToU`, and the pointer each holds:
    /// LLVM compares and subtracts pointers as such integers, which this
    /// front end compares and subtracts as the pointers (see
    /// `arithmetic::pointer_operands`).
    pub pointer_integers: HashMap<u32, u32>,
    /// Vectors made by `OpVectorShuffle` with undefined lanes, and their
    /// defined lanes: a store of one writes only those (clang widens a
    /// 3-vector to 4 lanes with an undefined fourth, whose memory, the
    /// 3-vector's padding, must keep its bytes).
    pub partly_defined: HashMap<u32, Vec<u8>>,
    /// The line of the instruction being read: every expression and
    /// statement it makes points there, so later stages' diagnostics
    /// name it.
    span: Span,
}

impl<'r, 'm> FunctionReader<'r, 'm> {
    pub fn new(reader: &'r mut Reader, scope: &'r ModuleScope<'m>, handle: FunctionId) -> Self {
        let declared = &reader.program.functions[handle];
        let placeholder = Function::declared(
            declared.name,
            declared.signature.clone(),
            declared.ret,
            declared.span,
        );
        let f = std::mem::replace(&mut reader.program.functions[handle], placeholder);
        FunctionReader {
            reader,
            scope,
            handle,
            f,
            values: HashMap::new(),
            labels: HashMap::new(),
            phis: HashMap::new(),
            block: 0,
            out: Block::new(),
            pointer_integers: HashMap::new(),
            partly_defined: HashMap::new(),
            span: Span::default(),
        }
    }

    /// Reads `function`'s parameters and blocks into the function, and
    /// puts it back in the program.
    pub fn read_function(mut self, function: &'m dr::Function) {
        if let Err((inst, why)) = self.read_body(function) {
            let listing = &self.scope.listing;
            self.reader.error(listing, inst, why);
        }
        self.f.defined = true;
        crate::gotos::eliminate(&mut self.f);
        self.reader.program.functions[self.handle] = self.f;
    }

    fn read_body(&mut self, function: &'m dr::Function) -> Result<(), (&'m Instruction, String)> {
        let signature = self.f.signature.clone();
        for (param, ty) in function.parameters.iter().zip(signature) {
            let id = param.result_id.unwrap_or(0);
            let name = self.name(id);
            let local = self.local(ty, name);
            self.f.params.push(local);
            let by_value = self
                .scope
                .has_param_attribute(id, FunctionParameterAttribute::ByVal);
            let declared = match param.result_type {
                Some(t) => Some(self.scope.value_type(t).map_err(|e| (param, e))?),
                None => None,
            };
            let array = declared
                .and_then(|t| self.reader.program.types.pointee(t).copied())
                .filter(super::build::is_buffer_of_arrays)
                .map(|p| p.ty);
            let value = match (by_value, declared, array) {
                (true, Some(pointer), _) => Value::Variable(local, pointer),
                (false, _, Some(array)) => Value::ArrayParameter(local, array),
                _ => Value::Local(local),
            };
            self.values.insert(id, value);
        }
        for (number, block) in function.blocks.iter().enumerate() {
            let label = block.label.as_ref().and_then(|l| l.result_id).unwrap_or(0);
            self.labels.insert(label, Label(number as u32));
        }
        for block in &function.blocks {
            let label = block.label.as_ref().and_then(|l| l.result_id).unwrap_or(0);
            for inst in block
                .instructions
                .iter()
                .filter(|i| i.class.opcode == Op::Phi)
            {
                let ty = self.result_type(inst).map_err(|e| (inst, e))?;
                let local = self.local(ty, Symbol::EMPTY);
                let incoming = inst
                    .operands
                    .chunks(2)
                    .filter_map(|pair| match pair {
                        [Operand::IdRef(value), Operand::IdRef(pred)] => Some((*value, *pred)),
                        _ => None,
                    })
                    .collect();
                self.phis.entry(label).or_default().push((local, incoming));
                self.values
                    .insert(inst.result_id.unwrap_or(0), Value::Local(local));
            }
        }
        let mut body = Block::new();
        for (position, &number) in super::layout::layout(function).iter().enumerate() {
            let block = &function.blocks[number];
            self.block = block.label.as_ref().and_then(|l| l.result_id).unwrap_or(0);
            if position > 0 {
                let label = self.labels[&self.block];
                self.stmt(StmtKind::Label(label));
            }
            for inst in &block.instructions {
                self.span = self.scope.listing.place(inst).0;
                self.instruction(inst).map_err(|e| (inst, e))?;
            }
            body.append(&mut self.out);
        }
        self.f.body = body;
        Ok(())
    }

    fn name(&mut self, id: u32) -> Symbol {
        match self.scope.names.get(&id) {
            Some(name) => self.reader.program.names.intern(name),
            None => Symbol::EMPTY,
        }
    }

    /// A new private local of type `ty`.
    pub fn local(&mut self, ty: Type, name: Symbol) -> LocalId {
        self.local_in(ty, name, AddressSpace::Private)
    }

    pub fn local_in(&mut self, ty: Type, name: Symbol, space: AddressSpace) -> LocalId {
        self.f.locals.append(
            Local {
                name,
                ty,
                space,
                is_const: false,
                span: Span::default(),
            },
            naga::Span::UNDEFINED,
        )
    }

    pub fn expr(&mut self, kind: ExprKind, ty: Type) -> ExprId {
        self.f.exprs.append(
            Expr {
                kind,
                ty,
                span: self.span,
                contract: false,
            },
            naga::Span::UNDEFINED,
        )
    }

    pub fn ty(&self, e: ExprId) -> Type {
        self.f.exprs[e].ty
    }

    pub fn stmt(&mut self, kind: StmtKind) {
        let s = self.f.stmts.append(
            Stmt {
                kind,
                span: self.span,
            },
            naga::Span::UNDEFINED,
        );
        self.out.push(s);
    }

    /// The type of `inst`'s result.
    pub fn result_type(&self, inst: &Instruction) -> R<Type> {
        self.scope.value_type(inst.result_type.unwrap_or(0))
    }

    /// Holds `e` as the value of `inst`'s result, in a local initialised
    /// here, converted to the result's type where the HIR gave another
    /// (comparisons give `int`, built-ins their signed types).
    pub fn define(&mut self, inst: &Instruction, e: ExprId) -> R<()> {
        let ty = self.result_type(inst)?;
        let e = self.convert(e, ty);
        let local = self.local(ty, Symbol::EMPTY);
        self.stmt(StmtKind::Init(local, e));
        self.values
            .insert(inst.result_id.unwrap_or(0), Value::Local(local));
        Ok(())
    }

    /// `e` converted to `ty`: a pointer cast between pointers, a C
    /// conversion otherwise, nothing when it has that type.
    pub fn convert(&mut self, e: ExprId, ty: Type) -> ExprId {
        let from = self.ty(e);
        if from == ty {
            return e;
        }
        if from.is_pointer() && ty.is_pointer() {
            return self.expr(ExprKind::PointerCast(e), ty);
        }
        // A vector of bools is -1/0 lanes; a comparison of wider or
        // narrower lanes converts lane by lane and keeps -1 as -1.
        self.expr(ExprKind::Convert(e), ty)
    }

    /// The value of id `id` as an expression.
    pub fn read(&mut self, id: u32) -> R<ExprId> {
        if let Some(value) = self.values.get(&id).cloned() {
            return match value {
                Value::Local(l) => {
                    let ty = self.f.locals[l].ty;
                    Ok(self.expr(ExprKind::Local(l), ty))
                }
                Value::Builtin(_) => {
                    Err("the address of a built-in variable is not supported".into())
                }
                _ => {
                    let place = self.place(id)?;
                    let pointer = self.pointer(place);
                    let ty = self.pointer_type(id)?;
                    Ok(self.convert(pointer, ty))
                }
            };
        }
        if let Some(value) = self.spec_constant_op(id)? {
            return Ok(value);
        }
        if self.values.contains_key(&id) {
            return self.read(id);
        }
        if self.scope.constants.contains_key(&id) {
            return constant_expr(self.scope, &mut self.f.exprs, id);
        }
        if self.bind_module_variable(id)? {
            return self.read(id);
        }
        Err(format!(
            "%{id} is used before it is defined, or is not a value"
        ))
    }

    /// `OpSpecConstantOp` `id`: its operation done where it is used, as
    /// the instruction it names. A pointer it makes (an access chain or
    /// cast of a variable) is bound like that instruction's; a value is
    /// computed again at each use, which may not be dominated by another.
    fn spec_constant_op(&mut self, id: u32) -> R<Option<ExprId>> {
        let Some(inst) = self.scope.constants.get(&id).copied() else {
            return Ok(None);
        };
        if inst.class.opcode != Op::SpecConstantOp {
            return Ok(None);
        }
        let Some(Operand::LiteralSpecConstantOpInteger(op)) = inst.operands.first() else {
            return Err("an OpSpecConstantOp without its operation".into());
        };
        let operation = Instruction::new(
            *op,
            inst.result_type,
            inst.result_id,
            inst.operands[1..].to_vec(),
        );
        self.instruction(&operation)?;
        match self.values.get(&id).cloned() {
            Some(Value::Local(local)) => {
                self.values.remove(&id);
                let ty = self.f.locals[local].ty;
                Ok(Some(self.expr(ExprKind::Local(local), ty)))
            }
            Some(_) => Ok(None),
            None => Err("an OpSpecConstantOp that makes no value".into()),
        }
    }

    /// Binds module variable `id` in this function: `false` when it is
    /// none.
    pub fn bind_module_variable(&mut self, id: u32) -> R<bool> {
        let Some(variable) = self.scope.variables.get(&id).copied() else {
            return Ok(false);
        };
        let pointer_type = || {
            self.scope
                .module
                .types_global_values
                .iter()
                .find(|i| i.result_id == Some(id))
                .and_then(|i| i.result_type)
                .map(|t| self.scope.value_type(t))
                .unwrap_or_else(|| Err(format!("%{id} has no type")))
        };
        let value = match variable {
            ModuleVariable::Global(g) => Value::Global(g, pointer_type()?),
            ModuleVariable::Builtin(b) => Value::Builtin(b),
            ModuleVariable::Workgroup(ty) => {
                let name = self.name(id);
                let local = self.local_in(ty, name, AddressSpace::Local);
                Value::Variable(local, pointer_type()?)
            }
        };
        self.values.insert(id, value);
        Ok(true)
    }

    /// The pointer type of pointer value `id`.
    fn pointer_type(&self, id: u32) -> R<Type> {
        match self.values.get(&id) {
            Some(Value::Variable(_, ty) | Value::Global(_, ty)) => Ok(*ty),
            Some(Value::Chain { ty, .. } | Value::Cast { ty, .. }) => Ok(*ty),
            Some(Value::Local(l) | Value::ArrayParameter(l, _)) => Ok(self.f.locals[*l].ty),
            _ => Err(format!("%{id} is not a pointer")),
        }
    }

    /// The type pointer value `id` points to, as the module sees it (a
    /// buffer of arrays points to an array): `None` when `id` is no
    /// pointer value bound here.
    pub fn pointee_of(&self, id: u32) -> Option<Type> {
        if let Some(Value::ArrayParameter(_, array)) = self.values.get(&id) {
            return Some(*array);
        }
        let pointer = self.pointer_type(id).ok()?;
        self.reader.program.types.pointee(pointer).map(|p| p.ty)
    }

    /// Where pointer `id` points.
    fn place(&mut self, id: u32) -> R<Place> {
        if !self.values.contains_key(&id) && !self.bind_module_variable(id)? {
            if let Some(value) = self.spec_constant_op(id)? {
                return Ok(Place::Pointer(value));
            }
            // A pointer that an OpSpecConstantOp bound.
            if self.values.contains_key(&id) {
                return self.place(id);
            }
            return Ok(Place::Pointer(self.read(id)?));
        }
        let value = self.values[&id].clone();
        Ok(match value {
            Value::Variable(l, _) => {
                let (ty, space) = (self.f.locals[l].ty, self.f.locals[l].space);
                Place::Lvalue(self.expr(ExprKind::Local(l), ty), space)
            }
            Value::Global(g, _) => {
                let global = &self.reader.program.globals[g];
                let (ty, space) = (global.ty, global.space);
                Place::Lvalue(self.expr(ExprKind::Global(g), ty), space)
            }
            Value::Chain {
                base,
                first,
                indices,
                ..
            } => self.chain(base, first, &indices)?,
            Value::Cast { value, ty } => {
                let inner = self.place(value)?;
                self.cast_place(inner, ty)?
            }
            Value::Local(_) => Place::Pointer(self.read(id)?),
            Value::ArrayParameter(l, array) => {
                let ty = self.f.locals[l].ty;
                Place::ArrayAt(self.expr(ExprKind::Local(l), ty), array)
            }
            Value::Builtin(_) => return Err("a built-in variable is only loaded".into()),
        })
    }

    /// The type at `place`.
    fn place_type(&self, place: &Place) -> Option<Type> {
        match *place {
            Place::Pointer(p) => self.reader.program.types.pointee(self.ty(p)).map(|p| p.ty),
            Place::Lvalue(l, _) => Some(self.ty(l)),
            Place::ArrayAt(_, array) => Some(array),
        }
    }

    /// `place` seen through a pointer of type `ty`. A cast to the type of
    /// the first element or member (LLVM's way of taking an array's first
    /// element) is that element, as C's array decay is, so the pointer
    /// keeps its root; other casts reinterpret the pointer.
    fn cast_place(&mut self, place: Place, ty: Type) -> R<Place> {
        let types = &self.reader.program.types;
        let target = types.pointee(ty).map(|p| p.ty);
        let mut path = Vec::new();
        let mut at = self.place_type(&place);
        while let (Some(current), Some(target)) = (at, target) {
            if current == target {
                break;
            }
            at = match current {
                Type::Array(..) => types.array_element(current),
                Type::Record(r) => types[r]
                    .fields
                    .first()
                    .filter(|f| f.offset == 0)
                    .map(|f| f.ty),
                _ => None,
            };
            path.push(current);
        }
        if at.is_none() || at != target || path.is_empty() {
            // A reinterpreting cast: of an array's first element, as C's
            // `(T *)array` is.
            let mut place = place;
            while let Some(array @ Type::Array(..)) = self.place_type(&place) {
                let (lvalue, space) = self.lvalue_of(place)?;
                let element = self
                    .reader
                    .program
                    .types
                    .array_element(array)
                    .unwrap_or(array);
                let zero = self.expr(ExprKind::Int(0), self.index_type());
                place = Place::Lvalue(self.expr(ExprKind::Index(lvalue, zero), element), space);
            }
            let pointer = self.pointer(place);
            if let Some(array @ Type::Array(..)) = target {
                let types = &mut self.reader.program.types;
                let pointee = *types
                    .pointee(ty)
                    .ok_or("a cast to a type that is not a pointer")?;
                let element = types.pointer(Pointee {
                    ty: types.innermost_element(array),
                    ..pointee
                });
                let first = self.convert(pointer, element);
                return Ok(Place::ArrayAt(first, array));
            }
            return Ok(Place::Pointer(self.convert(pointer, ty)));
        }
        let (mut lvalue, space) = self.lvalue_of(place)?;
        for outer in path {
            lvalue = match outer {
                Type::Record(r) => {
                    let field = self.reader.program.types[r].fields[0].ty;
                    self.expr(ExprKind::Member(lvalue, 0), field)
                }
                _ => {
                    let element = self
                        .reader
                        .program
                        .types
                        .array_element(outer)
                        .unwrap_or(outer);
                    let zero = self.expr(ExprKind::Int(0), self.index_type());
                    self.expr(ExprKind::Index(lvalue, zero), element)
                }
            };
        }
        Ok(Place::Lvalue(lvalue, space))
    }

    fn pointer(&mut self, place: Place) -> ExprId {
        match place {
            Place::Pointer(p) | Place::ArrayAt(p, _) => p,
            Place::Lvalue(l, space) => {
                let ty = self.ty(l);
                let pointer = self.reader.program.types.pointer(Pointee {
                    ty,
                    is_const: false,
                    is_volatile: false,
                    space,
                    endian_host: false,
                });
                self.expr(ExprKind::AddressOf(l), pointer)
            }
        }
    }

    /// The lvalue at `place`, and its address space.
    fn lvalue_of(&mut self, place: Place) -> R<(ExprId, AddressSpace)> {
        match place {
            Place::Lvalue(l, space) => Ok((l, space)),
            Place::ArrayAt(..) => Err("a whole array read through a cast pointer".into()),
            Place::Pointer(p) => {
                let Some(pointee) = self.reader.program.types.pointee(self.ty(p)).copied() else {
                    return Err("a value that is not a pointer is used as one".into());
                };
                if pointee.ty == Type::Void {
                    return Err("a pointer to void is dereferenced".into());
                }
                Ok((self.expr(ExprKind::Deref(p), pointee.ty), pointee.space))
            }
        }
    }

    /// The lvalue pointer `id` points to.
    pub fn lvalue(&mut self, id: u32) -> R<ExprId> {
        let place = self.place(id)?;
        Ok(self.lvalue_of(place)?.0)
    }

    /// The integer type indices and offsets are converted to: `ptrdiff_t`.
    pub fn index_type(&self) -> Type {
        if self.reader.program.types.address_bits() == 64 {
            Type::Scalar(Scalar::Long)
        } else {
            Type::INT
        }
    }

    /// Index `id` as a signed `ptrdiff_t` (SPIR-V indices are signed).
    fn index(&mut self, id: u32) -> R<ExprId> {
        let e = self.read(id)?;
        let signed = self.signed(e);
        Ok(self.convert(signed, self.index_type()))
    }

    /// An access chain's place.
    fn chain(&mut self, base: u32, first: Option<u32>, indices: &[u32]) -> R<Place> {
        let mut place = self.place(base)?;
        if let Some(first) = first.filter(|&f| self.scope.constant_u64(f) != Some(0)) {
            if let Place::ArrayAt(at, array) = place {
                // Whole arrays further on: their length in elements.
                let types = &self.reader.program.types;
                let inner = types
                    .size(types.innermost_element(array))
                    .unwrap_or(1)
                    .max(1);
                let length = types.size(array).unwrap_or(0) / inner;
                let index_ty = self.index_type();
                let offset = self.index(first)?;
                let length = self.expr(ExprKind::Int(length), index_ty);
                let offset = self.expr(ExprKind::Binary(BinaryOp::Mul, offset, length), index_ty);
                let ty = self.ty(at);
                place = Place::ArrayAt(self.expr(ExprKind::PointerOffset(at, offset), ty), array);
                return self.chain_rest(place, indices);
            }
            let pointer = self.pointer(place);
            let offset = self.index(first)?;
            let ty = self.ty(pointer);
            place = Place::Pointer(self.expr(ExprKind::PointerOffset(pointer, offset), ty));
        }
        self.chain_rest(place, indices)
    }

    /// The place `indices` lead to from `place`, into members, elements
    /// and lanes.
    fn chain_rest(&mut self, mut place: Place, indices: &[u32]) -> R<Place> {
        for &index in indices {
            if let Place::ArrayAt(first, array) = place {
                place = self.array_element_at(first, array, index)?;
                continue;
            }
            let (lvalue, space) = self.lvalue_of(place)?;
            let ty = self.ty(lvalue);
            place = match ty {
                Type::Record(r) => {
                    let k = self
                        .scope
                        .constant_u64(index)
                        .ok_or("a struct member index that is not a constant")?;
                    let field = self.reader.program.types[r]
                        .fields
                        .get(k as usize)
                        .map(|f| f.ty)
                        .ok_or("a struct member index past the members")?;
                    Place::Lvalue(
                        self.expr(ExprKind::Member(lvalue, k as usize), field),
                        space,
                    )
                }
                Type::Array(..) => {
                    let element = self.reader.program.types.array_element(ty).unwrap_or(ty);
                    let i = self.index(index)?;
                    Place::Lvalue(self.expr(ExprKind::Index(lvalue, i), element), space)
                }
                Type::Vector(s, _) => {
                    // A lane's address is the vector's, as a pointer to
                    // its elements, offset by the lane: C's
                    // `((T *)&v)[k]`.
                    let vector = self.pointer(Place::Lvalue(lvalue, space));
                    let pointer = self.reader.program.types.pointer(Pointee {
                        ty: Type::Scalar(s),
                        is_const: false,
                        is_volatile: false,
                        space,
                        endian_host: false,
                    });
                    let mut lane = self.convert(vector, pointer);
                    if self.scope.constant_u64(index) != Some(0) {
                        let k = self.index(index)?;
                        lane = self.expr(ExprKind::PointerOffset(lane, k), pointer);
                    }
                    Place::Pointer(lane)
                }
                _ => return Err("an access chain into a type that has no members".into()),
            };
        }
        Ok(place)
    }

    /// Element `index` of the array of type `array` whose first innermost
    /// element `first` points to: an offset of `index` times the
    /// element's innermost elements.
    fn array_element_at(&mut self, first: ExprId, array: Type, index: u32) -> R<Place> {
        let types = &self.reader.program.types;
        let element = types
            .array_element(array)
            .ok_or("an index into an array view")?;
        let inner = types.innermost_element(array);
        let per_element = types.size(element).unwrap_or(1) / types.size(inner).unwrap_or(1).max(1);
        let mut offset = self.index(index)?;
        if per_element != 1 {
            let index_ty = self.index_type();
            let scale = self.expr(ExprKind::Int(per_element), index_ty);
            offset = self.expr(ExprKind::Binary(BinaryOp::Mul, offset, scale), index_ty);
        }
        let pointer_ty = self.ty(first);
        let at = self.expr(ExprKind::PointerOffset(first, offset), pointer_ty);
        Ok(match element {
            Type::Array(..) => Place::ArrayAt(at, element),
            _ => Place::Pointer(at),
        })
    }

    /// Reads `e` as its signed type (an integer scalar or vector), for the
    /// instructions that take their operands as signed.
    pub fn signed(&mut self, e: ExprId) -> ExprId {
        let ty = match self.ty(e) {
            Type::Scalar(s) if s.is_integer() && s != Scalar::Bool => {
                Type::Scalar(s.to_signed_int())
            }
            Type::Vector(s, n) if s.is_integer() => Type::Vector(s.to_signed_int(), n),
            _ => return e,
        };
        self.convert(e, ty)
    }

    /// Calls the built-in `name` on `args`, converted to the overload's
    /// parameters; the call has the overload's result type.
    pub fn call_builtin(&mut self, name: &str, args: Vec<ExprId>) -> R<ExprId> {
        let types: Vec<Type> = args.iter().map(|&a| self.ty(a)).collect();
        let program = &mut self.reader.program;
        let resolved = resolve(
            name,
            &types,
            &self.reader.context,
            &mut program.types,
            &program.names,
        )?;
        let args = args
            .into_iter()
            .zip(&resolved.params)
            .map(|(a, &p)| self.convert(a, p))
            .collect();
        Ok(self.expr(ExprKind::Builtin(resolved.builtin, args), resolved.result))
    }

    /// The zero of `ty`.
    pub fn zero(&mut self, ty: Type) -> R<ExprId> {
        zero(&mut self.f.exprs, ty)
    }

    /// Control passes to block `target`: its `OpPhi`s take their values
    /// for this block (all read before any is written, as SPIR-V's phis
    /// are simultaneous), then a goto.
    pub fn jump(&mut self, target: u32) -> R<Block> {
        let saved = std::mem::take(&mut self.out);
        let phis = self.phis.get(&target).cloned().unwrap_or_default();
        let mut assignments = Vec::new();
        for (local, incoming) in &phis {
            let Some(&(value, _)) = incoming.iter().find(|(_, pred)| *pred == self.block) else {
                return Err(format!(
                    "a phi of %{target} has no value for %{}",
                    self.block
                ));
            };
            let e = self.read(value)?;
            let e = self.convert(e, self.f.locals[*local].ty);
            if phis.len() == 1 {
                assignments.push((*local, e));
            } else {
                let ty = self.ty(e);
                let temporary = self.local(ty, Symbol::EMPTY);
                self.stmt(StmtKind::Init(temporary, e));
                let read = self.expr(ExprKind::Local(temporary), ty);
                assignments.push((*local, read));
            }
        }
        for (local, value) in assignments {
            let ty = self.f.locals[local].ty;
            let target = self.expr(ExprKind::Local(local), ty);
            let assign = self.expr(ExprKind::Assign(target, value), ty);
            self.stmt(StmtKind::Expr(assign));
        }
        let label = *self
            .labels
            .get(&target)
            .ok_or_else(|| format!("%{target} is not a block of this function"))?;
        self.stmt(StmtKind::Goto(label));
        Ok(std::mem::replace(&mut self.out, saved))
    }

    /// Whether the function returns nothing.
    pub fn returns_void(&self) -> bool {
        self.f.ret == Type::Void
    }

    /// The id operand `i` of `inst` (past its result type and id).
    pub fn operand_id(inst: &Instruction, i: usize) -> R<u32> {
        match inst.operands.get(i) {
            Some(Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id)) => {
                Ok(*id)
            }
            _ => Err(format!("operand {i} is not an id")),
        }
    }

    /// The HIR function of function id `id`.
    pub fn function(&self, id: u32) -> R<FunctionId> {
        self.scope
            .functions
            .get(&id)
            .copied()
            .ok_or_else(|| format!("%{id} is not a function of the module"))
    }

    /// The value of an integer constant operand (scopes, semantics).
    pub fn constant_operand(&self, inst: &Instruction, i: usize) -> R<u64> {
        let id = Self::operand_id(inst, i)?;
        self.scope
            .constant_u64(id)
            .ok_or_else(|| format!("operand {i} must be a constant"))
    }
}
