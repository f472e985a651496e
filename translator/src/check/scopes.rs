//! The checker's name scopes: which declaration each identifier means at
//! the current point of the program.
//!
//! All scopes share one map, so a lookup is one probe however deeply blocks
//! nest: the map holds the innermost declaration of each name with the depth
//! of its scope, `shadowed` what each declaration replaced (restored when its
//! scope closes), and `scope_starts` where each open scope's entries begin in
//! `shadowed`. Blocks open and close far more often than names are declared,
//! so opening a scope allocates nothing.

use super::Symbol;
use crate::lexer::FxBuildHasher;
use std::collections::HashMap;
use std::rc::Rc;

/// A declaration and the depth of the scope it belongs to.
type Declared = (Symbol, usize);

pub(super) struct Scopes {
    innermost: HashMap<Rc<str>, Declared, FxBuildHasher>,
    shadowed: Vec<(Rc<str>, Option<Declared>)>,
    scope_starts: Vec<usize>,
}

impl Scopes {
    /// The program scope, open.
    pub(super) fn new() -> Self {
        // Sized for a typical program's live names, so the map does not
        // rehash its way up while the first functions are checked.
        Scopes {
            innermost: HashMap::with_capacity_and_hasher(256, FxBuildHasher::default()),
            shadowed: Vec::with_capacity(256),
            scope_starts: vec![0],
        }
    }

    /// How many scopes are open (1 at program scope).
    pub(super) fn depth(&self) -> usize {
        self.scope_starts.len()
    }

    pub(super) fn push(&mut self) {
        self.scope_starts.push(self.shadowed.len());
    }

    pub(super) fn pop(&mut self) {
        let start = self.scope_starts.pop().expect("a scope is open");
        for (name, previous) in self.shadowed.drain(start..).rev() {
            match previous {
                Some(entry) => self.innermost.insert(name, entry),
                None => self.innermost.remove(&name),
            };
        }
    }

    /// The declaration `name` refers to here.
    pub(super) fn lookup(&self, name: &str) -> Option<&Symbol> {
        self.innermost.get(name).map(|(symbol, _)| symbol)
    }

    /// The declaration of `name` in the innermost scope itself, if any (for
    /// redefinition checks: an outer declaration may be hidden freely).
    pub(super) fn in_innermost(&self, name: &str) -> Option<&Symbol> {
        self.innermost
            .get(name)
            .filter(|(_, depth)| *depth == self.depth())
            .map(|(symbol, _)| symbol)
    }

    pub(super) fn declare(&mut self, name: Rc<str>, symbol: Symbol) {
        let previous = self.innermost.insert(name.clone(), (symbol, self.depth()));
        self.shadowed.push((name, previous));
    }
}
