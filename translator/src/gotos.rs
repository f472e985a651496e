//! Goto elimination: a function with `goto` is rewritten into the
//! structured control flow that naga (and SPIR-V's structured rules) can
//! express, before anything after the checker sees it. Functions without
//! labels never come here and keep their statements as written.
//!
//! The rewrite follows the flag-variable scheme of Erosa & Hendren (1994),
//! with one flag for the whole function: `target`, a `uint` local that is 0
//! while the function runs normally and holds a label's number while control
//! is on its way to that label.
//!
//! - `goto L;` becomes `target = L;`. Nothing jumps: from there on every
//!   statement that might be reached while `target` is set is *guarded*,
//!   run only when `target == 0`, or, if it contains labels `target` may
//!   name, when `target` is one of them (then it is entered, and the label
//!   itself is `if (target == L) target = 0;`). So control moves forward
//!   through the code to the label, and outward through enclosing
//!   statements: an `if` or a block ends; a loop body ends with
//!   `if (target != 0) break;`, so neither the step nor the condition runs;
//!   a `switch` case falls into the next, guarded, case.
//! - Entering a statement on the way to a label inside it must not run what
//!   the jump skips: an `if` takes the branch holding the label without
//!   evaluating its condition (`(target == 0 && c) || target in then`); a
//!   `while`/`for` enters its body without its test (`target != 0 || c`),
//!   and a `for`'s initialisation is skipped like any statement before the
//!   label; a `switch` is entered at its first case, by that case's value
//!   (`target != 0 ? first : v`; see `switch_entry` for a first case that
//!   is `default` or the statements before any case label), and falls
//!   through the guarded cases to the one holding the label.
//! - A goto backward (to a label before it in the same block, or in the
//!   same statement) is found at the end of the smallest run of statements
//!   of that block holding both: the run is wrapped in
//!   `do { ... } while (target is a label of the run)`, which starts it
//!   again on the way to the label. A run goes from a label to the last
//!   goto back to it; runs that nest are nested loops, runs that cross
//!   (irreducible flow) are one.
//! - That new loop would catch a `break` or `continue` inside it meant for
//!   an enclosing loop or `switch`. Each such one becomes a goto to a new
//!   label: after that loop or `switch` for `break`, at the end of the
//!   loop's body (before its step and test) for `continue`. Both are
//!   forward, so they need no further loop.
//!
//! Labels are numbered in source order after the rewrite's own labels are
//! placed, so the labels inside any statement are consecutive numbers and
//! "`target` is a label of S" is one range test.
//!
//! C semantics are kept: a declaration's initialiser that a goto jumps
//! over does not run (the variable is indeterminate in C), one that a
//! backward goto reaches again runs again; nothing a jump skips is
//! evaluated.
//!
//! Barriers: in the rewritten code a barrier runs only where `target == 0`,
//! that is, where the original program reached it. If the original reaches
//! a barrier in uniform control flow, every work-item arrives there with
//! `target == 0`, so the guards around it are uniform at run time, although
//! a compiler cannot prove it. A loop added for backward gotos repeats the
//! statements from a label to the last goto back to it, the loop the gotos
//! wrote: a barrier inside it is in that loop in the source too, and OpenCL
//! requires every work-item to take each iteration of a loop around a
//! barrier together (OpenCL C 6.15.8), so the added loop's iterations stay
//! uniform; a divergent goto loop nested in it or beside it stays a loop
//! of its own. Only crossing runs, merged into one loop, can hold a barrier
//! that none of the goto loops in the source repeats; a kernel whose
//! work-items take such gotos divergently around a barrier relies on more
//! than OpenCL promises.

use crate::ast::BinaryOp;
use crate::diagnostic::Span;
use crate::hir::{
    Block, Expr, ExprId, ExprKind, Function, Label, Local, LocalId, Stmt, StmtId, StmtKind,
    SwitchCase, Symbol, UnrollHint,
};
use crate::types::Type;
use std::collections::BTreeSet;

/// Labels (by number) that `target` may hold.
type Targets = BTreeSet<u32>;

