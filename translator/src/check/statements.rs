//! Statements: blocks and scopes, loops, `switch`, and jumps (`goto`
//! and labels are checked here and restructured by `gotos`).

use super::{Checker, Conversion, LabelState};
use crate::ast::{self, Name, StmtKind as S};
use crate::diagnostic::{Location, Span};
use crate::hir::{Block, Label, StmtId, StmtKind, SwitchCase, UnrollHint};
use crate::literal;
use crate::types::Type;

impl Checker<'_> {
    pub(super) fn block_items(&mut self, items: &[ast::Stmt]) -> Block {
        // About one checked statement per statement written.
        let mut out = Vec::with_capacity(items.len());
        // A pragma inside the block holds until the block's end.
        let fp_contract = self.fp_contract;
        for s in items {
            self.statement(s, &mut out);
        }
        self.fp_contract = fp_contract;
        out
    }

    fn scoped_statement(&mut self, s: &ast::Stmt) -> Block {
        self.scopes.push();
        let mut out = Vec::new();
        self.statement(s, &mut out);
        self.end_scope(&mut out, s.span());
        self.scopes.pop();
        out
    }

    /// Before the innermost scope closes: the destructors of its objects.
    fn end_scope(&mut self, out: &mut Block, span: Span) {
        self.destroy_from(self.scopes.depth(), true, out, span, None);
    }

    /// Before a `break` (`continue` with `to_loop`) or `return`
    /// (`None`): the destructors of the objects of the scopes it leaves.
    fn destroy_before_jump(&mut self, to_loop: Option<bool>, out: &mut Block, span: Span) {
        if !self.has_destructibles() {
            return;
        }
        let f = self.current.as_ref().expect("in a function");
        let (depth, kept) = match to_loop {
            // A `return` of the named return value keeps it.
            None => (0, f.named_return_local),
            Some(to_loop) => {
                let target = f
                    .jump_scopes
                    .iter()
                    .rev()
                    .find(|(_, is_loop)| *is_loop || !to_loop);
                match target {
                    Some(&(depth, _)) => (depth + 1, None),
                    None => return,
                }
            }
        };
        self.destroy_from(depth, false, out, span, kept);
    }

    /// C++'s `auto [a, b] = e;`: the hidden object, then each name for
    /// its member (or element) in order.
    fn structured_bindings(&mut self, b: &ast::Bindings, at: Span, out: &mut Block) {
        // By copy, an array would have to be copied whole, which a
        // declaration does not do (`auto` takes a pointer to it); by
        // reference, it is a reference to an array, which clvulkan has
        // not yet.
        let array = b.object.declarators.iter().any(|d| match &d.init {
            Some(ast::Initializer::Expr(e)) => {
                self.quietly(|c| matches!(c.expr(e).ty, Type::Array(..)))
            }
            _ => false,
        });
        if array {
            let not_yet = crate::language::NOT_YET;
            self.error(at, format!("structured bindings of arrays are {not_yet}"));
            return;
        }
        self.local_declaration(&b.object, at, out);
        let object = self.expr(&b.hidden);
        let places: Vec<super::tree::Expr> = match object.ty {
            Type::Record(r) => {
                let fields: Vec<(usize, Type)> = (self.record(r).fields.iter().enumerate())
                    .map(|(i, f)| (i, f.ty))
                    .collect();
                let anonymous =
                    (self.record(r).fields.iter()).any(|f| f.name == crate::hir::Symbol::EMPTY);
                if anonymous {
                    let not_yet = crate::language::NOT_YET;
                    self.error(at, format!("structured bindings of classes with bases or anonymous members are {not_yet}"));
                    return;
                }
                fields
                    .into_iter()
                    .map(|(i, ty)| {
                        super::tree::Expr::new(
                            crate::hir::ExprKind::Member(Box::new(object.clone()), i),
                            ty,
                            at,
                        )
                    })
                    .collect()
            }
            Type::Array(_, count) => {
                let element = self.element_of(object.ty).unwrap_or(Type::Error);
                (0..count)
                    .map(|i| {
                        let index = self.int_const(i, Type::INT, at);
                        super::tree::Expr::new(
                            crate::hir::ExprKind::Index(Box::new(object.clone()), Box::new(index)),
                            element,
                            at,
                        )
                    })
                    .collect()
            }
            Type::Error => return,
            ty => {
                let shown = self.display(ty);
                self.error(
                    at,
                    format!("cannot decompose non-class, non-array type '{shown}'"),
                );
                return;
            }
        };
        if places.len() != b.names.len() {
            let ty = self.display(object.ty);
            let message = format!(
                "type '{ty}' decomposes into {} elements, but {} names were provided",
                places.len(),
                b.names.len()
            );
            self.error(at, message);
            return;
        }
        for ((name, _), place) in b.names.iter().zip(places) {
            self.declare(*name, super::Symbol::Place(std::rc::Rc::new(place)));
        }
    }

    /// C++: at the first `return` of a function that deduces its return
    /// type, the type: `value`'s, as a value (no `const`, arrays as
    /// pointers), or `void`.
    fn deduce_return_type(&mut self, value: Option<&ast::Expr>) {
        let Some(id) = self.current.as_ref().and_then(|f| f.deduce_return) else {
            return;
        };
        let ty = match value {
            Some(v) => self.quietly(|c| c.rvalue(v).ty),
            None => Type::Void,
        };
        let f = self.current.as_mut().expect("in a function");
        f.deduce_return = None;
        f.ret = ty;
        self.program.functions[id].ret = ty;
    }

    pub(super) fn statement(&mut self, s: &ast::Stmt, out: &mut Block) {
        crate::stack::guard(|| {
            let at = s.span();
            // A hint belongs to the statement right after it, if a loop.
            let unroll = match s.kind {
                S::Pragma(_) | S::Attributed(..) => UnrollHint::Unspecified,
                _ => self.take_loop_hint(),
            };
            match &s.kind {
                S::Compound(b) => {
                    self.scopes.push();
                    let mut items = self.block_items(&b.items);
                    self.end_scope(&mut items, at);
                    self.scopes.pop();
                    out.push(self.add_stmt(StmtKind::Block(items), at));
                }
                S::Declaration(d) => self.local_declaration(d, at, out),
                S::RangeFor(r) => self.range_for(r, out),
                S::Bindings(b) => self.structured_bindings(b, at, out),
                S::Expr(Some(e)) => self.full_expression(out, at, |c, out| {
                    let e = c.expr(e);
                    let e = c.commit(e);
                    out.push(c.add_stmt(StmtKind::Expr(e), at));
                }),
                S::Expr(None) => {}
                S::Pragma(p) => self.pragma(*p),
                S::StaticAssert(a) => self.static_assert(a),
                S::Attributed(attributes, inner) => {
                    self.note_unroll_attribute(attributes);
                    self.statement(inner, out);
                }
                S::IfConstexpr(c, then, otherwise) => {
                    let Some(value) = self.const_int(c) else {
                        let at = c.begin();
                        self.error(at, "constexpr if condition is not a constant expression");
                        return;
                    };
                    let chosen = if value != 0 {
                        Some(then)
                    } else {
                        otherwise.as_ref()
                    };
                    if let Some(chosen) = chosen {
                        let block = self.scoped_statement(chosen);
                        out.push(self.add_stmt(StmtKind::Block(block), at));
                    }
                }
                S::If(c, then, otherwise) => {
                    let c = self.condition(c, s.location);
                    let c = self.commit(c);
                    let then = self.scoped_statement(then);
                    let otherwise = otherwise
                        .as_ref()
                        .map(|o| self.scoped_statement(o))
                        .unwrap_or_default();
                    out.push(self.add_stmt(StmtKind::If(c, then, otherwise), at));
                }
                S::While(c, body) => {
                    let cond = self.condition(c, s.location);
                    let cond = Some(self.commit(cond));
                    let body = self.loop_body(body);
                    let kind = StmtKind::Loop {
                        cond,
                        body,
                        step: None,
                        test_first: true,
                        unroll,
                    };
                    out.push(self.add_stmt(kind, at));
                }
                S::DoWhile(body, c) => {
                    let body = self.loop_body(body);
                    let cond = self.condition(c, s.location);
                    let cond = Some(self.commit(cond));
                    let kind = StmtKind::Loop {
                        cond,
                        body,
                        step: None,
                        test_first: false,
                        unroll,
                    };
                    out.push(self.add_stmt(kind, at));
                }
                S::For {
                    init,
                    cond,
                    step,
                    body,
                } => {
                    self.scopes.push();
                    let mut block = Vec::new();
                    if let Some(init) = init {
                        self.statement(init, &mut block);
                    }
                    let cond = cond.as_ref().map(|c| {
                        let c = self.condition(c, s.location);
                        self.commit(c)
                    });
                    let step = step.as_ref().map(|e| {
                        let e = self.expr(e);
                        self.commit(e)
                    });
                    let body = self.loop_body(body);
                    let kind = StmtKind::Loop {
                        cond,
                        body,
                        step,
                        test_first: true,
                        unroll,
                    };
                    block.push(self.add_stmt(kind, at));
                    // Objects the init declares live until the loop ends.
                    self.end_scope(&mut block, at);
                    self.scopes.pop();
                    out.push(self.add_stmt(StmtKind::Block(block), at));
                }
                S::Break if self.break_depth == 0 => {
                    self.error(
                        s.location,
                        "'break' statement not in loop or switch statement",
                    );
                }
                S::Continue if self.loop_depth == 0 => {
                    self.error(s.location, "'continue' statement not in loop statement");
                }
                S::Break => {
                    self.destroy_before_jump(Some(false), out, at);
                    out.push(self.add_stmt(StmtKind::Break, at));
                }
                S::Continue => {
                    self.destroy_before_jump(Some(true), out, at);
                    out.push(self.add_stmt(StmtKind::Continue, at));
                }
                S::Return(value) => {
                    self.open_full_expression();
                    self.deduce_return_type(value.as_ref());
                    let ret = self.current.as_ref().map_or(Type::Void, |f| f.ret);
                    let value = match (value, ret) {
                        (None, Type::Void) => None,
                        (None, _) => {
                            self.error(s.location, "non-void function should return a value");
                            None
                        }
                        (Some(_), Type::Void) => {
                            self.error(s.location, "void function should not return a value");
                            None
                        }
                        (Some(v), ret) => {
                            let begin = v.begin();
                            let reference =
                                self.current.as_ref().is_some_and(|f| f.returns_reference);
                            let v = if let ast::ExprKind::BracedList(init) = &v.kind {
                                self.compound_literal(ret, None, init, v.span())
                            } else if reference {
                                self.bind_reference(ret, v, begin, false)
                            } else {
                                let v = self.expr(v);
                                let named =
                                    self.current.as_ref().and_then(|f| f.named_return_local);
                                match v.kind {
                                    // The object returned itself: no copy.
                                    crate::hir::ExprKind::Local(id) if Some(id) == named => v,
                                    _ => self.convert_for_assignment(
                                        v,
                                        ret,
                                        Conversion::Return(begin),
                                    ),
                                }
                            };
                            Some(self.commit(v))
                        }
                    };
                    let value = self.destroy_before_return(value, ret, out, at);
                    self.close_full_expression(out, at);
                    out.push(self.add_stmt(StmtKind::Return(value), at));
                }
                S::Switch(value, inner) => {
                    let switch = self.switch(value, inner);
                    out.push(self.add_stmt(switch, at));
                }
                S::Case(_, _) => {
                    self.error(s.location, "'case' statement not in switch statement");
                }
                S::Default(_) => {
                    self.error(s.location, "'default' statement not in switch statement");
                }
                &S::Goto(name, name_at) => {
                    let label = self.label(name);
                    let state = self.current.as_mut().expect("inside a function");
                    state.labels[label.0 as usize]
                        .first_goto
                        .get_or_insert(name_at);
                    out.push(self.add_stmt(StmtKind::Goto(label), at));
                }
                S::Labeled(name, inner) => {
                    self.define_label(*name, s.location, at, out);
                    self.statement(inner, out);
                }
            }
        })
    }

    /// The label spelled `name` in this function, made on first mention.
    fn label(&mut self, name: Name) -> Label {
        let state = self.current.as_mut().expect("inside a function");
        let index = match state.labels.iter().position(|l| l.name == name) {
            Some(index) => index,
            None => {
                state.labels.push(LabelState {
                    name,
                    defined: None,
                    first_goto: None,
                });
                state.labels.len() - 1
            }
        };
        Label(index as u32)
    }

    /// `name:` written at `location`: marks the place in `out`.
    fn define_label(&mut self, name: Name, location: Location, at: Span, out: &mut Block) {
        let label = self.label(name);
        let state = self.current.as_mut().expect("inside a function");
        let previous = state.labels[label.0 as usize].defined.replace(location);
        if let Some(previous) = previous {
            let spelling = self.spelling(name);
            self.error(location, format!("redefinition of label '{spelling}'"));
            self.diags.note(previous, "previous definition is here");
        }
        out.push(self.add_stmt(StmtKind::Label(label), at));
    }

    /// At the end of a function body: each `goto` names a label the body
    /// defines (clang reports them there, in the order first used).
    pub(super) fn report_undeclared_labels(&mut self) {
        let state = self.current.as_ref().expect("inside a function");
        let mut undeclared: Vec<(Location, Name)> = state
            .labels
            .iter()
            .filter(|l| l.defined.is_none())
            .filter_map(|l| Some((l.first_goto?, l.name)))
            .collect();
        undeclared.sort_by_key(|&(at, _)| (at.file, at.offset));
        for (at, name) in undeclared {
            let spelling = self.spelling(name);
            self.error(at, format!("use of undeclared label '{spelling}'"));
        }
    }

    fn loop_body(&mut self, body: &ast::Stmt) -> Block {
        self.loop_depth += 1;
        self.break_depth += 1;
        self.enter_jump_scope(true);
        let b = self.scoped_statement(body);
        self.leave_jump_scope();
        self.loop_depth -= 1;
        self.break_depth -= 1;
        b
    }

    /// Before a `return` of `value` (of type `ret`): the value kept in a
    /// new local, then the destruction of its temporaries and of every
    /// object in scope; what the `return` returns then.
    fn destroy_before_return(
        &mut self,
        value: Option<crate::hir::ExprId>,
        ret: Type,
        out: &mut Block,
        span: Span,
    ) -> Option<crate::hir::ExprId> {
        if !self.has_destructibles() && !self.has_open_temporaries() {
            return value;
        }
        let kept = value.map(|value| {
            let local = crate::hir::Local {
                name: self.program.names.intern("(returned value)"),
                ty: ret,
                space: crate::ast::AddressSpace::Private,
                is_const: false,
                span,
            };
            let id = self.add_local(None, local);
            out.push(self.add_stmt(StmtKind::Init(id, value), span));
            id
        });
        let temporaries = self.take_open_temporaries();
        self.destroy_temporaries(temporaries, out, span);
        self.destroy_before_jump(None, out, span);
        kept.map(|id| {
            let local = super::tree::Expr::new(crate::hir::ExprKind::Local(id), ret, span);
            self.commit(local)
        })
    }

    /// Notes a loop's (`is_loop`) or `switch`'s body starting in the scope
    /// after the current one, for the destructors a jump out runs.
    fn enter_jump_scope(&mut self, is_loop: bool) {
        let depth = self.scopes.depth();
        if let Some(f) = self.current.as_mut() {
            f.jump_scopes.push((depth, is_loop));
        }
    }

    /// Reports objects with destructors declared in a `switch`'s body
    /// itself, whose destruction at the end of the `switch` clvulkan does
    /// not run yet (in a block of their own they are destroyed there).
    fn reject_switch_objects(&mut self, span: Span) {
        let depth = self.scopes.depth();
        let Some(f) = self.current.as_mut() else {
            return;
        };
        let first = f.destructibles.partition_point(|d| d.depth() < depth);
        if first < f.destructibles.len() {
            f.destructibles.truncate(first);
            let not_yet = crate::language::NOT_YET;
            self.error(
                span,
                format!("objects of a class with a destructor declared in a 'switch' body itself are {not_yet}"),
            );
        }
    }

    fn leave_jump_scope(&mut self) {
        if let Some(f) = self.current.as_mut() {
            f.jump_scopes.pop();
        }
    }

    /// `switch`: the controlling value is promoted; the body's top-level
    /// `case`/`default` labels split it into groups (labels nested deeper,
    /// as in Duff's device, are not supported).
    fn switch(&mut self, value: &ast::Expr, body: &ast::Stmt) -> StmtKind {
        let v = self.rvalue(value);
        let ty = match v.ty {
            Type::Scalar(s) if s.is_integer() => Type::Scalar(crate::builtins::promote(s)),
            Type::Error => Type::INT,
            t => {
                self.error(
                    value.location,
                    format!(
                        "statement requires expression of integer type ('{}' invalid)",
                        self.display(t)
                    ),
                );
                Type::INT
            }
        };
        let scalar = ty.scalar().unwrap_or(crate::types::Scalar::Int);
        let v = self.convert(v, ty);
        let v = self.commit(v);
        let items: &[ast::Stmt] = match &body.kind {
            S::Compound(b) => &b.items,
            _ => std::slice::from_ref(body),
        };
        self.break_depth += 1;
        self.enter_jump_scope(false);
        self.scopes.push();
        let mut cases: Vec<SwitchCase> = Vec::new();
        let mut seen: Vec<u64> = Vec::new();
        let mut has_default = false;
        for item in items {
            // Peel the labels off this statement.
            let mut stmt = item;
            let mut labels = Vec::new();
            let mut is_default = false;
            let mut labels_here = Vec::new();
            loop {
                match &stmt.kind {
                    S::Case(e, inner) => {
                        match self.const_int(e) {
                            Some(n) => {
                                let bits = literal::wrap(n as i64, scalar);
                                if seen.contains(&bits) {
                                    self.error(e.location, format!("duplicate case value '{n}'"));
                                }
                                seen.push(bits);
                                labels.push(bits);
                            }
                            None => self.error(
                                e.location,
                                "expression is not an integer constant expression",
                            ),
                        }
                        stmt = inner;
                    }
                    // `L: case 1:` marks the start of the case's body.
                    S::Labeled(name, inner) => {
                        labels_here.push((*name, stmt.location, stmt.span()));
                        stmt = inner;
                    }
                    S::Default(inner) => {
                        if has_default {
                            self.error(stmt.location, "multiple default labels in one switch");
                        }
                        has_default = true;
                        is_default = true;
                        stmt = inner;
                    }
                    _ => break,
                }
            }
            if !labels.is_empty() || is_default || cases.is_empty() {
                if cases.is_empty() && labels.is_empty() && !is_default && labels_here.is_empty() {
                    // Statements before the first label never run (unless
                    // a goto label marks them), but their declarations are
                    // in scope (C99 6.8.4.2).
                    self.diags
                        .warning(stmt.location, "statement will never be executed");
                }
                cases.push(SwitchCase {
                    values: labels,
                    is_default,
                    body: Vec::new(),
                });
            }
            let mut body: Vec<StmtId> = Vec::new();
            for (name, location, at) in labels_here {
                self.define_label(name, location, at, &mut body);
            }
            self.statement(stmt, &mut body);
            if let Some(last) = cases.last_mut() {
                last.body.extend(body);
            }
        }
        self.reject_switch_objects(body.span());
        self.scopes.pop();
        self.leave_jump_scope();
        self.break_depth -= 1;
        StmtKind::Switch(v, cases)
    }
}
