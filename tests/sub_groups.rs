//! Sub-groups through the loader (issue 23, `cl_khr_subgroups`): each
//! sub-group function against the host's result per sub-group, the
//! mapping of work-items to sub-groups, and `clGetKernelSubGroupInfo`.
//! Sub-group `k` of a work-group holds local linear ids `k * s` to
//! `(k + 1) * s - 1`, `s` the device's subgroup size (8 on lavapipe, 32 on
//! NVIDIA's GPUs), the last one what is left.

mod common;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::kernel::{
    Kernel, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
    CL_KERNEL_MAX_NUM_SUB_GROUPS, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
    CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
};
use opencl3::types::cl_device_id;

use common::launch::{build_file, run_1d, set_arg};
use common::{buffer_with, read_buffer};

const SOURCE: &str = "tests/kernels/sub_groups.cl";

// cl_intel_required_subgroup_size's queries, which opencl3 does not name.
const CL_DEVICE_SUB_GROUP_SIZES_INTEL: u32 = 0x4108;
const CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL: u32 = 0x410A;

/// `clGetKernelSubGroupInfo(kernel, device, param, input)`, its first
/// `size_t`. (opencl3's `get_kernel_sub_group_info_khr` passes the input's
/// length where the size in bytes belongs.)
fn sub_group_info(kernel: &Kernel, device: cl_device_id, param: u32, input: &[usize]) -> usize {
    let info = opencl3::kernel::get_kernel_sub_group_info(
        kernel.get(),
        device,
        param,
        std::mem::size_of_val(input),
        input.as_ptr().cast(),
    )
    .expect("clGetKernelSubGroupInfo");
    if param == CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT {
        info.to_vec_size()[0]
    } else {
        info.to_size()
    }
}

/// The device's subgroup size, as `clGetKernelSubGroupInfo` reports it
/// for a large work-group.
fn sub_group_size(kernel: &Kernel, device: cl_device_id) -> usize {
    sub_group_info(
        kernel,
        device,
        CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
        &[256],
    )
}

/// Kernel `name` of [`SOURCE`] on the first device, with its context and
/// queue, and the device's subgroup size.
fn kernel_of(name: &str) -> (Context, CommandQueue, Kernel, usize) {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, SOURCE);
    let kernel = Kernel::create(&program, name).expect("kernel");
    let size = sub_group_size(&kernel, context.devices()[0]);
    (context, queue, kernel, size)
}

/// The index ranges of each sub-group of an NDRange of `n` work-items in
/// work-groups of `local` (the last group may be smaller).
fn sub_groups(n: usize, local: usize, size: usize) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    for group in (0..n).step_by(local) {
        let end = (group + local).min(n);
        let mut start = group;
        while start < end {
            ranges.push(start..(start + size).min(end));
            start += size;
        }
    }
    ranges
}

/// A type the collectives take, with the host's versions of their
/// operations.
trait Element: Copy + Default + PartialEq + std::fmt::Debug + 'static {
    const NAME: &'static str;
    const MIN_IDENTITY: Self;
    const MAX_IDENTITY: Self;
    fn from_index(i: usize) -> Self;
    fn add(self, other: Self) -> Self;
    fn min(self, other: Self) -> Self;
    fn max(self, other: Self) -> Self;
}

macro_rules! integer_element {
    ($t:ty, $name:literal, $value:expr) => {
        impl Element for $t {
            const NAME: &'static str = $name;
            const MIN_IDENTITY: Self = <$t>::MAX;
            const MAX_IDENTITY: Self = <$t>::MIN;
            fn from_index(i: usize) -> Self {
                let spread = ((i * 37) % 101) as i64;
                $value(spread) as $t
            }
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            fn min(self, other: Self) -> Self {
                Ord::min(self, other)
            }
            fn max(self, other: Self) -> Self {
                Ord::max(self, other)
            }
        }
    };
}
integer_element!(i32, "int", |v: i64| v - 50);
integer_element!(u32, "uint", |v: i64| v * 1000);
integer_element!(i64, "long", |v: i64| (v - 50) << 33);
integer_element!(u64, "ulong", |v: i64| (v << 40) + 7);

