//! Host transfers on the direct path: on a device whose memory the host
//! shares (lavapipe), reads, writes and rects copy to and from the buffer
//! itself and maps are zero copy; see `host_transfers/mod.rs` for the
//! checks, which `tests/host_staged.rs` repeats on the staged path.

mod common;
mod host_transfers;

use host_transfers::fixture;

const DIRECT: bool = true;

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