/// Rewrites `f`'s body, whose statements include `Goto` or `Label`, into
/// structured control flow. A goto to a label the function does not define
/// (an error the checker reported) is dropped, and so are labels no goto
/// names.
pub fn eliminate(f: &mut Function) {
    let body = std::mem::take(&mut f.body);
    let defined: BTreeSet<u32> = f
        .stmts
        .iter()
        .filter_map(|(_, s)| match s.kind {
            StmtKind::Label(Label(l)) => Some(l),
            _ => None,
        })
        .collect();
    let targeted: BTreeSet<u32> = f
        .stmts
        .iter()
        .filter_map(|(_, s)| match s.kind {
            StmtKind::Goto(Label(l)) if defined.contains(&l) => Some(l),
            _ => None,
        })
        .collect();
    let span = f.span;
    let mut tree = Tree {
        f,
        targeted,
        next_label: 0,
    };
    let mut items = tree.build_seq(&body);
    // Number the labels so those of each statement are consecutive, then
    // find the runs backward gotos repeat.
    tree.next_label = renumber(&mut items) + 1;
    wrap_seq(&mut items);
    // The new loops catch breaks and continues: make those gotos, then
    // number again with their labels placed.
    let mut frames = Vec::new();
    tree.escapes_seq(&mut items, &mut frames, 0);
    renumber(&mut items);

    // The flag, for a function whose gotos have labels.
    let target = (!tree.targeted.is_empty()).then(|| {
        tree.f.locals.append(
            Local {
                name: Symbol::EMPTY,
                ty: Type::UINT,
                space: crate::ast::AddressSpace::Private,
                is_const: false,
                span,
            },
            naga::Span::UNDEFINED,
        )
    });
    let mut emit = Emit { f: tree.f, target };
    let mut out = Block::new();
    if let Some(target) = target {
        let zero = emit.uint(0, span);
        out.push(emit.stmt(StmtKind::Init(target, zero), span));
    }
    let (stmts, pending) = emit.seq(&items, Targets::new());
    debug_assert!(pending.is_empty(), "every goto reaches its label");
    out.extend(stmts);
    emit.f.body = out;
}

/// A statement of the body, seen as the rewrite needs it. `at` is the HIR
/// statement it comes from, whose span new statements take.
struct Node {
    kind: Kind,
    at: StmtId,
    /// The smallest and largest label inside, once numbered.
    labels: Option<(u32, u32)>,
}

enum Kind {
    /// A statement with no label, no goto and no `break`/`continue` that
    /// leaves it: kept as written.
    Kept,
    Goto(u32),
    Label(u32),
    Break,
    Continue,
    If(ExprId, Vec<Node>, Vec<Node>),
    Loop {
        cond: Option<ExprId>,
        step: Option<ExprId>,
        test_first: bool,
        unroll: UnrollHint,
        body: Vec<Node>,
    },
    Switch(ExprId, Vec<Case>),
    Block(Vec<Node>),
    /// Statements a backward goto starts again: `do { ... } while (target
    /// is one of their labels)`.
    Repeat(Vec<Node>),
}

struct Case {
    values: Vec<u64>,
    is_default: bool,
    body: Vec<Node>,
}

impl Node {
    fn new(kind: Kind, at: StmtId) -> Self {
        Node {
            kind,
            at,
            labels: None,
        }
    }

    /// Whether `label` is inside.
    fn holds(&self, label: u32) -> bool {
        self.labels
            .is_some_and(|(lo, hi)| (lo..=hi).contains(&label))
    }
}

struct Tree<'f> {
    f: &'f mut Function,
    /// Labels some goto names; the others are dropped.
    targeted: BTreeSet<u32>,
    /// The number the next label the rewrite places gets (after the
    /// first numbering).
    next_label: u32,
}

/// What a statement does to the enclosing `break`/`continue` targets:
/// whether it holds a goto or label, a `break` or a `continue` that
/// leaves it.
#[derive(Default, Clone, Copy)]
struct Leaves {
    jumps: bool,
    breaks: bool,
    continues: bool,
}

impl Leaves {
    fn any(self) -> bool {
        self.jumps || self.breaks || self.continues
    }
    fn or(self, other: Leaves) -> Leaves {
        Leaves {
            jumps: self.jumps || other.jumps,
            breaks: self.breaks || other.breaks,
            continues: self.continues || other.continues,
        }
    }
}