macro_rules! float_element {
    ($t:ty, $name:literal) => {
        impl Element for $t {
            const NAME: &'static str = $name;
            const MIN_IDENTITY: Self = <$t>::INFINITY;
            const MAX_IDENTITY: Self = <$t>::NEG_INFINITY;
            // Halves of small integers: every sum is exact, in any order.
            fn from_index(i: usize) -> Self {
                (((i * 37) % 101) as $t - 50.0) * 0.5
            }
            fn add(self, other: Self) -> Self {
                self + other
            }
            fn min(self, other: Self) -> Self {
                <$t>::min(self, other)
            }
            fn max(self, other: Self) -> Self {
                <$t>::max(self, other)
            }
        }
    };
}
float_element!(f32, "float");
float_element!(f64, "double");

impl Element for half::f16 {
    const NAME: &'static str = "half";
    const MIN_IDENTITY: Self = half::f16::INFINITY;
    const MAX_IDENTITY: Self = half::f16::NEG_INFINITY;
    // As for float: halves of small integers, whose sums in a sub-group
    // are exact in half precision too.
    fn from_index(i: usize) -> Self {
        half::f16::from_f32(f32::from_index(i))
    }
    fn add(self, other: Self) -> Self {
        self + other
    }
    fn min(self, other: Self) -> Self {
        half::f16::min(self, other)
    }
    fn max(self, other: Self) -> Self {
        half::f16::max(self, other)
    }
}

/// A host operation the collectives fold with.
type Fold<T> = fn(T, T) -> T;

/// The ten results `collectives_T` gives each work-item, computed per
/// sub-group.
fn expected<T: Element>(input: &[T], ranges: &[std::ops::Range<usize>]) -> Vec<T> {
    let n = input.len();
    let mut out = vec![T::default(); 10 * n];
    for range in ranges {
        let values = &input[range.clone()];
        let reduce = |f: Fold<T>| values[1..].iter().fold(values[0], |a, &b| f(a, b));
        let folds: [(Fold<T>, T); 3] = [
            (T::add, T::default()),
            (T::min, T::MIN_IDENTITY),
            (T::max, T::MAX_IDENTITY),
        ];
        for (which, &(f, identity)) in folds.iter().enumerate() {
            let total = reduce(f);
            let mut running = None;
            for (lane, i) in range.clone().enumerate() {
                out[which * n + i] = total;
                let before = running.unwrap_or(identity);
                let inclusive = running.map_or(values[lane], |r| f(r, values[lane]));
                out[(3 + which) * n + i] = inclusive;
                out[(6 + which) * n + i] = before;
                running = Some(inclusive);
            }
        }
        for i in range.clone() {
            out[9 * n + i] = *values.last().expect("a work-item");
        }
    }
    out
}

fn check_collectives<T: Element>(n: usize, local: usize) {
    let (context, queue, kernel, size) = kernel_of(&format!("collectives_{}", T::NAME));
    let input: Vec<T> = (0..n).map(T::from_index).collect();
    let input_buffer = buffer_with(&context, &queue, &input);
    let out = buffer_with(&context, &queue, &vec![T::default(); 10 * n]);
    set_arg(&kernel, 0, &input_buffer);
    set_arg(&kernel, 1, &out);
    run_1d(&queue, &kernel, n, local);
    let got = read_buffer::<T>(&queue, &out, 10 * n);
    let want = expected(&input, &sub_groups(n, local, size));
    let names = [
        "reduce_add",
        "reduce_min",
        "reduce_max",
        "scan_inclusive_add",
        "scan_inclusive_min",
        "scan_inclusive_max",
        "scan_exclusive_add",
        "scan_exclusive_min",
        "scan_exclusive_max",
        "broadcast",
    ];
    for (which, name) in names.iter().enumerate() {
        let block = which * n..(which + 1) * n;
        assert_eq!(
            got[block.clone()],
            want[block],
            "{} sub_group_{name}, sub-groups of {size}",
            T::NAME
        );
    }
}

#[test]
fn collectives_of_int_and_uint_match_the_host_per_sub_group() {
    // Work-groups of 50: full sub-groups and a partial last one.
    check_collectives::<i32>(200, 50);
    check_collectives::<u32>(128, 64);
}

