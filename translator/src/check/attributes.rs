//! `__attribute__((...))` on variables, fields, typedefs and record types:
//! `aligned`, `aligned(n)`, `packed` and `endian(host|device)` (OpenCL C
//! 6.11.1), reduced to what layout and pointer types need.

use super::Checker;
use crate::ast::{self, AddressSpace, ExprKind};
use crate::layout::MAX_ALIGNMENT;
use crate::types::Type;

/// The placement attributes found in one attribute list.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Placement {
    pub aligned: Option<u64>,
    pub packed: bool,
    /// `Some(true)` for `endian(host)`, `Some(false)` for `endian(device)`.
    pub endian_host: Option<bool>,
    /// Where the `endian` attribute was written, for its errors.
    pub endian_location: Option<crate::diagnostic::Location>,
}

/// Attributes that belong to kernels and are checked there.
const KERNEL_ATTRIBUTES: &[&str] = &[
    "reqd_work_group_size",
    "work_group_size_hint",
    "vec_type_hint",
    "intel_reqd_sub_group_size",
];

/// Attributes accepted and ignored: they change nothing we generate.
const IGNORED_ATTRIBUTES: &[&str] = &[
    "always_inline",
    "noinline",
    "const",
    "pure",
    "unused",
    "used",
    "nosvm",
    "overloadable",
    "opencl_unroll_hint",
];

/// An attribute's name without the `__` that may surround it
/// (`__aligned__` is `aligned`).
pub(super) fn attribute_name(written: &str) -> &str {
    written.trim_matches('_')
}

impl Checker<'_> {
    /// Reads the placement attributes of `lists`, reporting malformed ones.
    pub(super) fn placement(&mut self, lists: &[&[ast::Attribute]]) -> Placement {
        let mut p = Placement::default();
        for a in lists.iter().flat_map(|l| l.iter()) {
            let written = self.spelling(a.name);
            match attribute_name(&written) {
                "aligned" => {
                    let n = match a.args.first() {
                        None => Some(MAX_ALIGNMENT),
                        Some(e) => match self.const_int(e) {
                            Some(n) if n > 0 && (n as u128).is_power_of_two() => Some(n as u64),
                            Some(_) => {
                                self.error(a.location, "requested alignment is not a power of 2");
                                None
                            }
                            None => {
                                self.error(
                                    e.location,
                                    "'aligned' attribute requires an integer constant",
                                );
                                None
                            }
                        },
                    };
                    p.aligned = p.aligned.max(n);
                }
                "packed" => p.packed = true,
                "endian" => {
                    let value = match a.args.first().map(|e| &e.kind) {
                        Some(ExprKind::Ident(v)) if self.text(*v) == "host" => Some(true),
                        Some(ExprKind::Ident(v)) if self.text(*v) == "device" => Some(false),
                        _ => None,
                    };
                    match value {
                        Some(v) => {
                            p.endian_host = Some(v);
                            p.endian_location = Some(a.location);
                        }
                        None => {
                            self.error(a.location, "'endian' attribute takes 'host' or 'device'")
                        }
                    }
                }
                name if KERNEL_ATTRIBUTES.contains(&name) || IGNORED_ATTRIBUTES.contains(&name) => {
                }
                other => self
                    .diags
                    .warning(a.location, format!("unknown attribute '{other}' ignored")),
            }
        }
        p
    }

    /// Applies `endian(...)` to a declared type: only pointers to global or
    /// constant memory may carry it (OpenCL C 6.11.1).
    pub(super) fn apply_endian(
        &mut self,
        ty: Type,
        placement: &Placement,
        location: crate::diagnostic::Location,
    ) -> Type {
        let Some(host) = placement.endian_host else {
            return ty;
        };
        match self.pointee(ty) {
            Some(p) if matches!(p.space, AddressSpace::Global | AddressSpace::Constant) => self
                .pointer_to(crate::types::Pointee {
                    endian_host: host,
                    ..p
                }),
            _ => {
                self.error(
                    placement.endian_location.unwrap_or(location),
                    "'endian' attribute only applies to pointers to global or constant memory",
                );
                ty
            }
        }
    }
}
