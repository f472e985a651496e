//! The checker's name scopes: which declaration each identifier (and each
//! struct or union tag) means at the current point of the program.
//!
//! All scopes share one stack of declarations, so a lookup is one probe
//! however deeply blocks nest. Names are the preprocessor's symbols, so
//! `innermost` is indexed by a name's symbol (and namespace) and holds
//! where on the stack its innermost declaration is; each declaration
//! remembers the one it hides, restored when its scope closes (the scope's
//! declarations are the top of the stack then). `innermost` has an entry
//! for every symbol of the program, so it holds only a `u32` each: the
//! declarations themselves are few and stay together.

use super::Symbol;
use crate::ast::{Name, RecordKind};

/// A name in one of the namespaces the scopes keep apart (C99 6.2.3):
/// ordinary identifiers, and the tags of structs, of unions and of enums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Key(u32);

/// How many namespaces [`Key`] keeps apart.
const NAMESPACES: u32 = 4;

impl Key {
    pub(super) fn tag(kind: RecordKind, name: Name) -> Key {
        let namespace = match kind {
            RecordKind::Struct => 1,
            RecordKind::Union => 2,
        };
        Key(name.0 * NAMESPACES + namespace)
    }

    pub(super) fn enum_tag(name: Name) -> Key {
        Key(name.0 * NAMESPACES + 3)
    }
}

impl From<Name> for Key {
    #[inline]
    fn from(name: Name) -> Key {
        Key(name.0 * NAMESPACES)
    }
}

impl From<&Name> for Key {
    #[inline]
    fn from(name: &Name) -> Key {
        Key::from(*name)
    }
}

/// One declaration on the stack.
struct Declared {
    key: Key,
    symbol: Symbol,
    /// What `innermost` held for the key before (see there).
    hidden: u32,
}

pub(super) struct Scopes {
    /// By key: 1 + the stack index of the key's innermost declaration, or
    /// 0 for none.
    innermost: Vec<u32>,
    stack: Vec<Declared>,
    /// Where each open scope's declarations begin on the stack.
    scope_starts: Vec<usize>,
}

impl Scopes {
    /// The program scope, open.
    pub(super) fn new() -> Self {
        // Sized for a typical program, so nothing regrows while the first
        // functions are checked.
        Scopes {
            innermost: Vec::with_capacity(4096),
            stack: Vec::with_capacity(256),
            scope_starts: vec![0],
        }
    }

    /// How many scopes are open (1 at program scope).
    pub(super) fn depth(&self) -> usize {
        self.scope_starts.len()
    }

    pub(super) fn push(&mut self) {
        self.scope_starts.push(self.stack.len());
    }

    pub(super) fn pop(&mut self) {
        let start = self.scope_starts.pop().expect("a scope is open");
        for d in self.stack.drain(start..).rev() {
            self.innermost[d.key.0 as usize] = d.hidden;
        }
    }

    /// The stack index of `key`'s innermost declaration.
    #[inline]
    fn index(&self, key: Key) -> Option<usize> {
        let slot = *self.innermost.get(key.0 as usize)?;
        (slot as usize).checked_sub(1)
    }

    /// How many declarations are in scope: a mark below which
    /// [`Scopes::position`] places the outer ones.
    pub(super) fn len(&self) -> usize {
        self.stack.len()
    }

    /// Where on the stack the declaration `key` refers to is.
    pub(super) fn position(&self, key: impl Into<Key>) -> Option<usize> {
        self.index(key.into())
    }

    /// The declaration `key` refers to here.
    #[inline]
    pub(super) fn lookup(&self, key: impl Into<Key>) -> Option<&Symbol> {
        let index = self.index(key.into())?;
        Some(&self.stack[index].symbol)
    }

    /// The declaration of `key` in the innermost scope itself, if any (for
    /// redefinition checks: an outer declaration may be hidden freely).
    pub(super) fn in_innermost(&self, key: impl Into<Key>) -> Option<&Symbol> {
        let index = self.index(key.into())?;
        let scope_start = *self.scope_starts.last().expect("a scope is open");
        (index >= scope_start).then(|| &self.stack[index].symbol)
    }

    pub(super) fn declare(&mut self, key: impl Into<Key>, symbol: Symbol) {
        let key = key.into();
        let slot = key.0 as usize;
        if self.innermost.len() <= slot {
            self.innermost.resize(slot + 1, 0);
        }
        let hidden = self.innermost[slot];
        self.stack.push(Declared {
            key,
            symbol,
            hidden,
        });
        self.innermost[slot] = self.stack.len() as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(s: Option<&Symbol>) -> Option<i64> {
        match s {
            Some(Symbol::EnumConstant(v, _)) => Some(*v),
            _ => None,
        }
    }

    #[test]
    fn inner_declarations_hide_outer_ones_until_their_scope_closes() {
        let mut scopes = Scopes::new();
        let x = Name(7);
        scopes.declare(x, Symbol::EnumConstant(1, crate::types::Scalar::Int));
        scopes.push();
        scopes.declare(x, Symbol::EnumConstant(2, crate::types::Scalar::Int));
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
        let record = crate::types::Types::new(64).add_record(crate::types::Record {
            kind: RecordKind::Struct,
            name: crate::hir::Symbol::EMPTY,
            complete: false,
            fields: Vec::new(),
            size: 0,
            align: 1,
        });
        scopes.declare(Key::tag(RecordKind::Struct, s), Symbol::Tag(record));
        assert!(scopes.lookup(s).is_none());
        assert!(scopes.lookup(Key::tag(RecordKind::Union, s)).is_none());
        scopes.declare(s, Symbol::EnumConstant(4, crate::types::Scalar::Int));
        assert!(matches!(
            scopes.lookup(Key::tag(RecordKind::Struct, s)),
            Some(&Symbol::Tag(r)) if r == record
        ));
        assert_eq!(value(scopes.lookup(s)), Some(4));
    }
}
