//! The checker's name scopes: which declaration each identifier means at
//! the current point of the program.
//!
//! All scopes share one table, so a lookup is one probe however deeply
//! blocks nest: each distinct spelling gets a number, `innermost` holds the
//! innermost declaration of each number with the depth of its scope,
//! `shadowed` what each declaration replaced (restored when its scope
//! closes), and `scope_starts` where each open scope's entries begin in
//! `shadowed`. Blocks open and close far more often than names are declared,
//! so opening a scope allocates nothing.
//!
//! Numbering a spelling is the hot part (every identifier of every
//! expression is looked up). The preprocessor interns spellings, so the AST
//! shares one allocation per spelling: [`Spellings`] finds a number by the
//! spelling's address first and hashes the text only on a miss.

use super::Symbol;
use crate::lexer::FxBuildHasher;
use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

/// A declaration and the depth of the scope it belongs to.
type Declared = (Symbol, usize);

pub(super) struct Scopes {
    spellings: Spellings,
    /// By spelling number.
    innermost: Vec<Option<Declared>>,
    shadowed: Vec<(u32, Option<Declared>)>,
    scope_starts: Vec<usize>,
}

impl Scopes {
    /// The program scope, open.
    pub(super) fn new() -> Self {
        // Sized for a typical program's live names, so nothing regrows
        // while the first functions are checked.
        Scopes {
            spellings: Spellings::new(),
            innermost: Vec::with_capacity(512),
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
        for (id, previous) in self.shadowed.drain(start..).rev() {
            self.innermost[id as usize] = previous;
        }
    }

    /// The declaration `name` refers to here.
    #[inline]
    pub(super) fn lookup(&self, name: &str) -> Option<&Symbol> {
        let id = self.spellings.find(name)?;
        self.innermost[id as usize]
            .as_ref()
            .map(|(symbol, _)| symbol)
    }

    /// The declaration of `name` in the innermost scope itself, if any (for
    /// redefinition checks: an outer declaration may be hidden freely).
    pub(super) fn in_innermost(&self, name: &str) -> Option<&Symbol> {
        let id = self.spellings.find(name)?;
        self.innermost[id as usize]
            .as_ref()
            .filter(|(_, depth)| *depth == self.depth())
            .map(|(symbol, _)| symbol)
    }

    pub(super) fn declare(&mut self, name: Rc<str>, symbol: Symbol) {
        let id = self.spellings.number(name);
        if self.innermost.len() <= id as usize {
            self.innermost.resize_with(id as usize + 1, || None);
        }
        let depth = self.depth();
        let previous = self.innermost[id as usize].replace((symbol, depth));
        self.shadowed.push((id, previous));
    }
}

/// Slots in [`Spellings::recent`]; a power of two.
const RECENT_SLOTS: usize = 1024;

/// Numbers the distinct spellings declared so far.
struct Spellings {
    /// `(address, number)`: the address of `texts[number]`'s characters.
    /// Only addresses of spellings held in `texts` are entered, so an
    /// address here cannot have been freed and reused for other text;
    /// a miss falls back to `by_text`, so correctness does not depend on
    /// the AST sharing allocations.
    recent: Vec<Cell<(usize, u32)>>,
    by_text: HashMap<Rc<str>, u32, FxBuildHasher>,
    texts: Vec<Rc<str>>,
}

impl Spellings {
    fn new() -> Self {
        Spellings {
            recent: vec![Cell::new((0, 0)); RECENT_SLOTS],
            by_text: HashMap::with_capacity_and_hasher(512, FxBuildHasher::default()),
            texts: Vec::with_capacity(512),
        }
    }

    #[inline]
    fn slot(address: usize) -> usize {
        (address >> 4) & (RECENT_SLOTS - 1)
    }

    /// The number of `name`, if it was ever declared.
    #[inline]
    fn find(&self, name: &str) -> Option<u32> {
        let address = name.as_ptr() as usize;
        let (known, id) = self.recent[Self::slot(address)].get();
        // The same address and length is the same text: a shorter slice of
        // the same allocation must not match.
        if known == address && self.texts[id as usize].len() == name.len() {
            return Some(id);
        }
        self.find_by_text(name)
    }

    #[inline(never)]
    fn find_by_text(&self, name: &str) -> Option<u32> {
        let id = *self.by_text.get(name)?;
        let address = name.as_ptr() as usize;
        if self.texts[id as usize].as_ptr() as usize == address {
            self.recent[Self::slot(address)].set((address, id));
        }
        Some(id)
    }

    /// The number of `name`, given one if new.
    fn number(&mut self, name: Rc<str>) -> u32 {
        if let Some(id) = self.find(&name) {
            return id;
        }
        let id = self.texts.len() as u32;
        let address = name.as_ptr() as usize;
        self.recent[Self::slot(address)].set((address, id));
        self.by_text.insert(name.clone(), id);
        self.texts.push(name);
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(s: Option<&Symbol>) -> Option<i64> {
        match s {
            Some(Symbol::EnumConstant(v)) => Some(*v),
            _ => None,
        }
    }

    #[test]
    fn equal_spellings_in_other_allocations_are_one_name() {
        let mut scopes = Scopes::new();
        let first: Rc<str> = Rc::from("x");
        scopes.declare(first.clone(), Symbol::EnumConstant(1));
        // Another allocation of the same text, and a slice of a longer one.
        let other: Rc<str> = Rc::from("x");
        let longer: Rc<str> = Rc::from("xy");
        assert_eq!(value(scopes.lookup(&other)), Some(1));
        assert_eq!(value(scopes.lookup(&longer[..1])), Some(1));
        assert_eq!(value(scopes.lookup(&longer)), None);
        assert_eq!(value(scopes.lookup(&first[..0])), None);

        scopes.push();
        scopes.declare(other.clone(), Symbol::EnumConstant(2));
        assert_eq!(value(scopes.lookup(&first)), Some(2));
        assert_eq!(value(scopes.in_innermost(&first)), Some(2));
        scopes.push();
        assert_eq!(value(scopes.in_innermost("x")), None);
        assert_eq!(value(scopes.lookup("x")), Some(2));
        scopes.pop();
        scopes.pop();
        assert_eq!(value(scopes.lookup("x")), Some(1));
        assert_eq!(value(scopes.in_innermost("x")), Some(1));
    }

    #[test]
    fn many_names_survive_cache_collisions() {
        let mut scopes = Scopes::new();
        let names: Vec<Rc<str>> = (0..5000).map(|i| Rc::from(format!("n{i}"))).collect();
        for (i, n) in names.iter().enumerate() {
            scopes.declare(n.clone(), Symbol::EnumConstant(i as i64));
        }
        for (i, n) in names.iter().enumerate() {
            assert_eq!(value(scopes.lookup(n)), Some(i as i64));
            assert_eq!(value(scopes.lookup(&format!("n{i}"))), Some(i as i64));
        }
    }
}
