//! The checker's name scopes: which declaration each identifier (and each
//! struct or union tag) means at the current point of the program.
//!
//! All scopes share one table, so a lookup is one probe however deeply
//! blocks nest. Names are the preprocessor's symbols, so the table is
//! indexed by a name's symbol (and its namespace): `innermost` holds the
//! innermost declaration of each key with the depth of its scope,
//! `shadowed` what each declaration replaced (restored when its scope
//! closes), and `scope_starts` where each open scope's entries begin in
//! `shadowed`. Blocks open and close far more often than names are
//! declared, so opening a scope allocates nothing.

use super::Symbol;
use crate::ast::{Name, RecordKind};

/// A declaration and the depth of the scope it belongs to.
type Declared = (Symbol, usize);

/// A name in one of the namespaces the scopes keep apart (C99 6.2.3):
/// ordinary identifiers, and the tags of structs and of unions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Key(u32);

impl Key {
    pub(super) fn tag(kind: RecordKind, name: Name) -> Key {
        let namespace = match kind {
            RecordKind::Struct => 1,
            RecordKind::Union => 2,
        };
        Key(name.0 * 3 + namespace)
    }
}

impl From<Name> for Key {
    #[inline]
    fn from(name: Name) -> Key {
        Key(name.0 * 3)
    }
}

impl From<&Name> for Key {
    #[inline]
    fn from(name: &Name) -> Key {
        Key::from(*name)
    }
}

pub(super) struct Scopes {
    /// By key.
    innermost: Vec<Option<Declared>>,
    shadowed: Vec<(Key, Option<Declared>)>,
    scope_starts: Vec<usize>,
}

impl Scopes {
    /// The program scope, open.
    pub(super) fn new() -> Self {
        // Sized for a typical program's symbols, so nothing regrows while
        // the first functions are checked.
        Scopes {
            innermost: Vec::with_capacity(4096),
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
        for (key, previous) in self.shadowed.drain(start..).rev() {
            self.innermost[key.0 as usize] = previous;
        }
    }

    /// The declaration `key` refers to here.
    #[inline]
    pub(super) fn lookup(&self, key: impl Into<Key>) -> Option<&Symbol> {
        let key = key.into();
        self.innermost
            .get(key.0 as usize)?
            .as_ref()
            .map(|(symbol, _)| symbol)
    }

    /// The declaration of `key` in the innermost scope itself, if any (for
    /// redefinition checks: an outer declaration may be hidden freely).
    pub(super) fn in_innermost(&self, key: impl Into<Key>) -> Option<&Symbol> {
        let key = key.into();
        self.innermost
            .get(key.0 as usize)?
            .as_ref()
            .filter(|(_, depth)| *depth == self.depth())
            .map(|(symbol, _)| symbol)
    }

    pub(super) fn declare(&mut self, key: impl Into<Key>, symbol: Symbol) {
        let key = key.into();
        let index = key.0 as usize;
        if self.innermost.len() <= index {
            self.innermost.resize_with(index + 1, || None);
        }
        let depth = self.depth();
        let previous = self.innermost[index].replace((symbol, depth));
        self.shadowed.push((key, previous));
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
    fn inner_declarations_hide_outer_ones_until_their_scope_closes() {
        let mut scopes = Scopes::new();
        let x = Name(7);
        scopes.declare(x, Symbol::EnumConstant(1));
        scopes.push();
        scopes.declare(x, Symbol::EnumConstant(2));
        assert_eq!(value(scopes.lookup(x)), Some(2));
        assert_eq!(value(scopes.in_innermost(x)), Some(2));
        scopes.push();
        assert_eq!(value(scopes.in_innermost(x)), None);
        assert_eq!(value(scopes.lookup(x)), Some(2));
        scopes.pop();
        scopes.pop();
        assert_eq!(value(scopes.lookup(x)), Some(1));
        assert_eq!(value(scopes.in_innermost(x)), Some(1));
        assert_eq!(value(scopes.lookup(Name(8))), None);
    }

    #[test]
    fn tags_and_identifiers_are_apart() {
        let mut scopes = Scopes::new();
        let s = Name(3);
        scopes.declare(Key::tag(RecordKind::Struct, s), Symbol::Tag(0));
        assert!(scopes.lookup(s).is_none());
        assert!(scopes.lookup(Key::tag(RecordKind::Union, s)).is_none());
        scopes.declare(s, Symbol::EnumConstant(4));
        assert!(matches!(
            scopes.lookup(Key::tag(RecordKind::Struct, s)),
            Some(Symbol::Tag(0))
        ));
        assert_eq!(value(scopes.lookup(s)), Some(4));
    }
}
