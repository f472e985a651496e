//! The loop guard, for drivers that may cut a loop short
//! ([`crate::caps::DeviceCaps::loop_guard`]): Mesa 22.3's lavapipe ends an
//! invocation's loops after 65,535 iterations in all and runs on after the
//! loop as if it had ended, so the kernel's results are silently wrong.
//! The guard makes such a kernel fail instead.
//!
//! Every loop of the finished kernel module (the source's, and the ones the
//! library and the lowering make: all are loops to the driver) records how
//! it ended. A loop ends through its own exits, a `Break` that leaves it or
//! its `break_if`, each of which now first sets the invocation's exit mark;
//! after the loop, an unset mark means the driver cut it, and the kernel
//! sets the status word the runtime reads once the launch is done
//! ([`crate::reflect::KernelReflection::loop_status`]). The mark is cleared
//! before each loop and again after its check, so inside any loop's body it
//! is clear until one of that loop's exits is taken: one mark serves nested
//! loops, loops in called functions, and loops left by `return`.
//!
//! The mark must live in memory. In a register the driver's own compiler,
//! which sees only the loop's real exits (the cut is added later, while
//! generating machine code), would prove the mark always set after the loop
//! and drop the check. So each invocation has a word of a workgroup array
//! sized per launch to the work-group (as the collectives' scratch is),
//! found by its local linear id, computed once at entry into a private.
//!
//! This runs once the module is complete, over every function, rather than
//! where each loop is made: the guard is the same for every loop whatever
//! made it, and where it is off the module is left exactly as lowered.

use crate::lower::builder::ModuleBuilder;
use naga::{Block, Expression, Handle, Literal, Span, Statement};

/// What the guard's statements refer to, in every function of the module.
#[derive(Clone, Copy)]
struct Guard {
    /// The workgroup array of exit marks, one word per invocation.
    marks: Handle<naga::GlobalVariable>,
    /// The invocation's index into `marks`, set at entry.
    slot: Handle<naga::GlobalVariable>,
    /// The status buffer: a struct of one atomic `u32`.
    status: Handle<naga::GlobalVariable>,
}

impl ModuleBuilder<'_> {
    /// Guards every loop of the module's functions and of `entry` (the
    /// kernel's entry point, not yet in the module) where the device asks
    /// for it and the kernel has loops: returns the status buffer's
    /// binding.
    pub(in crate::lower) fn guard_loops(&mut self, entry: &mut naga::Function) -> Option<u32> {
        if !self.caps.loop_guard {
            return None;
        }
        let has_loops = std::iter::once(&*entry)
            .chain(self.module.functions.iter().map(|(_, f)| f))
            .any(|f| block_has_loop(&f.body));
        if !has_loops {
            return None;
        }
        let u32_ty = self.u32_type();
        let array = self.add_type(naga::TypeInner::Array {
            base: u32_ty,
            size: naga::ArraySize::Constant(std::num::NonZeroU32::MIN),
            stride: 4,
        });
        let marks = self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some("loop_exit_marks".into()),
                space: naga::AddressSpace::WorkGroup,
                binding: None,
                ty: array,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        );
        let slot = self.private_global("loop_exit_slot", u32_ty);
        let atomic = self.add_type(naga::TypeInner::Atomic(naga::Scalar::U32));
        let block = self.add_type(naga::TypeInner::Struct {
            members: vec![naga::StructMember {
                name: Some("cut".into()),
                ty: atomic,
                binding: None,
                offset: 0,
            }],
            span: 4,
        });
        let binding = self.interface.take_binding();
        let status = self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some("loop_status".into()),
                space: naga::AddressSpace::Storage {
                    access: naga::StorageAccess::LOAD | naga::StorageAccess::STORE,
                },
                binding: Some(naga::ResourceBinding { group: 0, binding }),
                ty: block,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        );
        let guard = Guard {
            marks,
            slot,
            status,
        };
        let local_size = self.interface.local_size();
        for (_, function) in self.module.functions.iter_mut() {
            guard.function(function);
        }
        guard.function(entry);
        guard.set_slot(entry, local_size);
        self.interface.loop_marks = Some(marks);
        Some(binding)
    }
}

impl Guard {
    fn function(self, function: &mut naga::Function) {
        let body = std::mem::take(&mut function.body);
        function.body = self.block(&mut function.expressions, body, false);
    }

    /// `block` with its loops guarded; `breaks_leave_loop`: a `Break`
    /// directly in it leaves the loop being guarded (not a `switch`).
    fn block(
        self,
        e: &mut naga::Arena<Expression>,
        block: Block,
        breaks_leave_loop: bool,
    ) -> Block {
        let mut out = Block::with_capacity(block.len());
        for (statement, span) in block.span_into_iter() {
            match statement {
                Statement::Break if breaks_leave_loop => {
                    out.extend_block(self.set_mark(e, 1));
                    out.push(Statement::Break, span);
                }
                Statement::Block(b) => {
                    out.push(Statement::Block(self.block(e, b, breaks_leave_loop)), span)
                }
                Statement::If {
                    condition,
                    accept,
                    reject,
                } => {
                    let accept = self.block(e, accept, breaks_leave_loop);
                    let reject = self.block(e, reject, breaks_leave_loop);
                    out.push(
                        Statement::If {
                            condition,
                            accept,
                            reject,
                        },
                        span,
                    );
                }
                // A `Break` in a case leaves the switch.
                Statement::Switch { selector, cases } => {
                    let cases = cases
                        .into_iter()
                        .map(|case| naga::SwitchCase {
                            body: self.block(e, case.body, false),
                            ..case
                        })
                        .collect();
                    out.push(Statement::Switch { selector, cases }, span);
                }
                Statement::Loop {
                    body,
                    continuing,
                    break_if,
                } => {
                    out.extend_block(self.set_mark(e, 0));
                    let body = self.block(e, body, true);
                    // No `Break` may leave a loop from its continuing block.
                    let mut continuing = self.block(e, continuing, false);
                    if let Some(condition) = break_if {
                        let accept = self.set_mark(e, 1);
                        continuing.push(
                            Statement::If {
                                condition,
                                accept,
                                reject: Block::new(),
                            },
                            span,
                        );
                    }
                    out.push(
                        Statement::Loop {
                            body,
                            continuing,
                            break_if,
                        },
                        span,
                    );
                    out.extend_block(self.check(e));
                    // Back in the enclosing loop's body (if any), which has
                    // not been left.
                    out.extend_block(self.set_mark(e, 0));
                }
                other => out.push(other, span),
            }
        }
        out
    }