impl Tree<'_> {
    fn build_seq(&mut self, block: &[StmtId]) -> Vec<Node> {
        block.iter().filter_map(|&s| self.build(s).0).collect()
    }

    fn build_block(&mut self, block: &[StmtId]) -> (Vec<Node>, Leaves) {
        let mut leaves = Leaves::default();
        let mut nodes = Vec::with_capacity(block.len());
        for &s in block {
            let (node, l) = self.build(s);
            leaves = leaves.or(l);
            nodes.extend(node);
        }
        (nodes, leaves)
    }

    /// The node for `s` (none for a label no goto names) and what leaves it.
    fn build(&mut self, s: StmtId) -> (Option<Node>, Leaves) {
        crate::stack::guard(|| {
            let jump = Leaves {
                jumps: true,
                ..Leaves::default()
            };
            let (kind, leaves) = match &self.f.stmts[s].kind {
                StmtKind::Expr(_) | StmtKind::Init(..) | StmtKind::Return(_) => {
                    (Kind::Kept, Leaves::default())
                }
                StmtKind::Break => (
                    Kind::Break,
                    Leaves {
                        breaks: true,
                        ..Leaves::default()
                    },
                ),
                StmtKind::Continue => (
                    Kind::Continue,
                    Leaves {
                        continues: true,
                        ..Leaves::default()
                    },
                ),
                &StmtKind::Goto(Label(l)) if self.targeted.contains(&l) => (Kind::Goto(l), jump),
                &StmtKind::Label(Label(l)) if self.targeted.contains(&l) => (Kind::Label(l), jump),
                // A label no goto names goes, and with it the statements
                // around it that held it.
                StmtKind::Goto(_) | StmtKind::Label(_) => return (None, jump),
                StmtKind::If(c, then, otherwise) => {
                    let (c, then, otherwise) = (*c, then.clone(), otherwise.clone());
                    let (then, a) = self.build_block(&then);
                    let (otherwise, b) = self.build_block(&otherwise);
                    (Kind::If(c, then, otherwise), a.or(b))
                }
                StmtKind::Loop {
                    cond,
                    body,
                    step,
                    test_first,
                    unroll,
                } => {
                    let (cond, step, test_first, unroll, body) =
                        (*cond, *step, *test_first, *unroll, body.clone());
                    let (body, l) = self.build_block(&body);
                    let kind = Kind::Loop {
                        cond,
                        step,
                        test_first,
                        unroll,
                        body,
                    };
                    // Its own breaks and continues stay inside it.
                    let l = Leaves {
                        jumps: l.jumps,
                        ..Leaves::default()
                    };
                    (kind, l)
                }
                StmtKind::Switch(v, cases) => {
                    let v = *v;
                    let cases: Vec<_> = cases
                        .iter()
                        .map(|c| (c.values.clone(), c.is_default, c.body.clone()))
                        .collect();
                    let mut leaves = Leaves::default();
                    let cases = cases
                        .into_iter()
                        .map(|(values, is_default, body)| {
                            let (body, l) = self.build_block(&body);
                            leaves = leaves.or(l);
                            Case {
                                values,
                                is_default,
                                body,
                            }
                        })
                        .collect();
                    leaves.breaks = false;
                    (Kind::Switch(v, cases), leaves)
                }
                StmtKind::Block(items) => {
                    let items = items.clone();
                    let (items, l) = self.build_block(&items);
                    (Kind::Block(items), l)
                }
            };
            let kind = if leaves.any() { kind } else { Kind::Kept };
            (Some(Node::new(kind, s)), leaves)
        })
    }

    /// Makes each `break`/`continue` that a `Repeat` separates from its
    /// loop or `switch` a goto to a label placed for it. `frames` are the
    /// enclosing loops and switches, outermost first; those below `wall`
    /// are outside the innermost `Repeat`.
    fn escapes_seq(&mut self, items: &mut Vec<Node>, frames: &mut Vec<Frame>, wall: usize) {
        let mut i = 0;
        while i < items.len() {
            if let Some(after) = self.escapes(&mut items[i], frames, wall) {
                let at = items[i].at;
                items.insert(i + 1, Node::new(Kind::Label(after), at));
                i += 1;
            }
            i += 1;
        }
    }

    /// Returns the label to place after `node`, if a `break` needs one.
    fn escapes(&mut self, node: &mut Node, frames: &mut Vec<Frame>, wall: usize) -> Option<u32> {
        crate::stack::guard(|| {
            match &mut node.kind {
                Kind::Break => {
                    // The checker allows `break` only in a loop or switch.
                    let index = frames.len().checked_sub(1)?;
                    if index < wall {
                        let label = self.frame_label(&mut frames[index].break_label);
                        node.kind = Kind::Goto(label);
                    }
                }
                Kind::Continue => {
                    let index = frames.iter().rposition(|f| f.is_loop)?;
                    if index < wall {
                        let label = self.frame_label(&mut frames[index].continue_label);
                        node.kind = Kind::Goto(label);
                    }
                }
                Kind::If(_, then, otherwise) => {
                    self.escapes_seq(then, frames, wall);
                    self.escapes_seq(otherwise, frames, wall);
                }
                Kind::Block(items) => self.escapes_seq(items, frames, wall),
                Kind::Repeat(items) => {
                    let wall = frames.len();
                    self.escapes_seq(items, frames, wall);
                }
                Kind::Loop { body, .. } => {
                    frames.push(Frame {
                        is_loop: true,
                        ..Frame::default()
                    });
                    self.escapes_seq(body, frames, wall);
                    let frame = frames.pop().expect("loop frame");
                    if let Some(label) = frame.continue_label {
                        body.push(Node::new(Kind::Label(label), node.at));
                    }
                    return frame.break_label;
                }
                Kind::Switch(_, cases) => {
                    frames.push(Frame::default());
                    for case in cases {
                        self.escapes_seq(&mut case.body, frames, wall);
                    }
                    return frames.pop().expect("switch frame").break_label;
                }
                Kind::Kept | Kind::Goto(_) | Kind::Label(_) => {}
            }
            None
        })
    }

    fn frame_label(&mut self, slot: &mut Option<u32>) -> u32 {
        *slot.get_or_insert_with(|| {
            self.next_label += 1;
            self.next_label - 1
        })
    }
}

