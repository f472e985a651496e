//! Loop unrolling, a rewrite of the checked program between the checker
//! and the analysis: counted loops (see [`counted`]) become copies of
//! their body, one per iteration, with the counter a constant in each.
//!
//! Why: a private array indexed by a loop counter
//! (`float acc[8][8]; ... acc[i][j] += ...`) is indexed dynamically in the
//! SPIR-V if the loop stays a loop, and a driver keeps a dynamically
//! indexed array in memory (on NVIDIA, local memory, which is slow) unless
//! its own compiler unrolls the loop first, which is not to be counted on:
//! naga writes every loop with no unroll hint, and `#pragma unroll` would
//! be lost on the way. Unrolled here, every index is a constant, so the
//! lowering emits constant-index access chains (`lower::pointers::places`)
//! and the driver splits the array into registers, as NVIDIA's OpenCL
//! compiler does after unrolling such loops itself. Why before the
//! analysis: the copies are ordinary HIR, so the analysis and the
//! lowering see nothing new.
//!
//! Which loops:
//! - a counted loop whose counter indexes a private array in its body,
//!   when the copies stay within [`AUTOMATIC_NODES`];
//! - a counted loop under `#pragma unroll` (or `opencl_unroll_hint`, or a
//!   count at least its trip count), within [`REQUESTED_NODES`];
//! - a counted loop under `#pragma unroll N` whose trip count N divides
//!   (and exceeds): N copies of the body, and of the step between them,
//!   per iteration, the counter left a variable;
//! - never one under `#pragma nounroll` or `#pragma unroll 1`, nor
//!   anything with `-cl-opt-disable`.
//!
//! Loops are unrolled innermost first, so a nest (`acc[i][j]` in two
//! loops) unrolls whole, the outer loop's size counting its inner copies.
//! The rewrite leaves the statements it copied from in the arenas, no
//! longer reached from the body: every later pass walks from the body,
//! and those that scan whole arenas (pointer cells, address-taken
//! records) only ever see code that also exists, copied, where it runs.

mod copy;
mod counted;
mod evaluate;

use crate::analysis::definitions::root_local;
use crate::ast::AddressSpace;
use crate::hir::{
    Block, Expr, ExprId, ExprKind as H, Function, LocalId, Program, Stmt, StmtId, StmtKind,
    UnrollHint,
};
use crate::lexer::FxHashSet;
use crate::options::BuildOptions;
use copy::Copier;
use counted::{addressed_locals, counted_loop, CountedLoop};

/// The most statements and expressions the copies of a loop may take when
/// the translator unrolls it on its own: enough for an 8 x 8 block of
/// accumulators, few enough that a loop over a large array stays a loop.
pub const AUTOMATIC_NODES: usize = 1 << 12;

/// The most statements and expressions the copies of a loop may take when
/// the source asks for unrolling: NVIDIA's compiler unrolls such loops
/// almost whatever their size; this bounds the module a loop may make.
pub const REQUESTED_NODES: usize = 1 << 16;

/// The most iterations of a loop under `#pragma unroll N` whose trip
/// count is worked out (by running its counter) to see whether N divides
/// it.
const SIMULATED_TRIPS: usize = 1 << 16;

/// Unrolls the loops of every defined function of `program` that qualify.
pub fn unroll(program: &mut Program, options: &BuildOptions) {
    if options.opt_disable {
        return;
    }
    for (_, f) in program.functions.iter_mut() {
        // Integers converted back to pointers re-evaluate initializers
        // that must run once per variable (`analysis::definitions`),
        // which copies of a body would initialise again.
        if !f.defined || crate::analysis::converts_integers_to_pointers(f) {
            continue;
        }
        let body = std::mem::take(&mut f.body);
        let addressed = addressed_locals(f);
        f.body = Unroller { f, addressed }.block(body);
    }
}