    /// A pointer to the invocation's exit mark.
    fn mark(self, s: &mut Snippet) -> Handle<Expression> {
        let slot_pointer = s.add(Expression::GlobalVariable(self.slot));
        let slot = s.add(Expression::Load {
            pointer: slot_pointer,
        });
        let marks = s.add(Expression::GlobalVariable(self.marks));
        s.add(Expression::Access {
            base: marks,
            index: slot,
        })
    }

    fn set_mark(self, e: &mut naga::Arena<Expression>, value: u32) -> Block {
        let mut s = Snippet::new(e);
        let pointer = self.mark(&mut s);
        let value = s.add(Expression::Literal(Literal::U32(value)));
        s.push(Statement::Store { pointer, value });
        s.block
    }

    /// After a loop: a clear mark means the loop ended without taking one
    /// of its exits, so the status word is set.
    fn check(self, e: &mut naga::Arena<Expression>) -> Block {
        let mut report = Snippet::new(e);
        let status = report.add(Expression::GlobalVariable(self.status));
        let pointer = report.add(Expression::AccessIndex {
            base: status,
            index: 0,
        });
        let value = report.add(Expression::Literal(Literal::U32(1)));
        report.push(Statement::Atomic {
            pointer,
            fun: naga::AtomicFunction::InclusiveOr,
            value,
            result: None,
        });
        let accept = report.block;
        let mut s = Snippet::new(e);
        let pointer = self.mark(&mut s);
        let mark = s.add(Expression::Load { pointer });
        let zero = s.add(Expression::Literal(Literal::U32(0)));
        let condition = s.add(Expression::Binary {
            op: naga::BinaryOperator::Equal,
            left: mark,
            right: zero,
        });
        s.push(Statement::If {
            condition,
            accept,
            reject: Block::new(),
        });
        s.block
    }

    /// Puts the invocation's local linear id into `slot`, first thing in
    /// the entry point.
    fn set_slot(self, entry: &mut naga::Function, local_size: [Handle<naga::Constant>; 3]) {
        let local_id = entry
            .arguments
            .iter()
            .position(|a| {
                a.binding == Some(naga::Binding::BuiltIn(naga::BuiltIn::LocalInvocationId))
            })
            .expect("the entry point takes the local invocation id") as u32;
        let mut s = Snippet::new(&mut entry.expressions);
        let id = s.add(Expression::FunctionArgument(local_id));
        let [x, y, z] = [0, 1, 2].map(|index| s.add(Expression::AccessIndex { base: id, index }));
        let [size_x, size_y] =
            [local_size[0], local_size[1]].map(|c| s.add(Expression::Constant(c)));
        let binary =
            |s: &mut Snippet, op, left, right| s.add(Expression::Binary { op, left, right });
        use naga::BinaryOperator::{Add, Multiply};
        let plane = binary(&mut s, Multiply, z, size_y);
        let row = binary(&mut s, Add, plane, y);
        let rows = binary(&mut s, Multiply, row, size_x);
        let linear = binary(&mut s, Add, rows, x);
        let pointer = s.add(Expression::GlobalVariable(self.slot));
        s.push(Statement::Store {
            pointer,
            value: linear,
        });
        let mut prologue = s.block;
        prologue.extend_block(std::mem::take(&mut entry.body));
        entry.body = prologue;
    }
}

/// Statements being made for one block: expressions that need it are
/// emitted as they are added.
struct Snippet<'a> {
    expressions: &'a mut naga::Arena<Expression>,
    block: Block,
}

impl<'a> Snippet<'a> {
    fn new(expressions: &'a mut naga::Arena<Expression>) -> Self {
        Snippet {
            expressions,
            block: Block::new(),
        }
    }

    fn add(&mut self, e: Expression) -> Handle<Expression> {
        let emit = !e.needs_pre_emit();
        let h = self.expressions.append(e, Span::UNDEFINED);
        if emit {
            self.push(Statement::Emit(naga::Range::new_from_bounds(h, h)));
        }
        h
    }

    fn push(&mut self, statement: Statement) {
        self.block.push(statement, Span::UNDEFINED);
    }
}

/// Whether `block` holds a loop, at any depth.
fn block_has_loop(block: &Block) -> bool {
    block.iter().any(|s| match s {
        Statement::Loop { .. } => true,
        Statement::Block(b) => block_has_loop(b),
        Statement::If { accept, reject, .. } => block_has_loop(accept) || block_has_loop(reject),
        Statement::Switch { cases, .. } => cases.iter().any(|c| block_has_loop(&c.body)),
        _ => false,
    })
}
