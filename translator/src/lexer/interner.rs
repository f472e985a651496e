//! Spellings as numbers: the [`Interner`] gives each distinct spelling a
//! symbol and one shared allocation, with the hasher it uses.

use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use super::CompactToken;
use crate::token::{Punct, Token};

/// FxHash (rustc's hasher): identifiers are short, and SipHash's DoS
/// resistance buys nothing in a compiler.
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

pub(super) const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

pub type FxBuildHasher = BuildHasherDefault<FxHasher>;

/// FxHash of a spelling: whole little-endian words, then the length.
#[inline]
fn hash_bytes(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    let mut h = FxHasher::default();
    h.add(n as u64);
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let half = |at: usize| {
        let mut w = [0u8; 4];
        w.copy_from_slice(&bytes[at..at + 4]);
        u32::from_le_bytes(w) as u64
    };
    // Fixed-size loads only (a variable-length copy is a `memcpy` call):
    // the tail is covered by a load that overlaps the previous one.
    match n {
        0 => {}
        1..=3 => {
            let (a, b, c) = (bytes[0], bytes[n / 2], bytes[n - 1]);
            h.add((a as u64) | (b as u64) << 8 | (c as u64) << 16);
        }
        4..=8 => h.add(half(0) | half(n - 4) << 32),
        _ => {
            let mut i = 0;
            while i + 8 < n {
                h.add(word(i));
                i += 8;
            }
            h.add(word(n - 8));
        }
    }
    h.hash
}

/// `a == b`, without a `memcmp` call for the short spellings that are
/// nearly all of them (a hash match is almost always a real match).
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let half = |s: &[u8], at: usize| {
        let mut w = [0u8; 4];
        w.copy_from_slice(&s[at..at + 4]);
        u32::from_le_bytes(w)
    };
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=8 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        _ => a == b,
    }
}

/// Numbers spellings: each distinct one gets a symbol (its index here),
/// and one shared allocation that every [`Token`] with that spelling
/// points to, so that a kernel's thousands of `int`, `i` and `0` tokens
/// cost one `Rc` each. Symbol `p as u32` is punctuator `p`'s spelling.
///
/// Every identifier and number is interned, so this is on the hottest path
/// of the front end: a small open-addressing table (linear probing, at most
/// half full) that keeps each entry's hash beside it does a lookup in a
/// fraction of what a general `HashSet<Rc<str>>` costs.
#[derive(Clone, Debug)]
pub struct Interner {
    /// `(top half of the hash, symbol)`, `EMPTY_SLOT` for none; the length
    /// is a power of two. Eight bytes a slot, so that the prelude's table
    /// is cheap to copy for every build.
    slots: Vec<(u32, u32)>,
    /// `32 - log2(slots.len())`: the table index is the hash's top bits,
    /// which FxHash mixes best.
    shift: u32,
    /// The spelling of each symbol.
    syms: Vec<Rc<str>>,
}

const EMPTY_SLOT: u32 = u32::MAX;

impl Default for Interner {
    fn default() -> Self {
        Interner::with_capacity(512)
    }
}

impl Interner {
    /// An interner with room for `symbols` symbols before it grows.
    pub fn with_capacity(symbols: usize) -> Self {
        let slots = (symbols * 2).next_power_of_two().max(128);
        let mut interner = Interner {
            slots: vec![(0, EMPTY_SLOT); slots],
            shift: 32 - slots.trailing_zeros(),
            syms: Vec::with_capacity(slots / 2),
        };
        for p in Punct::ALL {
            interner.sym(p.spelling());
        }
        interner
    }

    #[inline]
    pub fn intern(&mut self, s: &str) -> Rc<str> {
        let sym = self.sym(s);
        self.syms[sym as usize].clone()
    }

    /// The symbol of spelling `s`.
    #[inline]
    pub fn sym(&mut self, s: &str) -> u32 {
        let hash = (hash_bytes(s.as_bytes()) >> 32) as u32;
        let mask = self.slots.len() - 1;
        let mut i = (hash >> self.shift) as usize;
        loop {
            let (h, sym) = self.slots[i];
            if sym == EMPTY_SLOT {
                break;
            }
            if h == hash && same_bytes(self.syms[sym as usize].as_bytes(), s.as_bytes()) {
                return sym;
            }
            i = (i + 1) & mask;
        }
        self.insert(s, hash, i)
    }

