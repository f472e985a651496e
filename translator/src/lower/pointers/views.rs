//! Typed views of a buffer argument. naga has one element type per storage
//! variable, while OpenCL C may cast a buffer pointer to another pointee
//! type (`float *` to `float4 *`, `uchar *` to `uint *`). Each pointee type
//! a buffer is used as gets its own variable at the same binding; Vulkan
//! allows such aliasing descriptors, and `spirv` marks every variable of a
//! binding with several views `Aliased`.
//!
//! A pointer's index counts elements of its static pointee type, so a cast
//! rescales it through the byte offset. `void *` keeps the buffer's view
//! and counts bytes. Casts of pointers into other memory are in
//! `cast_memory.rs`.

use crate::diagnostic::Location;
use crate::hir::FunctionId;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::function::FnBuilder;
use crate::lower::pointers::{Choice, NarrowElement, PointerValue, Root, Target};
use crate::types::Type;
use naga::{Handle, Span};

/// A storage variable of a buffer argument, seen as `pointee`.
pub(super) struct BufferView {
    pub(in crate::lower) view: Handle<naga::GlobalVariable>,
    pub(in crate::lower) pointee: Type,
    /// The binding's first view, which identifies the buffer.
    pub(in crate::lower) first: Handle<naga::GlobalVariable>,
}

impl ModuleBuilder<'_> {
    /// A storage variable at `binding` whose elements are `pointee`: the
    /// word view (`u32`) for `char`/`short`/`bool` values and vectors, the type
    /// itself otherwise. `first` is the binding's first view (`None`: this
    /// is it).
    pub(in crate::lower) fn buffer_view(
        &mut self,
        name: &str,
        binding: u32,
        access: naga::StorageAccess,
        pointee: &Type,
        first: Option<Handle<naga::GlobalVariable>>,
        location: Location,
    ) -> LResult<Handle<naga::GlobalVariable>> {
        let elem = self.buffer_element_type(pointee, location)?;
        let narrow = narrow_element(pointee);
        let image = self.is_image(pointee);
        let stride = match narrow {
            Some(_) => 4,
            None if image => 4,
            None => self.type_size(pointee).unwrap_or(4) as u32,
        };
        let array = self.add_type(naga::TypeInner::Array {
            base: elem,
            size: naga::ArraySize::Dynamic,
            stride,
        });
        let global = self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some(name.to_string()),
                space: naga::AddressSpace::Storage { access },
                binding: Some(naga::ResourceBinding { group: 0, binding }),
                ty: array,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        );
        if let Some(element) = narrow {
            self.memory.narrow_buffers.insert(global, element);
        }
        if image {
            self.note_image_root(None, Root::Global(global), pointee);
        }
        self.memory.views.push(BufferView {
            view: global,
            pointee: *pointee,
            first: first.unwrap_or(global),
        });
        Ok(global)
    }

    /// The workgroup array of a `__local` pointer argument to `char`,
    /// `short` or `half` values or vectors, `None` for other pointees. It
    /// holds them packed into `u32` words, four `char`s or two `short`s to
    /// a word, as a buffer of them is viewed, so the argument takes the
    /// bytes the application gives it; a store of part of a word updates
    /// it atomically (`narrow.rs`), and casts of the pointer read the words
    /// as a byte image (`cast_memory.rs`). Its length, in words, is set per
    /// launch.
    pub(in crate::lower) fn narrow_local_argument(
        &mut self,
        name: &str,
        pointee: &Type,
    ) -> Option<Handle<naga::GlobalVariable>> {
        let element = narrow_element(pointee)?;
        let base = self.u32_type();
        let array = self.add_type(naga::TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(std::num::NonZeroU32::MIN),
            stride: 4,
        });
        let global = self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some(name.to_string()),
                space: naga::AddressSpace::WorkGroup,
                binding: None,
                ty: array,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        );
        self.memory.narrow_buffers.insert(global, element);
        self.memory.hold_as_words(global);
        Some(global)
    }

    /// `(T *)p` for a pointer `p` to `from`: the same bytes seen as `to`.
    /// A pointer chosen at run time casts each of its roots.
    pub(in crate::lower) fn cast_pointer(
        &mut self,
        fb: &mut FnBuilder,
        p: PointerValue,
        from: &Type,
        to: &Type,
        location: Location,
    ) -> LResult<PointerValue> {
        if from == to {
            return Ok(p);
        }
        // `void` counts bytes.
        let size_of = |t: &Type| {
            if *t == Type::Void {
                Some(1)
            } else {
                self.type_size(t)
            }
        };
        let (Some(from_size), Some(to_size)) = (size_of(from), size_of(to)) else {
            return Err(self.error(location, "pointer cast between types without a size"));
        };
        let target = match p.target {
            Target::Fixed(root) => {
                Target::Fixed(self.cast_root(Some(fb.hir), root, from, to, location)?)
            }
            Target::Chosen(choice) => {
                let mut roots = Vec::new();
                for root in self.memory.root_sets[choice.set].clone() {
                    roots.push(self.cast_root(Some(fb.hir), root, from, to, location)?);
                }
                Target::Chosen(Choice {
                    set: self.root_set(roots),
                    which: choice.which,
                })
            }
        };
        let index = rescale(fb, p.index, from_size as u32, to_size as u32);
        Ok(PointerValue { target, index })
    }

    /// The root of `(T *)p` for `p` into `root`: the buffer's view of `to`
    /// (`void` keeps the view), or for other memory a cast base (see
    /// `cast_memory.rs`). `function` is the function the pointer is in
    /// (its private roots are its own).
    pub(super) fn cast_root(
        &mut self,
        function: Option<FunctionId>,
        root: Root,
        from: &Type,
        to: &Type,
        location: Location,
    ) -> LResult<Root> {
        if root == Root::Null {
            return Ok(Root::Null);
        }
        let first = match root {
            Root::Global(global) => self
                .memory
                .views
                .iter()
                .find(|v| v.view == global)
                .map(|v| v.first),
            _ => None,
        };
        let (Root::Global(_), Some(first)) = (root, first) else {
            return self.cast_memory_root(function, root, from, to, location);
        };
        if *to == Type::Void {
            return Ok(root);
        }
        let view = match self
            .memory
            .views
            .iter()
            .find(|v| v.first == first && v.pointee == *to)
        {
            Some(v) => v.view,
            None => {
                let g = &self.module.global_variables[first];
                let (name, binding) = (
                    g.name.clone().unwrap_or_default(),
                    g.binding.as_ref().map_or(0, |b| b.binding),
                );
                let naga::AddressSpace::Storage { access } = g.space else {
                    return Err(self.error(location, "pointer cast of a non-buffer"));
                };
                self.buffer_view(&name, binding, access, to, Some(first), location)?
            }
        };
        Ok(Root::Global(view))
    }
}

