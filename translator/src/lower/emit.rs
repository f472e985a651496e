//! A naga function under construction: its expression and local arenas
//! and the blocks open while statements nest, with the helpers that append
//! to them. Everything in `lower` (and the math library) emits through it.

use naga::{Handle, Span};

pub(super) struct Emitter {
    pub(super) function: naga::Function,
    /// Open blocks, innermost last.
    pub(super) blocks: Vec<naga::Block>,
}

impl Default for Emitter {
    fn default() -> Self {
        Emitter {
            function: naga::Function::default(),
            blocks: vec![naga::Block::new()],
        }
    }
}

impl Emitter {
    /// Appends an expression; those that need it are emitted at once in the
    /// current block, so evaluation order follows the source.
    pub(super) fn add(&mut self, e: naga::Expression) -> Handle<naga::Expression> {
        let needs_emit = !e.needs_pre_emit() && !matches!(e, naga::Expression::CallResult(_));
        let start = self.function.expressions.len();
        let h = self.function.expressions.append(e, Span::UNDEFINED);
        if needs_emit {
            let block = self.blocks.last_mut().expect("open block");
            // Extend the block's last `Emit` when it ends right here, so a
            // run of expressions costs one statement, not one each.
            if let Some(naga::Statement::Emit(range)) = block.last_mut() {
                if let Some((first, last)) = range.first_and_last() {
                    if last.index() + 1 == h.index() {
                        *range = naga::Range::new_from_bounds(first, h);
                        return h;
                    }
                }
            }
            let range = self.function.expressions.range_from(start);
            self.push(naga::Statement::Emit(range));
        }
        h
    }

    /// Whether `e` is a constant with a zero in it (a lane of a vector
    /// will do), as naga's validator sees it: what it rejects as an
    /// integer divisor.
    pub(super) fn contains_constant_zero(&self, e: Handle<naga::Expression>) -> bool {
        use naga::{Expression as E, Literal as L};
        match self.function.expressions[e] {
            E::Literal(l) => matches!(
                l,
                L::I32(0) | L::U32(0) | L::I64(0) | L::U64(0) | L::AbstractInt(0)
            ),
            E::ZeroValue(_) => true,
            E::Splat { value, .. } => self.contains_constant_zero(value),
            E::Compose { ref components, .. } => {
                components.iter().any(|&c| self.contains_constant_zero(c))
            }
            _ => false,
        }
    }

    pub(super) fn binary(
        &mut self,
        op: naga::BinaryOperator,
        left: Handle<naga::Expression>,
        right: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        self.add(naga::Expression::Binary { op, left, right })
    }

    pub(super) fn select(
        &mut self,
        condition: Handle<naga::Expression>,
        accept: Handle<naga::Expression>,
        reject: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        self.add(naga::Expression::Select {
            condition,
            accept,
            reject,
        })
    }

    /// A one- or two-argument math function.
    pub(super) fn math(
        &mut self,
        fun: naga::MathFunction,
        arg: Handle<naga::Expression>,
        arg1: Option<Handle<naga::Expression>>,
    ) -> Handle<naga::Expression> {
        self.add(naga::Expression::Math {
            fun,
            arg,
            arg1,
            arg2: None,
            arg3: None,
        })
    }

    /// A new uninitialised local variable of type `ty`, as a pointer.
    pub(super) fn scratch_local(
        &mut self,
        name: &str,
        ty: Handle<naga::Type>,
    ) -> Handle<naga::Expression> {
        let var = self.function.local_variables.append(
            naga::LocalVariable {
                name: Some(name.into()),
                ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        self.add(naga::Expression::LocalVariable(var))
    }

    /// The result of a subgroup statement, of type `ty`: it belongs to
    /// its statement, never to an Emit.
    pub(super) fn subgroup_result(&mut self, ty: Handle<naga::Type>) -> Handle<naga::Expression> {
        (self.function.expressions).append(
            naga::Expression::SubgroupOperationResult { ty },
            Span::UNDEFINED,
        )
    }

    pub(super) fn unary(
        &mut self,
        op: naga::UnaryOperator,
        expr: Handle<naga::Expression>,
    ) -> Handle<naga::Expression> {
        self.add(naga::Expression::Unary { op, expr })
    }

    pub(super) fn push(&mut self, s: naga::Statement) {
        self.blocks
            .last_mut()
            .expect("open block")
            .push(s, Span::UNDEFINED);
    }

    /// The function, its body the outermost block.
    pub(super) fn finish(mut self) -> naga::Function {
        self.function.body = self.blocks.pop().expect("function body");
        self.function
    }
}