#[test]
fn collectives_of_long_and_ulong_match_the_host_per_sub_group() {
    check_collectives::<i64>(200, 50);
    check_collectives::<u64>(96, 96);
}

#[test]
fn collectives_of_float_and_double_match_the_host_per_sub_group() {
    check_collectives::<f32>(200, 50);
    check_collectives::<f64>(150, 75);
}

#[test]
fn collectives_of_half_match_the_host_per_sub_group() {
    let (context, _queue) = common::context_and_queue();
    let device = opencl3::device::Device::new(context.devices()[0]);
    if !device
        .extensions()
        .expect("extensions")
        .contains("cl_khr_fp16")
    {
        eprintln!("skipped: the device has no cl_khr_fp16");
        return;
    }
    check_collectives::<half::f16>(200, 50);
}

#[test]
fn work_items_map_to_sub_groups_in_order_of_local_id() {
    let (context, queue, kernel, size) = kernel_of("ids");
    // A non-uniform NDRange: groups of 50, the last of 30.
    let (n, local) = (130, 50);
    let out = buffer_with(&context, &queue, &vec![u32::MAX; 9 * n]);
    set_arg(&kernel, 0, &out);
    // SAFETY: argument 1 is the kernel's `local uint *`.
    unsafe { kernel.set_arg_local_buffer(1, local * 4) }.expect("local argument");
    run_1d(&queue, &kernel, n, local);
    let got = read_buffer::<u32>(&queue, &out, 9 * n);
    for i in 0..n {
        let group_size = local.min(n - i / local * local);
        let lid = i % local;
        let (id, lane) = (lid / size, lid % size);
        let this_size = size.min(group_size - id * size);
        let first = i - lane;
        let row = |k: usize| got[k * n + i] as usize;
        let want = [
            id,
            lane,
            this_size,
            size.min(local),
            group_size.div_ceil(size),
            local.div_ceil(size),
            (first..first + this_size).all(|j| j % 7 != 3) as usize,
            (this_size > 1) as usize,
            (first + (lane + 1) % this_size) * 3,
        ];
        let have: Vec<usize> = (0..9).map(row).collect();
        assert_eq!(have, want, "work-item {i}, sub-groups of {size}");
    }
}

#[test]
fn kernel_sub_group_info_follows_the_device_subgroup_size() {
    let (context, _queue, kernel, size) = kernel_of("ids");
    let device = context.devices()[0];
    assert!(size.is_power_of_two() && size >= 4, "subgroup size {size}");
    let info = |param, input: &[usize]| sub_group_info(&kernel, device, param, input);
    assert_eq!(info(CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, &[3]), 3);
    assert_eq!(
        info(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, &[50]),
        50usize.div_ceil(size)
    );
    assert_eq!(
        info(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, &[10, 5, 2]),
        100usize.div_ceil(size)
    );
    assert_eq!(
        info(CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, &[2]),
        2 * size
    );
    assert_eq!(
        info(CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, &[1 << 20]),
        0
    );
    let max_work_group: usize = opencl3::device::Device::new(device)
        .max_work_group_size()
        .expect("max work-group size");
    assert_eq!(
        info(CL_KERNEL_MAX_NUM_SUB_GROUPS, &[]),
        max_work_group.div_ceil(size)
    );
    assert_eq!(info(CL_KERNEL_COMPILE_NUM_SUB_GROUPS, &[]), 0);
    let max_sub_groups = opencl3::device::Device::new(device)
        .max_num_sub_groups()
        .expect("max sub-groups");
    assert_eq!(max_sub_groups as usize, max_work_group.div_ceil(size));
    // The extension needs independent forward progress; the OpenCL C 3.0
    // feature does not.
    let device = opencl3::device::Device::new(device);
    let extensions = device.extensions().expect("extensions");
    let progress = device
        .sub_group_independent_forward_progress()
        .expect("forward progress");
    assert_eq!(
        extensions.split(' ').any(|e| e == "cl_khr_subgroups"),
        progress
    );
    assert!(extensions.split(' ').any(|e| e == "cl_khr_subgroup_ballot"));
    let features = device.opencl_c_features().expect("features");
    let named = |f: &opencl3::types::cl_name_version| {
        let end = f.name.iter().position(|&c| c == 0).unwrap_or(f.name.len());
        &f.name[..end] == b"__opencl_c_subgroups"
    };
    assert!(features.iter().any(named));
}