    /// Adds `s` (hash `hash`) at empty slot `slot`. Out of line, so that
    /// the lookup above stays small enough to inline into the lexer.
    #[inline(never)]
    fn insert(&mut self, s: &str, hash: u32, slot: usize) -> u32 {
        let sym = self.syms.len() as u32;
        self.syms.push(Rc::from(s));
        self.slots[slot] = (hash, sym);
        if self.syms.len() * 2 > self.slots.len() {
            self.grow();
        }
        sym
    }

    /// The symbol of spelling `s` if it has one, without adding it.
    pub fn find(&self, s: &str) -> Option<u32> {
        let hash = (hash_bytes(s.as_bytes()) >> 32) as u32;
        let mask = self.slots.len() - 1;
        let mut i = (hash >> self.shift) as usize;
        loop {
            let (h, sym) = self.slots[i];
            if sym == EMPTY_SLOT {
                return None;
            }
            if h == hash && same_bytes(self.syms[sym as usize].as_bytes(), s.as_bytes()) {
                return Some(sym);
            }
            i = (i + 1) & mask;
        }
    }

    /// The spelling of every symbol, by symbol.
    pub fn spellings(&self) -> &[Rc<str>] {
        &self.syms
    }

    /// [`Interner::spellings`], taken.
    pub fn into_spellings(self) -> Vec<Rc<str>> {
        self.syms
    }

    /// The shared spelling of symbol `sym`.
    #[inline]
    pub fn get(&self, sym: u32) -> &Rc<str> {
        &self.syms[sym as usize]
    }

    /// The symbols in a form that can cross threads.
    pub(crate) fn freeze(&self) -> FrozenInterner {
        FrozenInterner {
            slots: self.slots.clone(),
            shift: self.shift,
            spellings: self.syms.iter().map(|s| Box::from(&**s)).collect(),
        }
    }

    /// How many symbols there are (each is below this).
    pub fn len(&self) -> usize {
        self.syms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.syms.is_empty()
    }

    /// Doubles the table.
    fn grow(&mut self) {
        let new_len = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![(0, EMPTY_SLOT); new_len]);
        self.shift = 32 - new_len.trailing_zeros();
        let mask = new_len - 1;
        for (hash, sym) in old {
            if sym == EMPTY_SLOT {
                continue;
            }
            let mut i = (hash >> self.shift) as usize;
            while self.slots[i].1 != EMPTY_SLOT {
                i = (i + 1) & mask;
            }
            self.slots[i] = (hash, sym);
        }
    }

    #[inline]
    pub fn punct(&self, p: Punct) -> Rc<str> {
        self.syms[p as usize].clone()
    }

    /// `t` as a public token.
    #[inline]
    pub(crate) fn token(&self, t: &CompactToken) -> Token {
        Token {
            kind: t.kind,
            text: self.syms[t.sym as usize].clone(),
            location: t.location,
            leading_space: t.space(),
        }
    }
}

/// An [`Interner`]'s symbols, kept where the interner's `Rc` spellings
/// cannot go: in a cache that builds on other threads read.
pub(crate) struct FrozenInterner {
    slots: Vec<(u32, u32)>,
    shift: u32,
    spellings: Vec<Box<str>>,
}

impl FrozenInterner {
    /// An interner with the same symbols, and room for as many more before
    /// it grows.
    pub(crate) fn thaw(&self) -> Interner {
        let mut syms = Vec::with_capacity(self.slots.len() / 2);
        syms.extend(self.spellings.iter().map(|s| Rc::from(&**s)));
        Interner {
            slots: self.slots.clone(),
            shift: self.shift,
            syms,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::Interner;

    #[test]
    fn interner_grows_and_keeps_sharing() {
        let mut interner = Interner::default();
        let names: Vec<String> = (0..5000).map(|i| format!("name_{i}")).collect();
        let first: Vec<Rc<str>> = names.iter().map(|n| interner.intern(n)).collect();
        // Short and empty spellings hash without reading past the end.
        for s in ["", "a", "ab", "abc", "abcd", "abcdefgh", "abcdefghi"] {
            let a = interner.intern(s);
            assert_eq!(&*a, s);
            assert!(Rc::ptr_eq(&a, &interner.intern(s)));
        }
        for (n, r) in names.iter().zip(&first) {
            let again = interner.intern(n);
            assert_eq!(&*again, n.as_str());
            assert!(Rc::ptr_eq(&again, r));
        }
    }
}