/// An enclosing loop or `switch` while breaks and continues are rewritten,
/// with the labels placed for those that became gotos.
#[derive(Default)]
struct Frame {
    is_loop: bool,
    break_label: Option<u32>,
    continue_label: Option<u32>,
}

/// Numbers the labels 1, 2, ... in source order (gotos follow), notes
/// each node's range, and returns how many there are.
fn renumber(items: &mut [Node]) -> u32 {
    let mut order = Vec::new();
    collect_labels(items, &mut order);
    let max = order.iter().copied().max().unwrap_or(0) as usize;
    let mut new = vec![0u32; max + 1];
    for (i, &l) in order.iter().enumerate() {
        new[l as usize] = i as u32 + 1;
    }
    apply_seq(items, &new);
    order.len() as u32
}

fn collect_labels(items: &[Node], order: &mut Vec<u32>) {
    for node in items {
        crate::stack::guard(|| match &node.kind {
            Kind::Label(l) => order.push(*l),
            Kind::If(_, a, b) => {
                collect_labels(a, order);
                collect_labels(b, order);
            }
            Kind::Loop { body: items, .. } | Kind::Block(items) | Kind::Repeat(items) => {
                collect_labels(items, order)
            }
            Kind::Switch(_, cases) => cases.iter().for_each(|c| collect_labels(&c.body, order)),
            Kind::Kept | Kind::Goto(_) | Kind::Break | Kind::Continue => {}
        })
    }
}

/// Renames the labels by `new` and returns the range of those in `items`.
fn apply_seq(items: &mut [Node], new: &[u32]) -> Option<(u32, u32)> {
    items.iter_mut().fold(None, |range, node| {
        let inner = apply(node, new);
        union(range, inner)
    })
}

fn union(a: Option<(u32, u32)>, b: Option<(u32, u32)>) -> Option<(u32, u32)> {
    match (a, b) {
        (Some((a0, a1)), Some((b0, b1))) => Some((a0.min(b0), a1.max(b1))),
        (a, None) => a,
        (None, b) => b,
    }
}