/// What `extensions` gives each work-item of whole sub-groups of `size`.
fn expected_extensions(x: &[i32], size: usize) -> Vec<i32> {
    let n = x.len();
    let mut out = vec![0; 24 * n];
    for base in (0..n).step_by(size) {
        let lanes = &x[base..base + size];
        let ballot: u128 = (0..size)
            .filter(|&l| lanes[l] % 3 == 0)
            .map(|l| 1u128 << l)
            .sum();
        let count = |bits: u128| bits.count_ones() as i32;
        let below = |l: usize| (1u128 << l) - 1;
        let odd: Vec<i32> = (1..size).step_by(2).map(|l| lanes[l]).collect();
        for lane in 0..size {
            let i = base + lane;
            let row = [
                lanes[(lane * 3 + 1) % size],
                lanes[lane ^ (5 % size)],
                if lane >= 1 { lanes[lane - 1] } else { -1 },
                if lane + 2 < size { lanes[lane + 2] } else { -1 },
                lanes[(lane + 3) % size],
                lanes[(lane + size - 1) % size],
                lanes[(lane & !3) + ((lane + 1) & 3)],
                lanes[0],
                lanes[2],
                (lane == 0) as i32,
                lanes.iter().all(|&v| v / 1000 == lanes[0] / 1000) as i32,
                if lane % 2 == 1 { lanes[1] } else { -1 },
                if lane % 2 == 1 {
                    (lane == 1) as i32
                } else {
                    -1
                },
                if lane % 2 == 1 {
                    odd.iter().all(|v| v % 2 == 1) as i32
                        + 2 * odd.iter().any(|v| v % 5 == 0) as i32
                } else {
                    -1
                },
                count(ballot),
                count(ballot & below(lane + 1)),
                count(ballot & below(lane)),
                if ballot == 0 {
                    -1
                } else {
                    ballot.trailing_zeros() as i32
                },
                if ballot == 0 {
                    -1
                } else {
                    127 - ballot.leading_zeros() as i32
                },
                (ballot >> lane & 1) as i32,
                (ballot >> ((lane + 1) % size) & 1) as i32,
                ((size - lane) * 1_000_000 + (size - lane - 1) * 10_000 + (lane + 1) * 100 + lane)
                    as i32,
                3,
                ballot as u32 as i32,
            ];
            for (k, value) in row.into_iter().enumerate() {
                out[k * n + i] = value;
            }
        }
    }
    out
}

#[test]
fn shuffles_rotates_votes_and_ballots_match_the_host_per_sub_group() {
    let (context, queue, kernel, size) = kernel_of("extensions");
    // Work-groups of 64: whole sub-groups of 8 or 32.
    let (n, local) = (256, 64);
    let x: Vec<i32> = (0..n)
        .map(|i| ((i * 37) % 101 * 10 + i % 7) as i32)
        .collect();
    let input = buffer_with(&context, &queue, &x);
    let out = buffer_with(&context, &queue, &vec![i32::MIN; 24 * n]);
    set_arg(&kernel, 0, &input);
    set_arg(&kernel, 1, &out);
    run_1d(&queue, &kernel, n, local);
    let got = read_buffer::<i32>(&queue, &out, 24 * n);
    let want = expected_extensions(&x, size);
    let names = [
        "shuffle",
        "shuffle_xor",
        "shuffle_up",
        "shuffle_down",
        "rotate 3",
        "rotate -1",
        "clustered_rotate",
        "broadcast_first",
        "non_uniform_broadcast",
        "elect",
        "non_uniform_all_equal",
        "broadcast_first (odd)",
        "elect (odd)",
        "all/any (odd)",
        "ballot_bit_count",
        "ballot_inclusive_scan",
        "ballot_exclusive_scan",
        "find_lsb",
        "find_msb",
        "inverse_ballot",
        "ballot_bit_extract",
        "ge/gt/le/lt masks",
        "eq mask",
        "ballot word 0",
    ];
    for (k, name) in names.iter().enumerate() {
        let block = k * n..(k + 1) * n;
        assert_eq!(
            got[block.clone()],
            want[block],
            "{name}, sub-groups of {size}"
        );
    }
}

