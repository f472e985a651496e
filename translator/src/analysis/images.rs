//! Which texel kinds each image parameter is read or written as (`float`
//! by `read_imagef`/`write_imageh` ..., `int`, `uint`), here or in the
//! functions it is passed on to: a kernel's image argument gets one
//! Vulkan image variable per kind, all at its binding, and the lowering
//! declares them before it lowers a body.

use crate::builtins::{Builtin, ImageBuiltin, Texel};
use crate::hir::{self, ExprKind as H, FunctionId};
use crate::lexer::FxHashMap;

/// The kinds of texels an image is accessed as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TexelKinds {
    pub float: bool,
    pub int: bool,
    pub uint: bool,
}

impl TexelKinds {
    fn add(&mut self, texel: Texel) {
        match texel {
            Texel::Float | Texel::Half => self.float = true,
            Texel::Int => self.int = true,
            Texel::UInt => self.uint = true,
        }
    }

    fn union(&mut self, other: TexelKinds) {
        self.float |= other.float;
        self.int |= other.int;
        self.uint |= other.uint;
    }
}

/// The kinds each image parameter of `f` (by position) is accessed as, in
/// `f` or the callees it passes the image to (`done` holds theirs).
pub fn image_uses(
    f: &hir::Function,
    done: &FxHashMap<FunctionId, FxHashMap<usize, TexelKinds>>,
) -> FxHashMap<usize, TexelKinds> {
    let mut uses: FxHashMap<usize, TexelKinds> = FxHashMap::default();
    for (_, e) in f.exprs.iter() {
        match &e.kind {
            H::Builtin(Builtin::Image(ImageBuiltin::Read(t) | ImageBuiltin::Write(t)), args) => {
                if let Some(p) = args.first().and_then(|&a| image_param(f, a)) {
                    uses.entry(p).or_default().add(*t);
                }
            }
            H::Call(callee, args) => {
                let Some(theirs) = done.get(callee) else {
                    continue;
                };
                for (position, &a) in args.iter().enumerate() {
                    if let (Some(p), Some(kinds)) = (image_param(f, a), theirs.get(&position)) {
                        uses.entry(p).or_default().union(*kinds);
                    }
                }
            }
            _ => {}
        }
    }
    uses
}

/// The parameter position an image expression names: images are only
/// ever parameters, passed on as they are.
pub fn image_param(f: &hir::Function, e: hir::ExprId) -> Option<usize> {
    let expr = &f.exprs[e];
    expr.ty.image()?;
    match expr.kind {
        H::Local(l) => f.params.iter().position(|&p| p == l),
        _ => None,
    }
}