fn apply(node: &mut Node, new: &[u32]) -> Option<(u32, u32)> {
    crate::stack::guard(|| {
        let range = match &mut node.kind {
            Kind::Label(l) => {
                *l = new[*l as usize];
                Some((*l, *l))
            }
            Kind::Goto(l) => {
                *l = new[*l as usize];
                None
            }
            Kind::If(_, a, b) => {
                let a = apply_seq(a, new);
                union(a, apply_seq(b, new))
            }
            Kind::Loop { body: items, .. } | Kind::Block(items) | Kind::Repeat(items) => {
                apply_seq(items, new)
            }
            Kind::Switch(_, cases) => cases
                .iter_mut()
                .fold(None, |r, c| union(r, apply_seq(&mut c.body, new))),
            Kind::Kept | Kind::Break | Kind::Continue => None,
        };
        node.labels = range;
        range
    })
}

/// Wraps the runs of `items` that backward gotos start again in `Repeat`
/// nodes, inner sequences first, and returns the labels a goto in `items`
/// leaves them for.
fn wrap_seq(items: &mut Vec<Node>) -> Targets {
    let exits: Vec<Targets> = items.iter_mut().map(wrap).collect();
    // The runs from a label back to a goto to it, merged where they meet.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, out) in exits.iter().enumerate() {
        for &l in out {
            if let Some(j) = items[..=i].iter().position(|n| n.holds(l)) {
                runs.push((j, i));
            }
        }
    }
    let runs = nested_runs(runs);
    let range = items.iter().fold(None, |r, n| union(r, n.labels));
    let held = |l: &u32| range.is_some_and(|(lo, hi)| (lo..=hi).contains(l));
    let out = exits.into_iter().flatten().filter(|l| !held(l)).collect();
    // Innermost first; each wrap makes its run one node.
    let mut runs = runs;
    for k in 0..runs.len() {
        let (a, b) = runs[k];
        let run: Vec<Node> = items.drain(a..=b).collect();
        let at = run[0].at;
        let labels = run.iter().fold(None, |r, n| union(r, n.labels));
        let mut node = Node::new(Kind::Repeat(run), at);
        node.labels = labels;
        items.insert(a, node);
        for later in &mut runs[k + 1..] {
            if later.0 > b {
                later.0 -= b - a;
            }
            if later.1 >= b {
                later.1 -= b - a;
            }
        }
    }
    out
}

/// The runs (first and last index) to wrap, innermost first, from the
/// runs of each backward goto: one per label, to the last goto back to
/// it; runs that cross (each holds the other's start or end only) are
/// one, as their loops cannot nest; runs that nest stay nested loops.
fn nested_runs(mut runs: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    runs.sort_unstable();
    runs.dedup_by(|later, first| {
        // Same label: the longer run.
        let same = later.0 == first.0;
        if same {
            first.1 = first.1.max(later.1);
        }
        same
    });
    loop {
        let crossing = (0..runs.len()).find_map(|i| {
            (0..runs.len())
                .find(|&j| {
                    let ((a, b), (c, d)) = (runs[i], runs[j]);
                    a < c && c <= b && b < d
                })
                .map(|j| (i, j))
        });
        let Some((i, j)) = crossing else { break };
        let merged = (runs[i].0, runs[j].1);
        runs[i] = merged;
        runs.remove(j);
        runs.sort_unstable();
        runs.dedup();
    }
    // A run inside another is shorter.
    runs.sort_by_key(|&(a, b)| b - a);
    runs
}

/// Wraps inside `node` and returns the labels a goto in it leaves it for.
fn wrap(node: &mut Node) -> Targets {
    crate::stack::guard(|| match &mut node.kind {
        Kind::Goto(l) => Targets::from([*l]),
        Kind::If(_, a, b) => {
            let mut out = wrap_seq(a);
            out.extend(wrap_seq(b));
            out
        }
        Kind::Loop { body: items, .. } | Kind::Block(items) | Kind::Repeat(items) => {
            wrap_seq(items)
        }
        Kind::Switch(_, cases) => {
            // A goto to a later case falls through to it.
            let mut pending = Targets::new();
            for case in cases {
                let range = case.body.iter().fold(None, |r, n| union(r, n.labels));
                pending.retain(|l| !range.is_some_and(|(lo, hi)| (lo..=hi).contains(l)));
                pending.extend(wrap_seq(&mut case.body));
            }
            pending
        }
        Kind::Kept | Kind::Label(_) | Kind::Break | Kind::Continue => Targets::new(),
    })
}