#[test]
fn shuffles_move_char_long_and_double_unchanged() {
    let (context, queue, kernel, size) = kernel_of("shuffle_types");
    let n = 128;
    let c: Vec<i8> = (0..n).map(|i| (i as i8).wrapping_mul(37)).collect();
    let l: Vec<i64> = (0..n).map(|i| (i as i64 - 60) << 40).collect();
    let d: Vec<f64> = (0..n).map(|i| i as f64 * 1.0e-3 - 0.05).collect();
    let buffers = (
        buffer_with(&context, &queue, &c),
        buffer_with(&context, &queue, &l),
        buffer_with(&context, &queue, &d),
        buffer_with(&context, &queue, &vec![0i8; n]),
        buffer_with(&context, &queue, &vec![0i64; n]),
        buffer_with(&context, &queue, &vec![0f64; n]),
    );
    set_arg(&kernel, 0, &buffers.0);
    set_arg(&kernel, 1, &buffers.1);
    set_arg(&kernel, 2, &buffers.2);
    set_arg(&kernel, 3, &buffers.3);
    set_arg(&kernel, 4, &buffers.4);
    set_arg(&kernel, 5, &buffers.5);
    run_1d(&queue, &kernel, n, 64);
    let from = |i: usize| i - i % size + (i % size + 1) % size;
    let want_c: Vec<i8> = (0..n).map(|i| c[from(i)]).collect();
    let want_l: Vec<i64> = (0..n).map(|i| l[from(i)]).collect();
    let want_d: Vec<f64> = (0..n).map(|i| d[from(i)]).collect();
    assert_eq!(read_buffer::<i8>(&queue, &buffers.3, n), want_c);
    assert_eq!(read_buffer::<i64>(&queue, &buffers.4, n), want_l);
    assert_eq!(read_buffer::<f64>(&queue, &buffers.5, n), want_d);
}

/// What `arithmetic` gives each work-item of whole sub-groups of `size`
/// (-1 where a work-item skipped the branch).
fn expected_arithmetic(x: &[i32], size: usize) -> Vec<i32> {
    let n = x.len();
    let mut out = vec![-1; 16 * n];
    let fold = |values: &[i32], f: fn(i32, i32) -> i32, identity: i32| {
        values.iter().fold(identity, |a, &b| f(a, b))
    };
    for base in (0..n).step_by(size) {
        let lanes = &x[base..base + size];
        let active: Vec<usize> = (0..size).filter(|l| l % 3 != 1).collect();
        let of = |f: &dyn Fn(i32) -> i32, upto: usize, inclusive: bool| -> Vec<i32> {
            active
                .iter()
                .filter(|&&l| if inclusive { l <= upto } else { l < upto })
                .map(|&l| f(lanes[l]))
                .collect()
        };
        let all = |f: &dyn Fn(i32) -> i32| of(f, size, false);
        let id = |v: i32| v;
        let small = |v: i32| v % 3 + 1;
        let even = |v: i32| (v % 2 == 0) as i32;
        for lane in 0..size {
            let i = base + lane;
            if lane % 3 != 1 {
                let row = [
                    fold(&all(&id), i32::wrapping_add, 0),
                    fold(&all(&small), i32::wrapping_mul, 1),
                    fold(&all(&id), Ord::min, i32::MAX),
                    fold(&all(&id), |a, b| a ^ b, 0),
                    all(&id).iter().any(|v| v % 11 == 0) as i32,
                    fold(&of(&id, lane, true), i32::wrapping_add, 0),
                    fold(&of(&small, lane, false), i32::wrapping_mul, 1),
                    fold(&of(&id, lane, true), Ord::max, i32::MIN),
                    fold(&of(&id, lane, false), Ord::min, i32::MAX),
                    fold(&of(&id, lane, true), |a, b| a | b, 0),
                    fold(&of(&|v| v | 0x100, lane, false), |a, b| a & b, -1),
                    fold(&of(&even, lane, true), |a, b| a ^ b, 0),
                ];
                for (k, value) in row.into_iter().enumerate() {
                    out[k * n + i] = value;
                }
            }
            let cluster = |c: usize| &lanes[lane - lane % c..lane - lane % c + c];
            out[12 * n + i] = cluster(4).iter().sum();
            out[13 * n + i] = *cluster(2).iter().max().expect("lanes");
            out[14 * n + i] = cluster(8).iter().fold(-1, |a, &b| a & (b | 0xF0));
            out[15 * n + i] = cluster(4).iter().all(|&v| v > 100) as i32;
        }
    }
    out
}