/// The element of memory of `pointee`s held as `u32` words: `char`,
/// `short` and `half` scalars and vectors (naga has no 8-bit types).
fn narrow_element(pointee: &Type) -> Option<NarrowElement> {
    match *pointee {
        Type::Scalar(scalar) => Some(NarrowElement { scalar, width: 1 }),
        Type::Vector(scalar, width) => Some(NarrowElement { scalar, width }),
        _ => None,
    }
    // `bool` (program-scope variables) is a byte too: loads read it as
    // `!= 0`, stores write 0 or 1.
    .filter(|e| e.scalar.size() < 4)
}

/// `index` elements of `from` bytes as a count of `to`-byte elements
/// (truncating: a cast pointer is aligned to its type in valid OpenCL C).
fn rescale(
    fb: &mut Emitter,
    index: Handle<naga::Expression>,
    from: u32,
    to: u32,
) -> Handle<naga::Expression> {
    if from == to {
        return index;
    }
    let mut lit = |v: u32| fb.add(naga::Expression::Literal(naga::Literal::U32(v)));
    let (op, factor) = if from > to && from.is_multiple_of(to) {
        (naga::BinaryOperator::Multiply, from / to)
    } else if to > from && to.is_multiple_of(from) {
        (naga::BinaryOperator::Divide, to / from)
    } else {
        let bytes_per = lit(from);
        let per = lit(to);
        let bytes = fb.binary(naga::BinaryOperator::Multiply, index, bytes_per);
        return fb.binary(naga::BinaryOperator::Divide, bytes, per);
    };
    let factor = lit(factor);
    fb.binary(op, index, factor)
}
