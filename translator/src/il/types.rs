//! SPIR-V types as the HIR's: integers are unsigned of their width (SPIR-V
//! integers carry no sign; the signed instructions convert their operands),
//! `OpTypeBool` is `bool` and a vector of them an `int` vector of -1/0
//! lanes (OpenCL C's vector comparison results), structs are records laid
//! out as C lays them out (`CPacked` packs them), and the storage classes
//! are the address spaces.

use crate::ast::{AddressSpace, RecordKind};
use crate::hir::Symbol;
use crate::layout::{layout_record, FieldSpec, RecordAttributes};
use crate::types::{Opaque, Pointee, Record, Scalar, Type, Types};
use rspirv::dr::{Instruction, Operand};
use rspirv::spirv::{Op, StorageClass};

/// What a type id of the module is.
#[derive(Clone, Debug)]
pub(super) enum IlType {
    /// A type values and memory can have.
    Value(Type),
    /// `OpTypeFunction`: the return type and the parameter types' ids.
    Function { ret: u32, params: Vec<u32> },
    /// A type the front end cannot give values of yet, with its name.
    Unsupported(String),
}

/// The integer scalar of `bits` (unsigned: SPIR-V integers have no sign).
pub(super) fn unsigned_of_width(bits: u32) -> Option<Scalar> {
    Some(match bits {
        8 => Scalar::UChar,
        16 => Scalar::UShort,
        32 => Scalar::UInt,
        64 => Scalar::ULong,
        _ => return None,
    })
}

/// The storage class as an address space; `None` for `Input` (the
/// built-in variables) and classes OpenCL SPIR-V does not have.
pub(super) fn address_space(class: StorageClass) -> Option<AddressSpace> {
    Some(match class {
        StorageClass::Function => AddressSpace::Private,
        StorageClass::CrossWorkgroup => AddressSpace::Global,
        StorageClass::Workgroup => AddressSpace::Local,
        StorageClass::UniformConstant => AddressSpace::Constant,
        StorageClass::Generic => AddressSpace::Generic,
        _ => return None,
    })
}

/// Reads the type declared by `inst`, whose operand types are in `known`.
/// `packed` says the struct is decorated `CPacked`; `constant_u64` reads an
/// array length.
pub(super) fn read_type(
    inst: &Instruction,
    known: &impl Fn(u32) -> Option<IlType>,
    constant_u64: &impl Fn(u32) -> Option<u64>,
    packed: bool,
    name: Symbol,
    types: &mut Types,
) -> IlType {
    let id = |i: usize| match inst.operands.get(i) {
        Some(Operand::IdRef(id)) => Some(*id),
        _ => None,
    };
    let literal = |i: usize| match inst.operands.get(i) {
        Some(Operand::LiteralBit32(v)) => Some(*v),
        _ => None,
    };
    let value = |i: usize| match id(i).and_then(known) {
        Some(IlType::Value(t)) => Ok(t),
        Some(IlType::Unsupported(why)) => Err(why),
        _ => Err("a type the front end did not read".to_owned()),
    };
    let unsupported = |what: &str| IlType::Unsupported(what.to_owned());
    let ty = match inst.class.opcode {
        Op::TypeVoid => Type::Void,
        Op::TypeBool => Type::BOOL,
        Op::TypeInt => match literal(0).and_then(unsigned_of_width) {
            Some(s) => Type::Scalar(s),
            None => return unsupported("an integer of that width"),
        },
        Op::TypeFloat => match literal(0) {
            Some(16) => Type::Scalar(Scalar::Half),
            Some(32) => Type::FLOAT,
            Some(64) => Type::Scalar(Scalar::Double),
            _ => return unsupported("a float of that width"),
        },
        Op::TypeVector => {
            let lanes = literal(1).unwrap_or(0);
            if ![2, 3, 4, 8, 16].contains(&lanes) {
                return unsupported("a vector of that length");
            }
            match value(0) {
                Ok(Type::Scalar(Scalar::Bool)) => Type::Vector(Scalar::Int, lanes as u8),
                Ok(Type::Scalar(s)) => Type::Vector(s, lanes as u8),
                Ok(_) => return unsupported("a vector of that element"),
                Err(why) => return IlType::Unsupported(why),
            }
        }
        Op::TypeArray => {
            let element = match value(0) {
                Ok(t) => t,
                Err(why) => return IlType::Unsupported(why),
            };
            match id(1).and_then(constant_u64) {
                Some(len) => types.array(element, len),
                None => return unsupported("an array whose length is a specialization constant"),
            }
        }
        Op::TypePointer => {
            let Some(Operand::StorageClass(class)) = inst.operands.first() else {
                return unsupported("a pointer without a storage class");
            };
            let Some(space) = address_space(*class) else {
                return unsupported(&format!("a pointer to {class:?} storage"));
            };
            // A pointer to a type not read yet (a forward pointer) or to a
            // function has no pointee type the HIR can hold.
            let pointee = match value(1) {
                Ok(t) => t,
                Err(why) => return IlType::Unsupported(why),
            };
            types.pointer(Pointee {
                ty: pointee,
                is_const: false,
                is_volatile: false,
                space,
                endian_host: false,
            })
        }
        Op::TypeStruct => {
            let mut members = Vec::with_capacity(inst.operands.len());
            for i in 0..inst.operands.len() {
                match value(i) {
                    Ok(ty) => members.push(FieldSpec {
                        name: Symbol::EMPTY,
                        ty,
                        type_align: None,
                        aligned: None,
                        packed: false,
                    }),
                    Err(why) => return IlType::Unsupported(why),
                }
            }
            let attributes = RecordAttributes {
                packed,
                ..RecordAttributes::default()
            };
            let Ok(layout) = layout_record(RecordKind::Struct, &members, attributes, types) else {
                return unsupported("a struct with a member of no size");
            };
            let record = types.add_record(Record {
                kind: RecordKind::Struct,
                name,
                complete: true,
                fields: layout.fields,
                size: layout.size,
                align: layout.align,
            });
            Type::Record(record)
        }
        Op::TypeFunction => {
            let ids: Vec<u32> = (0..inst.operands.len()).filter_map(id).collect();
            return IlType::Function {
                ret: ids.first().copied().unwrap_or(0),
                params: ids.get(1..).unwrap_or(&[]).to_vec(),
            };
        }
        Op::TypeEvent => Type::Opaque(Opaque::Event),
        op => return unsupported(&format!("Op{op:?}")),
    };
    IlType::Value(ty)
}