#[test]
fn non_uniform_and_clustered_arithmetic_match_the_host() {
    let (context, queue, kernel, size) = kernel_of("arithmetic");
    let (n, local) = (256, 64);
    let x: Vec<i32> = (0..n)
        .map(|i| ((i * 37) % 101 * 10 + i % 7) as i32)
        .collect();
    let c: Vec<i8> = (0..n).map(|i| (i as i8).wrapping_mul(29)).collect();
    let input = buffer_with(&context, &queue, &x);
    let out = buffer_with(&context, &queue, &vec![-1i32; 16 * n]);
    let chars = buffer_with(&context, &queue, &c);
    let char_sums = buffer_with(&context, &queue, &vec![0i8; n]);
    set_arg(&kernel, 0, &input);
    set_arg(&kernel, 1, &out);
    set_arg(&kernel, 2, &chars);
    set_arg(&kernel, 3, &char_sums);
    run_1d(&queue, &kernel, n, local);
    let got = read_buffer::<i32>(&queue, &out, 16 * n);
    let want = expected_arithmetic(&x, size);
    let names = [
        "reduce_add",
        "reduce_mul",
        "reduce_min",
        "reduce_xor",
        "reduce_logical_or",
        "scan_inclusive_add",
        "scan_exclusive_mul",
        "scan_inclusive_max",
        "scan_exclusive_min",
        "scan_inclusive_or",
        "scan_exclusive_and",
        "scan_inclusive_logical_xor",
        "clustered_reduce_add 4",
        "clustered_reduce_max 2",
        "clustered_reduce_and 8",
        "clustered_reduce_logical_and 4",
    ];
    for (k, name) in names.iter().enumerate() {
        let block = k * n..(k + 1) * n;
        assert_eq!(
            got[block.clone()],
            want[block],
            "sub_group_{name}, sub-groups of {size}"
        );
    }
    // char sums wrap at 8 bits.
    let want_chars: Vec<i8> = (0..n)
        .map(|i| {
            let base = i - i % size;
            if (i % size) % 3 == 1 {
                return 0;
            }
            (0..size)
                .filter(|l| l % 3 != 1)
                .fold(0i8, |a, l| a.wrapping_add(c[base + l]))
        })
        .collect();
    assert_eq!(
        read_buffer::<i8>(&queue, &char_sums, n),
        want_chars,
        "char sums"
    );
}

