//! Spellings as numbers: the [`Interner`] gives each distinct spelling a
//! symbol, with the hasher it uses; [`Spellings`] spells the symbols.

use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;
use std::sync::Arc;

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

/// A `HashMap` with [`FxHasher`]: the translator's tables are keyed by
/// handles and small integers, which need no protection from collisions
/// chosen by an adversary, and SipHash costs several times as much.
pub type FxHashMap<K, V> = std::collections::HashMap<K, V, FxBuildHasher>;

/// A `HashSet` with [`FxHasher`] (see [`FxHashMap`]).
pub type FxHashSet<K> = std::collections::HashSet<K, FxBuildHasher>;

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

/// Numbers spellings: each distinct one gets a symbol (its index in the
/// [`Spellings`]). Symbol `p as u32` is punctuator `p`'s spelling.
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
    spellings: Spellings,
}

/// The spelling of each symbol of an [`Interner`]: first those of the
/// prelude it was thawed from (see `FrozenInterner`), shared with the
/// cache and every other build that thawed it, then its own. Indexed by
/// symbol.
#[derive(Clone, Debug, Default)]
pub struct Spellings {
    shared: Arc<[Box<str>]>,
    own: Vec<Box<str>>,
}

impl Spellings {
    /// The spelling of symbol `sym`.
    #[inline]
    pub fn get(&self, sym: u32) -> &str {
        match self.shared.get(sym as usize) {
            Some(s) => s,
            None => &self.own[sym as usize - self.shared.len()],
        }
    }

    /// Adds a spelling no token has (C++'s `operator+`) as a new symbol.
    pub fn push(&mut self, spelling: &str) -> u32 {
        self.own.push(spelling.into());
        (self.len() - 1) as u32
    }

    /// The newest symbol spelt `spelling` among those [`Self::push`]
    /// added last, searched from the end.
    pub fn rfind(&self, spelling: &str) -> Option<u32> {
        let at = self.own.iter().rposition(|s| &**s == spelling)?;
        Some((self.shared.len() + at) as u32)
    }

    /// How many symbols there are (each is below this).
    pub fn len(&self) -> usize {
        self.shared.len() + self.own.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl std::ops::Index<usize> for Spellings {
    type Output = str;
    #[inline]
    fn index(&self, sym: usize) -> &str {
        self.get(sym as u32)
    }
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
            spellings: Spellings {
                shared: Arc::new([]),
                own: Vec::with_capacity(slots / 2),
            },
        };
        for p in Punct::ALL {
            interner.sym(p.spelling());
        }
        interner
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
            if h == hash && same_bytes(self.spellings.get(sym).as_bytes(), s.as_bytes()) {
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
        let sym = self.spellings.len() as u32;
        self.spellings.own.push(Box::from(s));
        self.slots[slot] = (hash, sym);
        if self.spellings.len() * 2 > self.slots.len() {
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
            if h == hash && same_bytes(self.spellings.get(sym).as_bytes(), s.as_bytes()) {
                return Some(sym);
            }
            i = (i + 1) & mask;
        }
    }

    /// The spelling of every symbol, by symbol.
    pub fn spellings(&self) -> &Spellings {
        &self.spellings
    }

    /// [`Interner::spellings`], taken.
    pub fn into_spellings(self) -> Spellings {
        self.spellings
    }

    /// The spelling of symbol `sym`.
    #[inline]
    pub fn get(&self, sym: u32) -> &str {
        self.spellings.get(sym)
    }

    /// The symbols in a form that can cross threads.
    pub(crate) fn freeze(&self) -> FrozenInterner {
        let Spellings { shared, own } = &self.spellings;
        FrozenInterner {
            slots: self.slots.clone(),
            shift: self.shift,
            spellings: shared.iter().chain(own).cloned().collect(),
        }
    }

    /// How many symbols there are (each is below this).
    pub fn len(&self) -> usize {
        self.spellings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spellings.is_empty()
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

    /// `tokens` as public tokens: one allocation per spelling, shared by
    /// the tokens that have it.
    pub(crate) fn tokens<'a>(
        &'a self,
        tokens: &'a [CompactToken],
    ) -> impl Iterator<Item = Token> + 'a {
        let mut texts: Vec<Option<Rc<str>>> = vec![None; self.len()];
        tokens.iter().map(move |t| Token {
            kind: t.kind,
            text: texts[t.sym as usize]
                .get_or_insert_with(|| Rc::from(self.get(t.sym)))
                .clone(),
            location: t.location,
            leading_space: t.space(),
        })
    }
}

/// An [`Interner`]'s symbols, kept where builds on other threads read them:
/// in the prelude cache. Thawing shares its spellings instead of copying
/// them.
pub(crate) struct FrozenInterner {
    slots: Vec<(u32, u32)>,
    shift: u32,
    spellings: Arc<[Box<str>]>,
}

impl FrozenInterner {
    /// An interner with the same symbols, and room for as many more before
    /// it grows.
    pub(crate) fn thaw(&self) -> Interner {
        Interner {
            slots: self.slots.clone(),
            shift: self.shift,
            spellings: Spellings {
                shared: Arc::clone(&self.spellings),
                own: Vec::with_capacity(
                    (self.slots.len() / 2).saturating_sub(self.spellings.len()),
                ),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Interner;

    #[test]
    fn interner_grows_and_keeps_symbols() {
        let mut interner = Interner::default();
        let names: Vec<String> = (0..5000).map(|i| format!("name_{i}")).collect();
        let first: Vec<u32> = names.iter().map(|n| interner.sym(n)).collect();
        // Short and empty spellings hash without reading past the end.
        for s in ["", "a", "ab", "abc", "abcd", "abcdefgh", "abcdefghi"] {
            let a = interner.sym(s);
            assert_eq!(interner.get(a), s);
            assert_eq!(a, interner.sym(s));
        }
        for (n, &r) in names.iter().zip(&first) {
            assert_eq!(interner.sym(n), r);
            assert_eq!(interner.get(r), n);
        }
    }

    #[test]
    fn a_thawed_interner_shares_the_frozen_spellings() {
        let mut interner = Interner::default();
        let a = interner.sym("alpha");
        let frozen = interner.freeze();
        let (mut one, mut two) = (frozen.thaw(), frozen.thaw());
        assert_eq!((one.sym("alpha"), two.sym("alpha")), (a, a));
        assert!(std::ptr::eq(one.get(a), two.get(a)));
        // Each layers its own symbols on the shared ones.
        let b = one.sym("beta");
        assert_eq!(b, a + 1);
        assert_eq!(two.sym("gamma"), b);
        assert_eq!((one.get(b), two.get(b)), ("beta", "gamma"));
        assert_eq!(one.find("gamma"), None);
    }
}