struct Unroller<'f> {
    f: &'f mut Function,
    /// Its variables that a pointer is made to: never a counter.
    addressed: FxHashSet<LocalId>,
}

impl Unroller<'_> {
    /// `block` with the loops in it and in its statements unrolled,
    /// innermost first.
    fn block(&mut self, block: Block) -> Block {
        let mut out: Block = Vec::with_capacity(block.len());
        for s in block {
            self.nested(s);
            let unrolled = self.unrolled(out.last().copied(), s);
            out.push(unrolled.unwrap_or(s));
        }
        out
    }

    /// Unrolls the loops in the blocks of statement `s`.
    fn nested(&mut self, s: StmtId) {
        crate::stack::guard(|| {
            let mut kind = std::mem::replace(&mut self.f.stmts[s].kind, StmtKind::Break);
            match &mut kind {
                StmtKind::If(_, then, otherwise) => {
                    *then = self.block(std::mem::take(then));
                    *otherwise = self.block(std::mem::take(otherwise));
                }
                StmtKind::Loop { body, .. } | StmtKind::Block(body) => {
                    *body = self.block(std::mem::take(body));
                }
                StmtKind::Switch(_, cases) => {
                    for case in cases {
                        case.body = self.block(std::mem::take(&mut case.body));
                    }
                }
                _ => {}
            }
            self.f.stmts[s].kind = kind;
        })
    }

    /// What replaces loop `s` (after statement `preceding`), if it is
    /// unrolled.
    fn unrolled(&mut self, preceding: Option<StmtId>, s: StmtId) -> Option<StmtId> {
        let StmtKind::Loop { body, unroll, .. } = &self.f.stmts[s].kind else {
            return None;
        };
        let unroll = *unroll;
        if unroll == UnrollHint::Never {
            return None;
        }
        let size = Reached::from(self.f, body).size().max(1);
        let budget = match unroll {
            UnrollHint::Unspecified => AUTOMATIC_NODES,
            _ => REQUESTED_NODES,
        };
        // A loop under `unroll N` may run more times than it is copied.
        let max_trips = match unroll {
            UnrollHint::Count(_) => SIMULATED_TRIPS,
            _ => budget / size,
        };
        let counted = counted_loop(self.f, &self.addressed, preceding, s, max_trips)?;
        let trips = counted.values.len();
        let fits = trips.saturating_mul(size) <= budget;
        match unroll {
            UnrollHint::Unspecified if fits && self.indexes_private_array(s, counted.counter) => {
                Some(self.fully_unrolled(s, counted))
            }
            UnrollHint::Full if fits => Some(self.fully_unrolled(s, counted)),
            UnrollHint::Count(n) if n as usize >= trips && fits => {
                Some(self.fully_unrolled(s, counted))
            }
            UnrollHint::Count(n)
                if trips % n as usize == 0 && (n as usize).saturating_mul(size) <= budget =>
            {
                self.partly_unrolled(s, n as usize);
                Some(s)
            }
            _ => None,
        }
    }

    /// Whether loop `s`'s body indexes a private array with an expression
    /// that reads `counter`.
    fn indexes_private_array(&self, s: StmtId, counter: LocalId) -> bool {
        let f = &*self.f;
        let StmtKind::Loop { body, .. } = &f.stmts[s].kind else {
            return false;
        };
        let private_array = |base: ExprId| {
            root_local(f, base).is_some_and(|l| {
                let local = &f.locals[l];
                local.space == AddressSpace::Private && local.ty.is_array()
            })
        };
        let reads_counter = |index: ExprId| {
            let mut reads = false;
            let mut pending = vec![index];
            while let Some(e) = pending.pop() {
                reads |= matches!(f.exprs[e].kind, H::Local(l) if l == counter);
                f.exprs[e].kind.for_each_child(&mut |&c| pending.push(c));
            }
            reads
        };
        Reached::from(f, body)
            .exprs
            .iter()
            .any(|&e| match f.exprs[e].kind {
                H::Index(base, index) => {
                    f.exprs[base].ty.is_array() && private_array(base) && reads_counter(index)
                }
                _ => false,
            })
    }

    /// Loop `s` as one copy of its body per iteration, then the counter
    /// set to its final value (code after the loop may read it).
    fn fully_unrolled(&mut self, s: StmtId, counted: CountedLoop) -> StmtId {
        let StmtKind::Loop { body, .. } = &self.f.stmts[s].kind else {
            unreachable!("only loops are unrolled");
        };
        let body = body.clone();
        let span = self.f.stmts[s].span;
        let mut stmts = Block::new();
        for value in counted.values {
            let mut copier = Copier {
                f: self.f,
                known: Some((counted.counter, value)),
            };
            stmts.extend(copier.block(&body));
        }
        let ty = self.f.locals[counted.counter].ty;
        let expr = |kind| Expr {
            kind,
            ty,
            span,
            contract: false,
        };
        let target = (self.f.exprs).append(expr(H::Local(counted.counter)), naga::Span::UNDEFINED);
        let value =
            (self.f.exprs).append(expr(H::Int(counted.after.bits())), naga::Span::UNDEFINED);
        let assign = (self.f.exprs).append(expr(H::Assign(target, value)), naga::Span::UNDEFINED);
        stmts.push(self.f.stmts.append(
            Stmt {
                kind: StmtKind::Expr(assign),
                span,
            },
            naga::Span::UNDEFINED,
        ));
        self.f.stmts.append(
            Stmt {
                kind: StmtKind::Block(stmts),
                span,
            },
            naga::Span::UNDEFINED,
        )
    }

    /// Loop `s`, whose trip count `copies` divides, with `copies` bodies
    /// (and the step between them) per iteration: the test is skipped only
    /// where it is known to pass.
    fn partly_unrolled(&mut self, s: StmtId, copies: usize) {
        let StmtKind::Loop { body, step, .. } = &self.f.stmts[s].kind else {
            unreachable!("only loops are unrolled");
        };
        let (body, step) = (body.clone(), step.expect("a counted loop has a step"));
        let span = self.f.stmts[s].span;
        let mut stmts = body.clone();
        for _ in 1..copies {
            let mut copier = Copier {
                f: self.f,
                known: None,
            };
            let step = copier.expr(step);
            stmts.push(self.f.stmts.append(
                Stmt {
                    kind: StmtKind::Expr(step),
                    span,
                },
                naga::Span::UNDEFINED,
            ));
            let mut copier = Copier {
                f: self.f,
                known: None,
            };
            stmts.extend(copier.block(&body));
        }
        if let StmtKind::Loop { body, unroll, .. } = &mut self.f.stmts[s].kind {
            *body = stmts;
            *unroll = UnrollHint::Never;
        }
    }
}

/// The statements and expressions reached from a block, nested ones
/// included.
pub(super) struct Reached {
    pub stmts: Vec<StmtId>,
    pub exprs: Vec<ExprId>,
}

impl Reached {
    pub(super) fn from(f: &Function, block: &[StmtId]) -> Reached {
        let mut reached = Reached {
            stmts: Vec::new(),
            exprs: Vec::new(),
        };
        let mut pending: Vec<StmtId> = block.to_vec();
        let mut exprs = Vec::new();
        while let Some(s) = pending.pop() {
            reached.stmts.push(s);
            f.stmts[s]
                .kind
                .for_each_child(&mut |e| exprs.push(e), &mut |c| pending.push(c));
        }
        while let Some(e) = exprs.pop() {
            reached.exprs.push(e);
            f.exprs[e].kind.for_each_child(&mut |&c| exprs.push(c));
        }
        reached
    }

    /// How much a copy of it takes.
    fn size(&self) -> usize {
        self.stmts.len() + self.exprs.len()
    }
}
