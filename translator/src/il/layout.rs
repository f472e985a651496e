//! The order a function's blocks are written in, before `gotos::eliminate`
//! restructures their gotos: each block after every block that reaches
//! it by a forward edge (so after its dominators: every value is defined
//! before its uses are read), and each loop's blocks together, header
//! first. A backward goto repeats the statements from its label to
//! itself, so a loop written together repeats only its own blocks; a block
//! of the code after a loop placed inside the loop's run (reverse
//! postorder alone may put it there) would run again on every iteration,
//! and a barrier in it would be reached a different number of times by
//! different work-items.
//!
//! The binary's order promises none of this (llvm-spirv writes LLVM's
//! block order, which optimisations shuffle).

use rspirv::dr::{self, Operand};
use rspirv::spirv::Op;
use std::collections::HashMap;

/// The reachable blocks of `function`, by index, in the order to write
/// them.
pub(super) fn layout(function: &dr::Function) -> Vec<usize> {
    let count = function.blocks.len();
    if count == 0 {
        return Vec::new();
    }
    let successors = successors(function);
    let order = reverse_postorder(&successors);
    let mut rank = vec![usize::MAX; count];
    for (i, &b) in order.iter().enumerate() {
        rank[b] = i;
    }
    let idom = dominators(&successors, &order, &rank);
    let dominates = |a: usize, mut b: usize| loop {
        if a == b {
            return true;
        }
        if b == 0 || idom[b] == usize::MAX || idom[b] == b {
            return false;
        }
        b = idom[b];
    };
    // Back edges and the natural loop of each header.
    let mut predecessors = vec![Vec::new(); count];
    let mut back_edges = Vec::new();
    for &b in &order {
        for &s in &successors[b] {
            if dominates(s, b) {
                back_edges.push((b, s));
            } else {
                predecessors[s].push(b);
            }
        }
    }
    let mut loops: HashMap<usize, Vec<bool>> = HashMap::new();
    for &(latch, header) in &back_edges {
        let members = loops.entry(header).or_insert_with(|| {
            let mut m = vec![false; count];
            m[header] = true;
            m
        });
        let mut stack = vec![latch];
        while let Some(b) = stack.pop() {
            if members[b] {
                continue;
            }
            members[b] = true;
            stack.extend(predecessors[b].iter().copied());
            // Predecessors along other back edges into inner loops.
            for &(l, h) in &back_edges {
                if h == b && l != latch {
                    stack.push(l);
                }
            }
        }
    }
    // A topological order of the forward edges, choosing among the ready
    // blocks those of the innermost open loop first, then by rank.
    let mut waiting: Vec<usize> = (0..count).map(|b| predecessors[b].len()).collect();
    let mut ready = vec![0usize];
    let mut open: Vec<usize> = Vec::new();
    let mut placed = vec![false; count];
    let mut out = Vec::with_capacity(order.len());
    while !ready.is_empty() {
        while let Some(&header) = open.last() {
            if ready.iter().any(|&b| loops[&header][b]) {
                break;
            }
            open.pop();
        }
        let in_open = |b: usize| open.last().is_none_or(|h| loops[h][b]);
        let pick = ready
            .iter()
            .enumerate()
            .filter(|&(_, &b)| in_open(b))
            .min_by_key(|&(_, &b)| rank[b])
            .or_else(|| ready.iter().enumerate().min_by_key(|&(_, &b)| rank[b]))
            .map(|(i, _)| i)
            .expect("a ready block");
        let block = ready.swap_remove(pick);
        placed[block] = true;
        out.push(block);
        if loops.contains_key(&block) {
            open.push(block);
        }
        for &s in &successors[block] {
            if dominates(s, block) {
                continue;
            }
            waiting[s] -= 1;
            if waiting[s] == 0 && !placed[s] {
                ready.push(s);
            }
        }
    }
    // Blocks left by irreducible flow, in reverse postorder.
    out.extend(order.iter().filter(|&&b| !placed[b]));
    out
}

/// Each block's successors, by index.
fn successors(function: &dr::Function) -> Vec<Vec<usize>> {
    let index: HashMap<u32, usize> = function
        .blocks
        .iter()
        .enumerate()
        .filter_map(|(i, b)| Some((b.label.as_ref()?.result_id?, i)))
        .collect();
    function
        .blocks
        .iter()
        .map(|block| {
            let Some(terminator) = block.instructions.last() else {
                return Vec::new();
            };
            if !matches!(
                terminator.class.opcode,
                Op::Branch | Op::BranchConditional | Op::Switch
            ) {
                return Vec::new();
            }
            let mut targets: Vec<usize> = terminator
                .operands
                .iter()
                .filter_map(|o| match o {
                    Operand::IdRef(id) => index.get(id).copied(),
                    _ => None,
                })
                .collect();
            targets.dedup();
            targets
        })
        .collect()
}

/// The blocks reachable from the entry in reverse postorder.
fn reverse_postorder(successors: &[Vec<usize>]) -> Vec<usize> {
    let mut seen = vec![false; successors.len()];
    let mut postorder = Vec::with_capacity(successors.len());
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some((block, at)) = stack.last_mut() {
        if let Some(&next) = successors[*block].get(*at) {
            *at += 1;
            if !seen[next] {
                seen[next] = true;
                stack.push((next, 0));
            }
        } else {
            postorder.push(*block);
            stack.pop();
        }
    }
    postorder.reverse();
    postorder
}

/// Immediate dominators (Cooper, Harvey and Kennedy's iteration); the
/// entry is its own, unreachable blocks have none (`usize::MAX`).
fn dominators(successors: &[Vec<usize>], order: &[usize], rank: &[usize]) -> Vec<usize> {
    let count = successors.len();
    let mut predecessors = vec![Vec::new(); count];
    for &b in order {
        for &s in &successors[b] {
            predecessors[s].push(b);
        }
    }
    let mut idom = vec![usize::MAX; count];
    idom[0] = 0;
    let intersect = |idom: &[usize], mut a: usize, mut b: usize| {
        while a != b {
            while rank[a] > rank[b] {
                a = idom[a];
            }
            while rank[b] > rank[a] {
                b = idom[b];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().skip(1) {
            let mut new = usize::MAX;
            for &p in &predecessors[b] {
                if idom[p] == usize::MAX {
                    continue;
                }
                new = if new == usize::MAX {
                    p
                } else {
                    intersect(&idom, p, new)
                };
            }
            if new != idom[b] {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom
}