/// Writes the rewritten statements into the function's arenas.
struct Emit<'f> {
    f: &'f mut Function,
    /// `target`, made when a goto names a label.
    target: Option<LocalId>,
}

impl Emit<'_> {
    /// An lvalue of `target`, which only code that a goto sets it for uses.
    fn target(&mut self, span: Span) -> ExprId {
        let target = self.target.expect("a goto made the target flag");
        self.expr(ExprKind::Local(target), Type::UINT, span)
    }

    /// `items` entered while `target` is 0 or one of `pending`; returns
    /// the statements and what `target` may hold after them.
    fn seq(&mut self, items: &[Node], mut pending: Targets) -> (Block, Targets) {
        let mut out = Block::new();
        // Statements kept as written that share one guard.
        let mut guarded = Block::new();
        let mut guard_span = None;
        for node in items {
            let span = self.f.stmts[node.at].span;
            if matches!(node.kind, Kind::Kept | Kind::Break | Kind::Continue) {
                if pending.is_empty() {
                    out.push(node.at);
                } else {
                    guard_span.get_or_insert(span);
                    guarded.push(node.at);
                }
                continue;
            }
            if let Some(span) = guard_span.take() {
                let run = std::mem::take(&mut guarded);
                out.push(self.guard(run, None, span));
            }
            if let Kind::Label(l) = node.kind {
                if pending.remove(&l) {
                    // if (target == l) target = 0;
                    let found = self.target_is(l, l, span);
                    let reset = self.set_target(0, span);
                    out.push(self.stmt(StmtKind::If(found, vec![reset], Block::new()), span));
                }
                continue;
            }
            let entering: Targets = match node.labels {
                Some((lo, hi)) => pending.range(lo..=hi).copied().collect(),
                None => Targets::new(),
            };
            let (stmt, after) = self.node(node, &entering);
            if pending.is_empty() {
                out.push(stmt);
            } else {
                let range = entering
                    .first()
                    .map(|&lo| (lo, *entering.last().unwrap_or(&lo)));
                out.push(self.guard(vec![stmt], range, span));
            }
            pending.retain(|l| !entering.contains(l));
            pending.extend(after);
        }
        if let Some(span) = guard_span {
            out.push(self.guard(guarded, None, span));
        }
        (out, pending)
    }

    /// `node`, entered while `target` is 0 or one of `entering` (labels
    /// inside it); returns the statement and what `target` may hold after.
    fn node(&mut self, node: &Node, entering: &Targets) -> (StmtId, Targets) {
        crate::stack::guard(|| {
            let span = self.f.stmts[node.at].span;
            match &node.kind {
                Kind::Goto(l) => (self.set_target(*l, span), Targets::from([*l])),
                Kind::Block(items) => {
                    let (stmts, after) = self.seq(items, entering.clone());
                    (self.stmt(StmtKind::Block(stmts), span), after)
                }
                Kind::If(cond, then, otherwise) => {
                    let range_of =
                        |items: &[Node]| items.iter().fold(None, |r, n| union(r, n.labels));
                    let (then_range, else_range) = (range_of(then), range_of(otherwise));
                    let within = |range: Option<(u32, u32)>| -> Targets {
                        match range {
                            Some((lo, hi)) => entering.range(lo..=hi).copied().collect(),
                            None => Targets::new(),
                        }
                    };
                    let (into_then, into_else) = (within(then_range), within(else_range));
                    let mut cond = *cond;
                    if !entering.is_empty() {
                        // (target == 0 && c) || target is a label of `then`
                        let normal = self.target_is(0, 0, span);
                        cond = self.logical(BinaryOp::LogicalAnd, normal, cond, span);
                        if let (Some(&lo), Some(&hi)) = (into_then.first(), into_then.last()) {
                            let jump = self.target_is(lo, hi, span);
                            cond = self.logical(BinaryOp::LogicalOr, cond, jump, span);
                        }
                    }
                    let (then, mut after) = self.seq(then, into_then);
                    let (otherwise, after_else) = self.seq(otherwise, into_else);
                    after.extend(after_else);
                    (self.stmt(StmtKind::If(cond, then, otherwise), span), after)
                }
                Kind::Loop {
                    cond,
                    step,
                    test_first,
                    unroll,
                    body,
                } => {
                    let mut cond = *cond;
                    if let (Some(c), true, false) = (cond, *test_first, entering.is_empty()) {
                        // Jumping into the body skips the test once.
                        let jumping = self.target_is_set(span);
                        cond = Some(self.logical(BinaryOp::LogicalOr, jumping, c, span));
                    }
                    let (mut stmts, after) = self.seq(body, entering.clone());
                    if !after.is_empty() {
                        stmts.push(self.leave_if_jumping(span));
                    }
                    let kind = StmtKind::Loop {
                        cond,
                        body: stmts,
                        step: *step,
                        test_first: *test_first,
                        unroll: *unroll,
                    };
                    (self.stmt(kind, span), after)
                }
                Kind::Repeat(items) => {
                    let (lo, hi) = node.labels.expect("a repeated run holds its label");
                    let (stmts, after) = self.seq(items, (lo..=hi).collect());
                    let again = self.target_is(lo, hi, span);
                    let kind = StmtKind::Loop {
                        cond: Some(again),
                        body: stmts,
                        step: None,
                        test_first: false,
                        unroll: UnrollHint::Unspecified,
                    };
                    let after = after
                        .into_iter()
                        .filter(|l| !(lo..=hi).contains(l))
                        .collect();
                    (self.stmt(kind, span), after)
                }
                Kind::Switch(value, cases) => {
                    let mut value = *value;
                    let mut values_of_first = cases.first().map(|c| c.values.clone());
                    if let (false, Some(first), Some(values)) =
                        (entering.is_empty(), cases.first(), &mut values_of_first)
                    {
                        value = self.switch_entry(value, first.is_default, values, cases, span);
                    }
                    let mut pending = entering.clone();
                    let mut out = Vec::with_capacity(cases.len());
                    for (i, case) in cases.iter().enumerate() {
                        let (body, after) = self.seq(&case.body, pending);
                        pending = after;
                        let values = match (i, &values_of_first) {
                            (0, Some(values)) => values.clone(),
                            _ => case.values.clone(),
                        };
                        out.push(SwitchCase {
                            values,
                            is_default: case.is_default,
                            body,
                        });
                    }
                    (self.stmt(StmtKind::Switch(value, out), span), pending)
                }
                Kind::Kept | Kind::Break | Kind::Continue | Kind::Label(_) => {
                    (node.at, Targets::new())
                }
            }
        })
    }

    /// The controlling value of a `switch` that a goto may enter: the
    /// first case's when `target` is set (control then falls through the
    /// guarded cases to the label), else `value`, evaluated only then.
    /// `first_values` are the first case's labels, to which a value may be
    /// added.
    fn switch_entry(
        &mut self,
        value: ExprId,
        first_is_default: bool,
        first_values: &mut Vec<u64>,
        cases: &[Case],
        span: Span,
    ) -> ExprId {
        let ty = self.f.exprs[value].ty;
        let used: BTreeSet<u64> = cases
            .iter()
            .flat_map(|c| c.values.iter().copied())
            .collect();
        // Small values are in range of every controlling type.
        let unused = |but: Option<u64>| (0..).find(|v| !used.contains(v) && Some(*v) != but);
        let jumping = self.target_is_set(span);
        let (entry, normal) = match (first_values.first(), first_is_default) {
            (Some(&bits), _) => (bits, value),
            // A value no case has goes to `default`.
            (None, true) => (unused(None).unwrap_or(0), value),
            (None, false) => {
                // Statements before the first case label: give them a
                // value no case has, and send that value, when `value`
                // has it, where it went before (where a second unused
                // value goes): `(v = value, v == entry ? other : v)`.
                let entry = unused(None).unwrap_or(0);
                let other = unused(Some(entry)).unwrap_or(0);
                first_values.push(entry);
                let copy = self.f.locals.append(
                    Local {
                        name: Symbol::EMPTY,
                        ty,
                        space: crate::ast::AddressSpace::Private,
                        is_const: false,
                        span,
                    },
                    naga::Span::UNDEFINED,
                );
                let place = self.expr(ExprKind::Local(copy), ty, span);
                let keep = self.expr(ExprKind::Assign(place, value), ty, span);
                let read = self.expr(ExprKind::Local(copy), ty, span);
                let bits = self.expr(ExprKind::Int(entry), ty, span);
                let is_entry =
                    self.expr(ExprKind::Binary(BinaryOp::Eq, read, bits), Type::INT, span);
                let other = self.expr(ExprKind::Int(other), ty, span);
                let read = self.expr(ExprKind::Local(copy), ty, span);
                let moved = self.expr(ExprKind::Conditional(is_entry, other, read), ty, span);
                let normal = self.expr(ExprKind::Comma(keep, moved), ty, span);
                (entry, normal)
            }
        };
        let entry = self.expr(ExprKind::Int(entry), ty, span);
        self.expr(ExprKind::Conditional(jumping, entry, normal), ty, span)
    }

    /// `if (target == 0 || target in lo..=hi) { stmts }`.
    fn guard(&mut self, stmts: Block, range: Option<(u32, u32)>, span: Span) -> StmtId {
        let mut cond = self.target_is(0, 0, span);
        if let Some((lo, hi)) = range {
            let jump = self.target_is(lo, hi, span);
            cond = self.logical(BinaryOp::LogicalOr, cond, jump, span);
        }
        self.stmt(StmtKind::If(cond, stmts, Block::new()), span)
    }

    /// `if (target != 0) break;`
    fn leave_if_jumping(&mut self, span: Span) -> StmtId {
        let jumping = self.target_is_set(span);
        let leave = self.stmt(StmtKind::Break, span);
        self.stmt(StmtKind::If(jumping, vec![leave], Block::new()), span)
    }

    /// `target = value;`
    fn set_target(&mut self, value: u32, span: Span) -> StmtId {
        let place = self.target(span);
        let value = self.uint(value, span);
        let assign = self.expr(ExprKind::Assign(place, value), Type::UINT, span);
        self.stmt(StmtKind::Expr(assign), span)
    }

    /// `target != 0`
    fn target_is_set(&mut self, span: Span) -> ExprId {
        let target = self.target(span);
        let zero = self.uint(0, span);
        self.expr(
            ExprKind::Binary(BinaryOp::Ne, target, zero),
            Type::INT,
            span,
        )
    }

    /// `target == lo` or `target >= lo && target <= hi`.
    fn target_is(&mut self, lo: u32, hi: u32, span: Span) -> ExprId {
        let compare = |this: &mut Self, op, value| {
            let target = this.target(span);
            let value = this.uint(value, span);
            this.expr(ExprKind::Binary(op, target, value), Type::INT, span)
        };
        if lo == hi {
            return compare(self, BinaryOp::Eq, lo);
        }
        let above = compare(self, BinaryOp::Ge, lo);
        let below = compare(self, BinaryOp::Le, hi);
        self.logical(BinaryOp::LogicalAnd, above, below, span)
    }

    fn logical(&mut self, op: BinaryOp, a: ExprId, b: ExprId, span: Span) -> ExprId {
        self.expr(ExprKind::Logical(op, a, b), Type::INT, span)
    }

    fn uint(&mut self, value: u32, span: Span) -> ExprId {
        self.expr(ExprKind::Int(value.into()), Type::UINT, span)
    }

    /// An integer expression of the pass's own (flags and their tests),
    /// which no float contraction concerns.
    fn expr(&mut self, kind: ExprKind, ty: Type, span: Span) -> ExprId {
        let contract = false;
        self.f.exprs.append(
            Expr {
                kind,
                ty,
                span,
                contract,
            },
            naga::Span::UNDEFINED,
        )
    }

    fn stmt(&mut self, kind: StmtKind, span: Span) -> StmtId {
        self.f
            .stmts
            .append(Stmt { kind, span }, naga::Span::UNDEFINED)
    }
}