#[test]
fn extended_types_wrap_and_vectors_broadcast_whole() {
    let (context, queue, kernel, size) = kernel_of("extended_types");
    let n = 128;
    let c: Vec<i8> = (0..n).map(|i| (i as i8).wrapping_mul(53)).collect();
    let s: Vec<u16> = (0..n).map(|i| (i as u16).wrapping_mul(4099)).collect();
    let v: Vec<[i32; 16]> = (0..n)
        .map(|i| std::array::from_fn(|k| (i * 16 + k) as i32 - 700))
        .collect();
    let flat_v: Vec<i32> = v.iter().flatten().copied().collect();
    let buffers = (
        buffer_with(&context, &queue, &c),
        buffer_with(&context, &queue, &s),
        buffer_with(&context, &queue, &flat_v),
        buffer_with(&context, &queue, &vec![0i8; 4 * n]),
        buffer_with(&context, &queue, &vec![0u16; 2 * n]),
        buffer_with(&context, &queue, &vec![0i32; 16 * n]),
        buffer_with(&context, &queue, &vec![0f32; 4 * n]),
    );
    set_arg(&kernel, 0, &buffers.0);
    set_arg(&kernel, 1, &buffers.1);
    set_arg(&kernel, 2, &buffers.2);
    set_arg(&kernel, 3, &buffers.3);
    set_arg(&kernel, 4, &buffers.4);
    set_arg(&kernel, 5, &buffers.5);
    set_arg(&kernel, 6, &buffers.6);
    run_1d(&queue, &kernel, n, 64);
    let mut want_c = vec![0i8; 4 * n];
    let mut want_s = vec![0u16; 2 * n];
    let mut want_v = vec![0i32; 16 * n];
    let mut want_f = vec![0f32; 4 * n];
    for i in 0..n {
        let base = i - i % size;
        let group = base..base + size;
        want_c[i] = c[group.clone()].iter().fold(0i8, |a, &b| a.wrapping_add(b));
        want_c[n + i] = c[base..=i].iter().fold(0i8, |a, &b| a.wrapping_add(b));
        want_c[2 * n + i] = c[base..i].iter().copied().fold(i8::MAX, Ord::min);
        want_c[3 * n + i] = c[base + 1];
        want_s[i] = s[group.clone()]
            .iter()
            .fold(0u16, |a, &b| a.wrapping_add(b));
        want_s[n + i] = s[base..=i].iter().copied().fold(0, Ord::max);
        want_v[16 * i..16 * i + 16].copy_from_slice(&v[base + 3]);
        let last = &v[base + size - 1];
        want_f[4 * i..4 * i + 3].copy_from_slice(&[last[1] as f32, last[2] as f32, last[3] as f32]);
    }
    assert_eq!(read_buffer::<i8>(&queue, &buffers.3, 4 * n), want_c, "char");
    assert_eq!(
        read_buffer::<u16>(&queue, &buffers.4, 2 * n),
        want_s,
        "ushort"
    );
    assert_eq!(
        read_buffer::<i32>(&queue, &buffers.5, 16 * n),
        want_v,
        "int16"
    );
    let got_f = read_buffer::<f32>(&queue, &buffers.6, 4 * n);
    for i in 0..n {
        assert_eq!(
            got_f[4 * i..4 * i + 3],
            want_f[4 * i..4 * i + 3],
            "float3 {i}"
        );
    }
}

#[test]
fn required_sub_group_sizes_build_and_run_where_the_device_takes_them() {
    let (context, queue) = common::context_and_queue();
    let device = context.devices()[0];
    let source = |size: usize| {
        format!(
            "__attribute__((intel_reqd_sub_group_size({size})))\n\
             kernel void k(global uint *out) {{ out[get_global_id(0)] = get_sub_group_size(); }}\n"
        )
    };
    let probe = opencl3::program::Program::create_and_build_from_source(&context, &source(8), "");
    let size = match probe {
        Ok(program) => {
            let kernel = Kernel::create(&program, "k").expect("kernel");
            sub_group_size(&kernel, device)
        }
        Err(log) => {
            // Not 8: the log names the device's size.
            assert!(log.contains("is not supported by this device"), "{log}");
            let tail = log
                .split("whose sub-groups have ")
                .nth(1)
                .expect("the size");
            tail.split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a number")
        }
    };
    let program =
        opencl3::program::Program::create_and_build_from_source(&context, &source(size), "")
            .expect("the device's own size builds");
    let kernel = Kernel::create(&program, "k").expect("kernel");
    // Launched, through the pipeline that asks for the size where the
    // device can be asked.
    let (n, local) = (128, 64);
    let out = buffer_with(&context, &queue, &vec![0u32; n]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, n, local);
    assert_eq!(read_buffer::<u32>(&queue, &out, n), vec![size as u32; n]);
    let compiled = opencl3::kernel::get_kernel_sub_group_info(
        kernel.get(),
        device,
        CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL,
        0,
        std::ptr::null(),
    )
    .expect("compile sub-group size")
    .to_vec_uchar();
    assert_eq!(compiled, size.to_ne_bytes());
    let other =
        opencl3::program::Program::create_and_build_from_source(&context, &source(size * 2), "");
    let log = other.expect_err("another size is refused");
    assert!(
        log.contains(&format!("sub-group size {} is not supported", size * 2)),
        "{log}"
    );
    let sizes = opencl3::device::Device::new(device)
        .get_data(CL_DEVICE_SUB_GROUP_SIZES_INTEL)
        .expect("sub-group sizes");
    // Every size the device takes: these devices have one.
    assert_eq!(sizes, size.to_ne_bytes());
}
