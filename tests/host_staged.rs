//! Host transfers forced onto the staged path (`CLVULKAN_HOST_DIRECT=0`):
//! the checks of `host_transfers/mod.rs` hold when every read, write and
//! map goes through staging and GPU copies, as they do on the direct path
//! (`tests/host_direct.rs`).

mod common;
mod host_transfers;

use host_transfers::fixture;

const DIRECT: bool = false;

#[test]
fn reads_writes_and_rects() {
    host_transfers::reads_writes_and_rects(fixture(DIRECT));
}

#[test]
fn in_order_transfers_keep_their_place_among_kernels() {
    host_transfers::in_order_transfers_keep_their_place_among_kernels(fixture(DIRECT));
}

#[test]
fn out_of_order_transfers_follow_their_events() {
    host_transfers::out_of_order_transfers_follow_their_events(fixture(DIRECT));
}

#[test]
fn maps_are_zero_copy_and_writes_through_them_reach_kernels() {
    host_transfers::maps_are_zero_copy_and_writes_through_them_reach_kernels(fixture(DIRECT));
}

#[test]
fn host_unified_memory_is_reported() {
    host_transfers::host_unified_memory_is_reported(fixture(DIRECT));
}

#[test]
fn a_blocking_command_completes_the_earlier_ones() {
    host_transfers::a_blocking_command_completes_the_earlier_ones(fixture(DIRECT));
}
